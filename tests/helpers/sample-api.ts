/**
 * Starts the real sample API for a test on a free loopback port. Each caller
 * names its own data folder, so parallel test files never share a database;
 * the generated pictures in it are kept between runs.
 */
import { startSampleApi, type SampleApi } from '../../scripts/sample-api/server.ts';

export async function startTestApi(name: string, options: { scale?: number } = {}): Promise<SampleApi> {
  return startSampleApi({
    host: '127.0.0.1',
    port: 0,
    dataDir: `.cache/test-api/${name}`,
    reset: true,
    scale: options.scale ?? 0,
    log: () => {},
  });
}
