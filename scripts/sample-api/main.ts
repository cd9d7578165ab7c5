/**
 * `npm run sample-api [-- --port 8787 --host 127.0.0.1 --data .sample-api --reset --scale N --quiet]`
 * Starts the bundled sample API alone and prints its URL.
 */
import { parseArgs } from 'node:util';
import { startSampleApi } from './server.ts';

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '8787' },
    host: { type: 'string', default: '127.0.0.1' },
    data: { type: 'string', default: '.sample-api' },
    reset: { type: 'boolean', default: false },
    scale: { type: 'string', default: '0' },
    quiet: { type: 'boolean', default: false },
  },
});

const api = await startSampleApi({
  host: values.host,
  port: Number(values.port),
  dataDir: values.data,
  reset: values.reset,
  scale: Number(values.scale),
  logRequests: !values.quiet,
});
console.log(`Sample API listening on ${api.url}`);
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => void api.close().then(() => process.exit(0)));
}
