/**
 * `npm run sample-api [-- --port 8787 --host 127.0.0.1 --data .sample-api --reset --scale N --quiet]`
 * `                      [--fault KIND:MATCH[:MS][xN] ...]`
 * Starts the bundled sample API alone and prints its URL.
 *
 * `--fault` (repeatable) injects a fault, added to those of SAMPLE_API_FAULTS; see faults.ts, e.g.
 * `--fault 500:/api/gallery/photos`, `--fault slow:/api/home/menus:5000`, `--fault 500:/api/post/1x2`.
 */
import { parseArgs } from 'node:util';
import { faultsFromEnv, parseFaultFlag, type FaultRule } from './faults.ts';
import { startSampleApi } from './server.ts';

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '8787' },
    host: { type: 'string', default: '127.0.0.1' },
    data: { type: 'string', default: '.sample-api' },
    reset: { type: 'boolean', default: false },
    scale: { type: 'string', default: '0' },
    quiet: { type: 'boolean', default: false },
    fault: { type: 'string', multiple: true, default: [] },
  },
});

let faults: FaultRule[];
try {
  faults = [...faultsFromEnv(), ...values.fault.map(parseFaultFlag)];
} catch (err) {
  console.error(err instanceof Error ? err.message : String(err));
  process.exit(2);
}

const api = await startSampleApi({
  host: values.host,
  port: Number(values.port),
  dataDir: values.data,
  reset: values.reset,
  scale: Number(values.scale),
  logRequests: !values.quiet,
  faults,
});
console.log(`Sample API listening on ${api.url}`);
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => void api.close().then(() => process.exit(0)));
}
