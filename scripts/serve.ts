/**
 * `npm run preview [-- --port 4321 --host 127.0.0.1 --root dist]`: serves a built site the way production
 * does (scripts/serving/static-server.ts).
 */
import { parseArgs } from 'node:util';
import { readConfig, readMachineSettings } from '../src/config.ts';
import { serveDist } from './serving/static-server.ts';

const { values } = parseArgs({
  options: { port: { type: 'string', default: '4321' }, host: { type: 'string', default: '127.0.0.1' }, root: { type: 'string', default: readMachineSettings().outDir } },
});
// Under the path the site was built for (BASE_PATH), as the production server serves it.
const { basePath } = readConfig();
const { url } = await serveDist({ port: Number(values.port), host: values.host, root: values.root, basePath });
console.log(`Serving ${values.root}/ on ${url}${basePath}/`);
