/**
 * The picture store: every API picture the site shows, downloaded once and
 * kept by its URL with the hash of its bytes, whatever caching headers the
 * media server sends (none, an ETag, a Last-Modified, `max-age=0`).
 *
 * A picture already kept is not asked for again unless `revalidate` says so
 * (the nightly run, or an item a webhook named): then the request is
 * conditional where the server gave a validator (a 304 keeps it); otherwise
 * it is downloaded and its hash compared. A picture that cannot be fetched is
 * left out with a warning, unless an earlier copy is kept and the failure is
 * not "gone" (404, 410): a media server that is down for one run does not
 * take pictures off the site.
 *
 * Layout of `dir`: index.json (URL → hash, size, validators), originals/<sha256>, drawn/ (draw.ts).
 */
import { hash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { replaceFileSync } from '../replace-file.ts';
import { join } from 'node:path';
import sharp from 'sharp';
import { mapLimit } from '../limit.ts';

export interface StoredPicture {
  /** sha256 of the original's bytes, hex: the name of its file in originals/. */
  sha: string;
  width: number;
  height: number;
  etag?: string;
  lastModified?: string;
}

export interface FetchStats {
  requests: number;
  downloaded: number;
  /** Revalidated and found the same (304, or the same bytes). */
  unchanged: number;
  /** Revalidated and found different bytes at the same URL. */
  replaced: number;
  failed: number;
}

export interface FetchOptions {
  dir: string;
  urls: readonly string[];
  /** Whether a kept picture must be asked for again. */
  revalidate: (url: string) => boolean;
  concurrency?: number;
  timeoutMs?: number;
  /** A picture larger than this is refused (a runaway or hostile answer must not fill the memory). */
  maxBytes?: number;
  log?: (line: string) => void;
}

const INDEX_FILE = 'index.json';
const MAX_REDIRECTS = 3;
const RETRIES = 2;

export const originalPath = (dir: string, sha: string) => join(dir, 'originals', sha);

/** Writes beside, then renames: a reader (or a crash) never sees half a file. */
export const writeAtomic = replaceFileSync;

function readIndex(dir: string): Record<string, StoredPicture> {
  try {
    return JSON.parse(readFileSync(join(dir, INDEX_FILE), 'utf8')) as Record<string, StoredPicture>;
  } catch {
    return {};
  }
}

class PictureError extends Error {
  /** The server says the picture is no more (404, 410): an earlier copy is not kept. */
  readonly gone: boolean;
  constructor(message: string, gone = false) {
    super(message);
    this.gone = gone;
  }
}

type Answer = { status: 304 } | { status: 200; bytes: Buffer; etag?: string; lastModified?: string };

/** One GET, following redirects on the same origin only, with the body bounded. */
async function request(url: string, known: StoredPicture | undefined, timeoutMs: number, maxBytes: number): Promise<Answer> {
  const headers: Record<string, string> = { accept: 'image/*' };
  if (known?.etag) headers['if-none-match'] = known.etag;
  else if (known?.lastModified) headers['if-modified-since'] = known.lastModified;
  let target = url;
  for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
    const res = await fetch(target, { headers, redirect: 'manual', signal: AbortSignal.timeout(timeoutMs) });
    if (res.status >= 300 && res.status < 400 && res.status !== 304) {
      await res.body?.cancel();
      const location = res.headers.get('location');
      const next = location && URL.canParse(location, target) ? new URL(location, target) : null;
      if (!next || next.origin !== new URL(url).origin) throw new PictureError(`redirected to another host (${next?.origin ?? 'no location'})`);
      target = next.href;
      continue;
    }
    if (res.status === 304 && known) return { status: 304 };
    if (res.status !== 200) {
      await res.body?.cancel();
      throw new PictureError(`HTTP ${res.status}`, res.status === 404 || res.status === 410);
    }
    const declared = Number(res.headers.get('content-length') ?? 0);
    if (declared > maxBytes) {
      await res.body?.cancel();
      throw new PictureError(`${declared} bytes, more than the ${maxBytes} a picture may have`);
    }
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of res.body ?? []) {
      size += chunk.length;
      if (size > maxBytes) throw new PictureError(`more than the ${maxBytes} bytes a picture may have`);
      chunks.push(Buffer.from(chunk));
    }
    return {
      status: 200,
      bytes: Buffer.concat(chunks),
      etag: res.headers.get('etag') ?? undefined,
      lastModified: res.headers.get('last-modified') ?? undefined,
    };
  }
  throw new PictureError(`more than ${MAX_REDIRECTS} redirects`);
}

async function requestWithRetries(url: string, known: StoredPicture | undefined, timeoutMs: number, maxBytes: number, count: () => void): Promise<Answer> {
  for (let attempt = 0; ; attempt++) {
    count();
    try {
      return await request(url, known, timeoutMs, maxBytes);
    } catch (error) {
      const permanent = error instanceof PictureError && !/^HTTP 5/.test(error.message);
      if (permanent || attempt >= RETRIES) throw error;
      await new Promise((r) => setTimeout(r, 300 * 2 ** attempt));
    }
  }
}

/** Width and height as shown (EXIF orientation applied); throws when the bytes are not a picture. */
async function dimensions(bytes: Buffer): Promise<{ width: number; height: number }> {
  const meta = await sharp(bytes).metadata();
  if (!meta.width || !meta.height) throw new PictureError('not a picture');
  const turned = (meta.orientation ?? 1) >= 5;
  return turned ? { width: meta.height, height: meta.width } : { width: meta.width, height: meta.height };
}

/**
 * Brings the store up to date for `urls`; returns what it holds of each that it could get, and the counts.
 * The index keeps only the URLs of this call when `revalidate` covers them all (a full run); otherwise it
 * keeps the others too, for items this run did not look at.
 */
export async function fetchPictures(options: FetchOptions): Promise<{ pictures: Map<string, StoredPicture>; stats: FetchStats }> {
  const { dir, urls, revalidate, concurrency = 6, timeoutMs = 30_000, maxBytes = 20 * 1024 * 1024, log = console.log } = options;
  mkdirSync(join(dir, 'originals'), { recursive: true });
  const index = readIndex(dir);
  const stats: FetchStats = { requests: 0, downloaded: 0, unchanged: 0, replaced: 0, failed: 0 };
  const pictures = new Map<string, StoredPicture>();
  const dropped = new Set<string>();

  const one = async (url: string) => {
    const known = index[url] && existsSync(originalPath(dir, index[url].sha)) ? index[url] : undefined;
    if (known && !revalidate(url)) return void pictures.set(url, known);
    try {
      const answer = await requestWithRetries(url, known, timeoutMs, maxBytes, () => void stats.requests++);
      if (answer.status === 304) {
        stats.unchanged++;
        return void pictures.set(url, known!);
      }
      const sha = hash('sha256', answer.bytes);
      const validators = { etag: answer.etag, lastModified: answer.lastModified };
      if (known?.sha === sha) {
        stats.unchanged++;
        return void pictures.set(url, { ...known, ...validators });
      }
      const size = await dimensions(answer.bytes);
      if (!existsSync(originalPath(dir, sha))) writeAtomic(originalPath(dir, sha), answer.bytes);
      stats[known ? 'replaced' : 'downloaded']++;
      pictures.set(url, { sha, ...size, ...validators });
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      if (known && !(error instanceof PictureError && error.gone)) {
        log(`warning: picture ${url} could not be checked (${reason}); the copy kept earlier stays`);
        return void pictures.set(url, known);
      }
      stats.failed++;
      dropped.add(url);
      log(`warning: picture ${url} left out: ${reason}`);
    }
  };

  await mapLimit(urls, concurrency, one);

  const full = urls.every((u) => revalidate(u));
  const kept = full ? {} : { ...index };
  for (const [url, p] of pictures) kept[url] = p;
  for (const url of dropped) delete kept[url];
  writeAtomic(join(dir, INDEX_FILE), JSON.stringify(kept));
  // A full run knows every picture the site shows: the others' originals go.
  if (full) {
    const shown = new Set(Object.values(kept).map((p) => p.sha));
    for (const name of readdirSync(join(dir, 'originals'))) if (!shown.has(name)) rmSync(join(dir, 'originals', name), { force: true });
  }
  return { pictures, stats };
}
