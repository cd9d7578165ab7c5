/**
 * Starts the real sample API for a test on a free loopback port. Each caller
 * names its own data folder, so parallel test files never share a database;
 * the generated pictures in it are kept between runs.
 */
import type { FaultRule } from '../../scripts/sample-api/faults.ts';
import { startSampleApi, type SampleApi } from '../../scripts/sample-api/server.ts';

/** The data folder (and so the SQLite file, `sample.db`) of the test API called `name`. */
export const testApiDir = (name: string) => `.cache/test-api/${name}`;

/** `faults`: rules to inject (none by default, whatever SAMPLE_API_FAULTS says). */
export async function startTestApi(name: string, options: { scale?: number; faults?: FaultRule[] } = {}): Promise<SampleApi> {
  return startSampleApi({
    host: '127.0.0.1',
    port: 0,
    dataDir: testApiDir(name),
    reset: true,
    scale: options.scale ?? 0,
    faults: options.faults ?? [],
    log: () => {},
  });
}
