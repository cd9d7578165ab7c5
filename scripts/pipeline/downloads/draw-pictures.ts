/**
 * Draws the pictures: each distinct (source bytes, width, format, quality) is
 * encoded once, ever, into the store's drawn/ folder, named by settings.ts
 * `variantFile`, with one picture per core at a time (libvips on one thread
 * each, which measured faster than fewer pictures on more threads). A picture
 * whose bytes cannot be decoded is left out with a warning.
 */
import { hash } from 'node:crypto';
import { mkdirSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { mapLimit } from '../../lib/limit.ts';
import { namesIn } from '../../lib/files.ts';
import { PICTURE_ENCODING, variantFile } from '../../../src/content/pictures/settings.ts';
import { originalPath, writeAtomic } from './picture-store.ts';

export interface DrawJob {
  /** The source's sha256 (store.ts). */
  sha: string;
  /** settings.ts `variantId` of the source. */
  id: string;
  widths: readonly number[];
}

export interface DrawStats {
  /** Files encoded by this run, and pictures all of whose files were already drawn. */
  encoded: number;
  reused: number;
  failed: number;
  /** The time spent encoding, summed over the pictures drawn at once. */
  encodeMs: number;
}

export const drawnDir = (dir: string) => join(dir, 'drawn');

/** The sha256 (hex) of every drawn file, kept beside them so that a build never reads a picture to hash it. */
const HASHES_FILE = 'hashes.json';
export function drawnHashes(dir: string): Record<string, string> {
  try {
    return JSON.parse(readFileSync(join(drawnDir(dir), HASHES_FILE), 'utf8')) as Record<string, string>;
  } catch {
    return {};
  }
}

export async function drawPictures(
  dir: string,
  jobs: readonly DrawJob[],
  {
    concurrency = availableParallelism(),
    log = console.log,
    prune = false,
    hashes = drawnHashes(dir),
  }: {
    concurrency?: number;
    log?: (line: string) => void;
    prune?: boolean;
    /** The drawn files' hashes, when read already (`drawnHashes`): updated in place. */ hashes?: Record<string, string>;
  } = {},
): Promise<{ failed: Set<string>; hashes: Record<string, string>; stats: DrawStats }> {
  const out = drawnDir(dir);
  mkdirSync(out, { recursive: true });
  sharp.concurrency(1);
  sharp.cache(false);
  const stats: DrawStats = { encoded: 0, reused: 0, failed: 0, encodeMs: 0 };
  const failed = new Set<string>();

  const present = namesIn(
    out,
    jobs.reduce((n, job) => n + job.widths.length, 1),
  );
  const missingOf = (job: DrawJob) => job.widths.filter((w) => !hashes[variantFile(job.id, w)] || !present.has(variantFile(job.id, w)));
  const draw = async ({ job, missing }: { job: DrawJob; missing: number[] }) => {
    const started = performance.now();
    try {
      const source = sharp(readFileSync(originalPath(dir, job.sha)), { failOn: 'error' }).rotate();
      for (const width of missing) {
        const bytes = await source.clone().resize({ width, withoutEnlargement: true }).webp({ quality: PICTURE_ENCODING.quality, effort: PICTURE_ENCODING.effort }).toBuffer();
        const name = variantFile(job.id, width);
        writeAtomic(join(out, name), bytes);
        hashes[name] = hash('sha256', bytes);
        present.add(name);
        stats.encoded++;
      }
    } catch (error) {
      stats.failed++;
      failed.add(job.sha);
      log(`warning: picture ${job.sha.slice(0, 12)} cannot be drawn and is left out: ${error instanceof Error ? error.message : String(error)}`);
    }
    stats.encodeMs += performance.now() - started;
  };

  // A picture drawn at every width it needs is counted, without a turn of its own in the queue (most of them, in a pull told of one change).
  const toDraw: { job: DrawJob; missing: number[] }[] = [];
  for (const job of jobs) {
    const missing = missingOf(job);
    if (missing.length) toDraw.push({ job, missing });
    else stats.reused++;
  }
  await mapLimit(toDraw, concurrency, draw);

  // A full run knows every file the site shows: the others go.
  if (prune) {
    const wanted = new Set(jobs.flatMap((j) => j.widths.map((w) => variantFile(j.id, w))));
    for (const name of readdirSync(out)) {
      if (name !== HASHES_FILE && !wanted.has(name)) rmSync(join(out, name), { force: true });
    }
    for (const name of Object.keys(hashes)) if (!wanted.has(name)) delete hashes[name];
  }
  // Written again only when it changed (26,000 hashes at 10,000 news a language): most pulls draw nothing.
  if (stats.encoded || prune || !present.has(HASHES_FILE)) writeAtomic(join(out, HASHES_FILE), JSON.stringify(hashes));
  stats.encodeMs = Math.round(stats.encodeMs);
  return { failed, hashes, stats };
}
