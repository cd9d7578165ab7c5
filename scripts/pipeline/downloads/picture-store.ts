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
import { mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { replaceFileSync } from '../../lib/replace-file.ts';
import { join } from 'node:path';
import sharp from 'sharp';
import { mapLimit } from '../../lib/limit.ts';
import { namesIn } from '../../lib/files.ts';
import { DownloadError as PictureError, downloadWithRetries } from './download.ts';

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
  /** `urls` are every picture the site shows (else only some: those of changed items), so a full run forgets the others. */
  every?: boolean;
  /** Whether a kept picture must be asked for again. */
  revalidate: (url: string) => boolean;
  concurrency?: number;
  timeoutMs?: number;
  /** A picture larger than this is refused (a runaway or hostile answer must not fill the memory). */
  maxBytes?: number;
  log?: (line: string) => void;
}

const INDEX_FILE = 'index.json';

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

/** Width and height as shown (EXIF orientation applied); throws when the bytes are not a picture. */
async function dimensions(bytes: Buffer): Promise<{ width: number; height: number }> {
  const meta = await sharp(bytes).metadata();
  if (!meta.width || !meta.height) throw new PictureError('not a picture');
  const turned = (meta.orientation ?? 1) >= 5;
  return turned ? { width: meta.height, height: meta.width } : { width: meta.width, height: meta.height };
}

/**
 * Brings the store up to date for `urls`; returns what it holds of each that it could get, and the counts.
 * The index keeps only the URLs of this call when they are `every` picture and `revalidate` covers them all (a
 * full run); otherwise it keeps the others too, for items this run did not look at.
 */
export async function fetchPictures(options: FetchOptions): Promise<{ pictures: Map<string, StoredPicture>; stats: FetchStats }> {
  const { dir, urls, every = true, revalidate, concurrency = 6, timeoutMs = 30_000, maxBytes = 20 * 1024 * 1024, log = console.log } = options;
  mkdirSync(join(dir, 'originals'), { recursive: true });
  const index = readIndex(dir);
  const stats: FetchStats = { requests: 0, downloaded: 0, unchanged: 0, replaced: 0, failed: 0 };
  const pictures = new Map<string, StoredPicture>();
  const dropped = new Set<string>();
  const originals = namesIn(join(dir, 'originals'), urls.length);
  const knownOf = (url: string) => (index[url] && originals.has(index[url].sha) ? index[url] : undefined);
  const one = async (url: string) => {
    const known = knownOf(url);
    try {
      const answer = await downloadWithRetries(url, { accept: 'image/*', known, timeoutMs, maxBytes, what: 'a picture' }, () => void stats.requests++);
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
      if (!originals.has(sha)) writeAtomic(originalPath(dir, sha), answer.bytes);
      originals.add(sha);
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

  // A picture kept and not to be asked again is taken as it is, without a turn of its own in the queue: a pull told of
  // one change asks for a few pictures and takes the 35,000 others (at 10,000 news a language) as they are.
  const toAsk: string[] = [];
  for (const url of urls) {
    const known = knownOf(url);
    if (known && !revalidate(url)) pictures.set(url, known);
    else toAsk.push(url);
  }
  await mapLimit(toAsk, concurrency, one);

  const full = every && urls.every((u) => revalidate(u));
  const kept = full ? {} : { ...index };
  for (const [url, p] of pictures) kept[url] = p;
  for (const url of dropped) delete kept[url];
  // Written again only when it changed: a pull told of one item takes every other picture as the index has it.
  const same = !dropped.size && [...pictures].every(([url, p]) => index[url] === p) && Object.keys(kept).length === Object.keys(index).length;
  if (!same) writeAtomic(join(dir, INDEX_FILE), JSON.stringify(kept));
  // A full run knows every picture the site shows: the others' originals go.
  if (full) {
    const shown = new Set(Object.values(kept).map((p) => p.sha));
    for (const name of readdirSync(join(dir, 'originals'))) if (!shown.has(name)) rmSync(join(dir, 'originals', name), { force: true });
  }
  return { pictures, stats };
}
