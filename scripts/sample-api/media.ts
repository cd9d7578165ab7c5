/**
 * The sample API's pictures as a real API's media endpoint serves them: which
 * URLs the seed gives (`photos`), which caching headers answer them
 * (`mediaHeaders`), and a photograph per item, drawn on request.
 *
 * - `photos: 'shared'` (default): posts, employees and gallery photos point at
 *   some 100 flat procedural PNGs under `/uploads/` (drawn at seed time, shared
 *   by many posts); `'distinct'`: each item has its own JPEG, the same URL in all
 *   four languages: `/media/post/<post id>.jpg`, `/media/employee/<id>.jpg`
 *   (a portrait), `/media/gallery/<group id>-<n>.jpg`. A post whose seed has no
 *   picture still has none.
 * - A `/media/` JPEG is a deterministic "photograph" (renderPhoto: smoothed
 *   colour noise seeded by its path, plus grain; 1600×1066, portraits 800×1000,
 *   some 100–300 KB), drawn on its first request and kept in
 *   `<data>/media-cache/`, so later requests (and restarts) only read the file;
 *   concurrent first requests share one drawing.
 * - `mediaHeaders` (for `/uploads/` and `/media/` alike): `'max-age'` (default)
 *   sends `cache-control: public, max-age=86400` only; `'etag'` a strong ETag only
 *   (the bytes' hash), and 304 to a matching `If-None-Match`; `'last-modified'`
 *   a Last-Modified only, and 304 to an `If-Modified-Since` at or after it;
 *   `'none'` none of the three. Originals are dated ORIGINAL_MODIFIED.
 * - Replacing a picture at the same URL (for tests of what a rebuild does then):
 *   `api.replaceMedia('/media/post/101.jpg')` on the object startSampleApi returns,
 *   or `POST /_sample/replace-media?path=/media/post/101.jpg` (answered to loopback
 *   callers only; `/uploads/…png` paths work too). The picture gets the next
 *   version: other bytes (drawn from the path and the version), so a new ETag,
 *   and a Last-Modified of now, at least a second after the previous one. The
 *   answer is `{path, version, etag, lastModified}`. Versions are kept in the
 *   database (table `media_versions`) until a reseed, which brings the originals back.
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, stat } from 'node:fs/promises';
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { availableParallelism } from 'node:os';
import { dirname, join } from 'node:path';
import type { DatabaseSync } from 'node:sqlite';
import sharp from 'sharp';
import { createLimiter } from '../lib/limit.ts';
import { replaceFile } from '../lib/replace-file.ts';
import { random, renderPicture, type PictureKind } from './images.ts';

const PHOTO_MODES = ['shared', 'distinct'] as const;
export type PhotoMode = (typeof PHOTO_MODES)[number];
export const MEDIA_HEADER_MODES = ['none', 'etag', 'last-modified', 'max-age'] as const;
export type MediaHeaderMode = (typeof MEDIA_HEADER_MODES)[number];

/** The Last-Modified of every picture not replaced since the seed (stable across restarts). */
export const ORIGINAL_MODIFIED = Date.UTC(2025, 0, 1);
const MAX_AGE = 'public, max-age=86400';
/** Bump when renderPhoto draws differently, so cached files of the old drawing are not served. */
const RENDER_VERSION = 1;
const LANDSCAPE = { width: 1600, height: 1066 };
const PORTRAIT = { width: 800, height: 1000 };

// ---- options and the environment --------------------------------------------

function oneOf<T extends string>(modes: readonly T[], value: string, where: string): T {
  if ((modes as readonly string[]).includes(value)) return value as T;
  throw new Error(`${where}: "${value}" is not one of ${modes.join(', ')}`);
}

export const parsePhotoMode = (value: string, where = 'photos'): PhotoMode => oneOf(PHOTO_MODES, value, where);
export const parseMediaHeaderMode = (value: string, where = 'mediaHeaders'): MediaHeaderMode => oneOf(MEDIA_HEADER_MODES, value, where);

export function parseLatency(value: string | number, where = 'latencyMs'): number {
  const n = typeof value === 'number' ? value : value.trim() === '' ? Number.NaN : Number(value);
  if (!Number.isInteger(n) || n < 0) throw new Error(`${where}: expected a whole number of milliseconds ≥ 0, got "${value}"`);
  return n;
}

/** `SAMPLE_API_PHOTOS`: `shared` (also when unset or blank) or `distinct`. */
export function photosFromEnv(raw: string | undefined = process.env.SAMPLE_API_PHOTOS): PhotoMode {
  return raw?.trim() ? parsePhotoMode(raw.trim(), 'SAMPLE_API_PHOTOS') : 'shared';
}

/** `SAMPLE_API_MEDIA_HEADERS`: `none`, `etag`, `last-modified` or `max-age` (also when unset or blank). */
export function mediaHeadersFromEnv(raw: string | undefined = process.env.SAMPLE_API_MEDIA_HEADERS): MediaHeaderMode {
  return raw?.trim() ? parseMediaHeaderMode(raw.trim(), 'SAMPLE_API_MEDIA_HEADERS') : 'max-age';
}

/** `SAMPLE_API_LATENCY_MS`: milliseconds before every answer; 0 when unset or blank. */
export function latencyFromEnv(raw: string | undefined = process.env.SAMPLE_API_LATENCY_MS): number {
  return raw?.trim() ? parseLatency(raw, 'SAMPLE_API_LATENCY_MS') : 0;
}

// ---- the photographs -------------------------------------------------------

type Rgb = [number, number, number];
// Tones of outdoor photographs of the region: sky, haze, sand, brick, steppe, trees, water, shade, plaster.
const TONES: Rgb[] = [
  [112, 160, 214],
  [196, 212, 228],
  [206, 178, 128],
  [168, 96, 70],
  [132, 150, 84],
  [62, 96, 58],
  [70, 118, 150],
  [48, 44, 46],
  [226, 220, 204],
  [150, 120, 96],
];

/** A `gw`×`gh` grid of RGB values from `cell`, upscaled to `w`×`h` with a smooth (bicubic) kernel. */
async function smoothGrid(gw: number, gh: number, w: number, h: number, cell: (x: number, y: number) => Rgb): Promise<Buffer> {
  const grid = Buffer.alloc(gw * gh * 3);
  for (let y = 0; y < gh; y++) {
    for (let x = 0; x < gw; x++)
      grid.set(
        cell(x, y).map((c) => Math.max(0, Math.min(255, Math.round(c)))),
        (y * gw + x) * 3,
      );
  }
  return sharp(grid, { raw: { width: gw, height: gh, channels: 3 } })
    .resize(w, h, { kernel: 'cubic', fit: 'fill' })
    .raw()
    .toBuffer();
}

/**
 * A deterministic JPEG that costs what a photograph costs to decode, resize and
 * encode: low-frequency colour blobs from a few tones, mid-sized detail, and
 * fine per-pixel grain. The same `seed` gives the same bytes (with the same sharp).
 */
async function renderPhoto(seed: string, kind: PictureKind): Promise<Buffer> {
  const { width: w, height: h } = kind === 'portrait' ? PORTRAIT : LANDSCAPE;
  const rnd = random(seed);
  const tones = Array.from({ length: 3 }, () => TONES[Math.floor(rnd() * TONES.length)]!);
  const light = 0.85 + rnd() * 0.3;
  // Blobs some 100 px across: each grid point a random mix of the picture's tones, lighter towards the top.
  const gw = Math.round(w / 100) + 1;
  const gh = Math.round(h / 100) + 1;
  const blobs = await smoothGrid(gw, gh, w, h, (_x, y) => {
    const a = rnd() ** 2;
    const b = rnd() ** 2;
    const c = rnd() ** 2;
    const sum = a + b + c || 1;
    const shade = light * (0.7 + rnd() * 0.5) * (1.1 - 0.25 * (y / gh));
    return [0, 1, 2].map((i) => ((tones[0]![i]! * a + tones[1]![i]! * b + tones[2]![i]! * c) / sum) * shade) as Rgb;
  });
  // Detail some 10 px across, mostly in brightness.
  const detail = await smoothGrid(Math.round(w / 10), Math.round(h / 10), w, h, () => {
    const l = (rnd() - 0.5) * 70;
    return [128 + l + (rnd() - 0.5) * 14, 128 + l + (rnd() - 0.5) * 14, 128 + l + (rnd() - 0.5) * 14];
  });
  // Clamped: sums outside 0–255 stop at the ends instead of wrapping.
  const out = new Uint8ClampedArray(w * h * 3);
  let s = (Math.floor(rnd() * 2 ** 32) | 1) >>> 0;
  for (let i = 0; i < out.length; i += 3) {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    // Grain: a brightness step per pixel (±8) and a little colour (±3 per channel).
    const g = ((s & 0xff) - 127.5) * 0.06;
    const r = (((s >>> 8) & 0xff) - 127.5) * 0.025;
    const gr = (((s >>> 16) & 0xff) - 127.5) * 0.025;
    const bl = (((s >>> 24) & 0xff) - 127.5) * 0.025;
    out[i] = blobs[i]! + (detail[i]! - 128) * 0.4 + g + r;
    out[i + 1] = blobs[i + 1]! + (detail[i + 1]! - 128) * 0.4 + g + gr;
    out[i + 2] = blobs[i + 2]! + (detail[i + 2]! - 128) * 0.4 + g + bl;
  }
  return sharp(Buffer.from(out.buffer), { raw: { width: w, height: h, channels: 3 } })
    .jpeg({ quality: kind === 'portrait' ? 84 : 80 })
    .toBuffer();
}

// ---- the pictures the server has ------------------------------------------

/** One picture as served: its bytes and validators. */
export interface Picture {
  bytes: Buffer;
  contentType: string;
  /** Strong: a hash of the bytes, quoted. */
  etag: string;
  /** Whole seconds, epoch milliseconds. */
  modified: number;
}

/** What a replacement answers (and `POST /_sample/replace-media`). */
export interface MediaInfo {
  path: string;
  version: number;
  etag: string;
  /** An HTTP date. */
  lastModified: string;
}

export class MediaNotFoundError extends Error {}

export interface MediaStore {
  /** The picture at `path` (`/uploads/….png` or `/media/….jpg`), drawn when it has not been yet; null when there is none. */
  get(path: string): Promise<Picture | null>;
  /** Gives the picture at `path` (a path or a whole URL) new bytes at the same URL; throws MediaNotFoundError. */
  replace(path: string): Promise<MediaInfo>;
}

/** What a path names: a seed PNG of /uploads/ or a photograph of /media/, and how to draw it. */
interface Target {
  path: string;
  kind: PictureKind;
  /** The file of version 0 (/uploads/ only: drawn at seed time). */
  original?: string;
  /** The cache file of `version`. */
  cached(version: number): string;
  draw(version: number): Promise<Buffer>;
  contentType: string;
}

const httpDate = (ms: number) => new Date(ms).toUTCString();

/** Pictures drawn on request by this process (for tests: concurrent first requests draw once). */
export const mediaStats = { drawn: 0 };

type MediaQueries = ReturnType<typeof mediaQueries>;

function mediaQueries(db: DatabaseSync) {
  return {
    version: db.prepare('SELECT version, modified FROM media_versions WHERE path = ?'),
    bump: db.prepare(`INSERT INTO media_versions (path, version, modified) VALUES (?, 1, ?)
      ON CONFLICT (path) DO UPDATE SET version = version + 1, modified = max(excluded.modified, modified + 1000)`),
    post: db.prepare('SELECT 1 FROM posts WHERE id = ? AND lang = 1 AND image = ?'),
    employee: db.prepare('SELECT 1 FROM employees WHERE id = ? AND lang = 1 AND image = ?'),
    gallery: db.prepare('SELECT photos FROM photo_groups WHERE id = ? AND lang = 1'),
  };
}

/** What `path` names, or null when the seed gave no item that picture: a seed PNG under `uploads`, or a photograph. */
function targetOf(path: string, q: MediaQueries, uploads: string, cache: string): Target | null {
  let m = /^\/uploads\/(?:(landscape|portrait)-([\w.-]+)|[\w.-]+)\.png$/.exec(path);
  if (m) {
    const file = path.slice('/uploads/'.length);
    if (!existsSync(join(uploads, file))) return null;
    const kind = (m[1] ?? 'landscape') as PictureKind;
    const name = m[2] ?? file;
    return {
      path,
      kind,
      original: join(uploads, file),
      cached: (v) => join(cache, 'uploads', `${file.slice(0, -'.png'.length)}.v${v}.png`),
      draw: async (v) => renderPicture(`${name}#${v}`, kind).png,
      contentType: 'image/png',
    };
  }
  m = /^\/media\/(post|employee|gallery)\/(\d+)(?:-(\d+))?\.jpg$/.exec(path);
  if (!m) return null;
  const [, type, id, n] = m as unknown as [string, 'post' | 'employee' | 'gallery', string, string | undefined];
  if (type === 'gallery') {
    const row = n !== undefined ? (q.gallery.get(Number(id)) as { photos: string } | undefined) : undefined;
    if (!row || !(JSON.parse(row.photos) as string[]).includes(path)) return null;
  } else if (n !== undefined || !q[type].get(Number(id), path)) return null;
  const kind: PictureKind = type === 'employee' ? 'portrait' : 'landscape';
  const name = path.slice('/media/'.length, -'.jpg'.length);
  return {
    path,
    kind,
    cached: (v) => join(cache, `${name}${v ? `.v${v}` : ''}.jpg`),
    draw: (v) => renderPhoto(v ? `${name}#${v}` : name, kind),
    contentType: 'image/jpeg',
  };
}

/** Files drawn on first request, each once however many ask at the same time, at most one drawing per core. */
class Drawings {
  /** Drawings under way, by file. */
  readonly #pending = new Map<string, Promise<void>>();
  // A drawing holds some 15 MB of pixels.
  readonly #limit = createLimiter(Math.max(1, availableParallelism()));

  async ensure(file: string, draw: () => Promise<Buffer>): Promise<void> {
    if (existsSync(file)) return;
    let pending = this.#pending.get(file);
    if (!pending) {
      pending = this.#limit(async () => {
        if (existsSync(file)) return;
        const bytes = await draw();
        mediaStats.drawn++;
        await mkdir(dirname(file), { recursive: true });
        // A reader never sees half a picture.
        await replaceFile(file, bytes);
      }).finally(() => this.#pending.delete(file));
      this.#pending.set(file, pending);
    }
    await pending;
  }
}

export function createMediaStore(db: DatabaseSync, dataDir: string): MediaStore {
  const uploads = join(dataDir, 'uploads');
  const cache = join(dataDir, 'media-cache', `r${RENDER_VERSION}`);
  const q = mediaQueries(db);
  const drawings = new Drawings();
  /** ETags by file, size and modification time (a file of one version never changes, but a reseed may redraw a PNG). */
  const etags = new Map<string, string>();

  async function get(path: string): Promise<Picture | null> {
    const t = targetOf(path, q, uploads, cache);
    if (!t) return null;
    const row = q.version.get(path) as { version: number; modified: number } | undefined;
    const version = row?.version ?? 0;
    let file: string;
    if (version === 0 && t.original) file = t.original;
    else {
      file = t.cached(version);
      await drawings.ensure(file, () => t.draw(version));
    }
    const bytes = await readFile(file).catch(() => null);
    if (!bytes) return null;
    const { mtimeMs } = await stat(file);
    const key = `${file}\0${bytes.length}\0${mtimeMs}`;
    let etag = etags.get(key);
    if (!etag) {
      etag = `"${createHash('sha256').update(bytes).digest('base64url').slice(0, 27)}"`;
      etags.set(key, etag);
    }
    return { bytes, contentType: t.contentType, etag, modified: row?.modified ?? ORIGINAL_MODIFIED };
  }

  return {
    get,
    async replace(pathOrUrl) {
      const path = new URL(pathOrUrl, 'http://localhost').pathname;
      if (!targetOf(path, q, uploads, cache)) throw new MediaNotFoundError(`No picture at ${path}`);
      const now = Math.floor(Date.now() / 1000) * 1000;
      q.bump.run(path, Math.max(now, ORIGINAL_MODIFIED + 1000));
      const picture = await get(path);
      if (!picture) throw new MediaNotFoundError(`No picture at ${path}`);
      const { version } = q.version.get(path) as { version: number };
      return { path, version, etag: picture.etag, lastModified: httpDate(picture.modified) };
    },
  };
}

// ---- answering --------------------------------------------------------------

/** Whether an `If-None-Match` value names `etag` (weak comparison, as RFC 9110 has it for this header). */
function noneMatch(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  const bare = (t: string) => t.trim().replace(/^W\//, '');
  return header.split(',').some((t) => t.trim() === '*' || bare(t) === bare(etag));
}

/** Answers with `picture` and the caching headers of `mode` (304 to a conditional request that its validator meets). */
export function sendPicture(req: IncomingMessage, res: ServerResponse, picture: Picture, mode: MediaHeaderMode): void {
  const headers: OutgoingHttpHeaders = { 'content-type': picture.contentType };
  let fresh = false;
  if (mode === 'max-age') headers['cache-control'] = MAX_AGE;
  else if (mode === 'etag') {
    headers.etag = picture.etag;
    fresh = noneMatch(req.headers['if-none-match'], picture.etag);
  } else if (mode === 'last-modified') {
    headers['last-modified'] = httpDate(picture.modified);
    const since = Date.parse(req.headers['if-modified-since'] ?? '');
    fresh = !Number.isNaN(since) && picture.modified <= since;
  }
  if (fresh) return void res.writeHead(304, headers).end();
  headers['content-length'] = picture.bytes.length;
  res.writeHead(200, headers);
  res.end(req.method === 'HEAD' ? undefined : picture.bytes);
}

/** Whether the request comes from this machine (the replace route answers nobody else). */
export function fromLoopback(req: IncomingMessage): boolean {
  const a = req.socket.remoteAddress ?? '';
  return a === '::1' || /^(?:::ffff:)?127\./.test(a);
}
