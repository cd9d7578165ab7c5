/**
 * Preflight of `npm start`, `npm run build` and `npm test`: the scripts are TypeScript run by Node
 * itself, which needs Node 22.18 or newer (Node 24 is what the project is tested on). npm runs
 * scripts with node_modules/.bin first in PATH, where the `node` development dependency puts
 * Node 24; if that did not happen, stop at once with what to do instead of a stack trace about
 * ".ts". Plain JavaScript, so any Node runs it.
 */
const [major, minor] = process.versions.node.split('.').map(Number);
if (major < 22 || (major === 22 && minor < 18)) {
  console.error(
    [
      `This project's scripts need Node 24 (they are TypeScript that Node runs directly); this is Node ${process.versions.node}.`,
      'npm normally runs them on the Node 24 that `npm install` puts in node_modules/.bin (the `node` development',
      'dependency, whose install script package.json allows under "allowScripts"). It is not there, so:',
      '  - run `npm install` again (not with --ignore-scripts), or',
      '  - install Node 24 yourself (see .nvmrc; e.g. `nvm install`) and run the command again.',
    ].join('\n'),
  );
  process.exit(1);
}
