/**
 * Starts the real sample API for a test on a free loopback port. Each caller
 * names its own data folder, so parallel test files never share a database;
 * the seed's pictures are drawn once on a machine for every folder
 * (scripts/sample-api/images.ts).
 */
import type { FaultRule } from '../../scripts/sample-api/faults.ts';
import type { MediaHeaderMode, PhotoMode } from '../../scripts/sample-api/media.ts';
import { startSampleApi, type SampleApi } from '../../scripts/sample-api/server.ts';

/** The data folder (and so the SQLite file, `sample.db`) of the test API called `name`. */
export const testApiDir = (name: string) => `.cache/test-api/${name}`;

export interface TestApiOptions {
  scale?: number;
  /** Rules to inject (none by default, whatever SAMPLE_API_FAULTS says). */
  faults?: FaultRule[];
  /** `shared` by default, whatever SAMPLE_API_PHOTOS says. */
  photos?: PhotoMode;
  /** `max-age` by default, whatever SAMPLE_API_MEDIA_HEADERS says. */
  mediaHeaders?: MediaHeaderMode;
  /** 0 by default, whatever SAMPLE_API_LATENCY_MS says. */
  latencyMs?: number;
}

/** Replace a picture at the same URL with `api.replaceMedia('/media/post/101.jpg')` (see scripts/sample-api/media.ts). */
export async function startTestApi(name: string, options: TestApiOptions = {}): Promise<SampleApi> {
  return startSampleApi({
    host: '127.0.0.1',
    port: 0,
    dataDir: testApiDir(name),
    reset: true,
    scale: options.scale ?? 0,
    faults: options.faults ?? [],
    photos: options.photos ?? 'shared',
    mediaHeaders: options.mediaHeaders ?? 'max-age',
    latencyMs: options.latencyMs ?? 0,
    log: () => {},
  });
}
