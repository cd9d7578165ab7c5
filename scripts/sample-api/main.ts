/**
 * `npm run sample-api [-- --port 8787 --host 127.0.0.1 --data .sample-api --reset --scale N --quiet]`
 * `                      [--fault KIND:MATCH[:MS][xN] ...]`
 * `                      [--photos shared|distinct] [--media-headers none|etag|last-modified|max-age] [--latency MS]`
 * Starts the bundled sample API alone and prints its URL.
 *
 * `--fault` (repeatable) injects a fault, added to those of SAMPLE_API_FAULTS; see faults.ts, e.g.
 * `--fault 500:/api/gallery/photos`, `--fault slow:/api/home/menus:5000`, `--fault 500:/api/post/1x2`.
 *
 * To behave like the administration's real API (see media.ts); each flag overrides its variable:
 * - `--photos distinct` (SAMPLE_API_PHOTOS): every post (the `--scale` ones too), employee and gallery
 *   photo has its own JPEG photograph, `/media/post/<id>.jpg` (the same URL in every language), 1600×1066
 *   (portraits 800×1000), some 100–300 KB, drawn on its first request and kept in `<data>/media-cache/`.
 *   Default `shared`: the seed's ~100 flat PNGs under `/uploads/`.
 * - `--media-headers MODE` (SAMPLE_API_MEDIA_HEADERS), for `/uploads/` and `/media/`: `max-age` (default,
 *   `cache-control: public, max-age=86400` only), `etag` (a strong ETag only; 304 to If-None-Match),
 *   `last-modified` (Last-Modified only; 304 to If-Modified-Since), `none` (none of them).
 * - `--latency MS` (SAMPLE_API_LATENCY_MS): every answer waits MS before its first byte.
 * A test replaces a picture at the same URL with `POST /_sample/replace-media?path=/media/post/101.jpg`
 * (loopback callers only) or `api.replaceMedia(path)`: new bytes, a new ETag and a later Last-Modified.
 */
import { parseArgs } from 'node:util';
import { faultsFromEnv, parseFaultFlag, type FaultRule } from './faults.ts';
import { latencyFromEnv, mediaHeadersFromEnv, parseLatency, parseMediaHeaderMode, parsePhotoMode, photosFromEnv, type MediaHeaderMode, type PhotoMode } from './media.ts';
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
    photos: { type: 'string' },
    'media-headers': { type: 'string' },
    latency: { type: 'string' },
  },
});

let faults: FaultRule[];
let photos: PhotoMode;
let mediaHeaders: MediaHeaderMode;
let latencyMs: number;
try {
  faults = [...faultsFromEnv(), ...values.fault.map(parseFaultFlag)];
  photos = values.photos !== undefined ? parsePhotoMode(values.photos, '--photos') : photosFromEnv();
  mediaHeaders = values['media-headers'] !== undefined ? parseMediaHeaderMode(values['media-headers'], '--media-headers') : mediaHeadersFromEnv();
  latencyMs = values.latency !== undefined ? parseLatency(values.latency, '--latency') : latencyFromEnv();
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
  photos,
  mediaHeaders,
  latencyMs,
});
console.log(`Sample API listening on ${api.url}`);
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => void api.close().then(() => process.exit(0)));
}
