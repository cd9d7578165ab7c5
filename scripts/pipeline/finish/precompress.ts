/**
 * Writes the compressed siblings of every text file of the built site, so the
 * server sends compressed bytes without compressing on each request.
 *
 * Quality: brotli's best (11) costs about 40 times quality 5 for some 9 % fewer
 * bytes (README, "Speed and size"). Files under `/_astro/` are named by their
 * content and cached by browsers for a year, so each is compressed once ever:
 * they get 11. So do the landing pages, the home page and the first page of
 * each section's list in each language: visitors arrive there with nothing
 * cached, on slow phones, and must get the page in one round trip (the
 * first-flight budget); they are 16 files. Every other page changes with
 * content, a new post changes thousands of them, and a visitor reaches them
 * with the stylesheet already cached: they get 5, which keeps a rebuild
 * within a minute.
 *
 * Codings: every file gets a `.br`. Every file but those other pages also gets
 * a `.gz`, for clients without brotli. Those pages get none: a `.gz` would cost
 * a new post 40 % more compressing (README), for the few clients that do not
 * take brotli; the server gzips a page for them as it sends it (nginx's `gzip
 * on`, serve.ts likewise).
 *
 * A sibling the previous release has for the same bytes is linked from it.
 * Every other result is kept in a cache by content hash and quality, and the
 * site's file is a hard link to the cache entry (a copy where links are
 * impossible): a rebuild compresses only what changed, and writes no bytes for
 * the rest. Except the pages with a `.br` only: a new post changes some 11,000
 * of them, which would grow the cache by 90 MB each time, while their bytes
 * come back only unchanged, and then the previous release has them.
 * Entries the build did not use and made over a week ago are removed (looked
 * for once a day). The compressing runs on one thread per core
 * (compress-worker.ts), beside the last pass's own work on the main thread.
 */
import { hash } from 'node:crypto';
import { mkdir, readdir, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { readMachineSettings } from '../../../src/config.ts';
import { LANGUAGES } from '../../../src/i18n/languages.ts';
import { SECTION_LIST } from '../../../src/lib/sections.ts';
import type { CompressAnswer, CompressJob, CompressRequest } from './compress-worker.ts';
import { placeFile } from '../../lib/files.ts';
import { APPEAL_PATH } from '../../../src/constants.ts';

export const COMPRESSIBLE = /\.(html|css|js|mjs|json|svg|xml|txt|webmanifest|map)$/;

/** Brotli quality of content-named assets and landing pages, and of everything else. */
const BROTLI_QUALITY = { best: 11, page: 5 } as const;

/**
 * The home page, page 1 of every section's list and the appeal form, in every language (`/index.html`,
 * `/ru/news/index.html`, `/ru/murojaat_yuborish/index.html`): where citizens arrive from elsewhere (a poster,
 * a message, a national portal), a few pages worth brotli's best.
 */
const LANDING_PAGE = new RegExp(
  `^/(?:(?:${LANGUAGES.filter((l) => l.prefix)
    .map((l) => l.prefix)
    .join('|')})/)?(?:(?:${[...SECTION_LIST.map((s) => s.slug), APPEAL_PATH.slice(1)].join('|')})/)?index\\.html$`,
);
export const bestQuality = (sitePath: string) => sitePath.startsWith('/_astro/') || LANDING_PAGE.test(sitePath);
/** gzip only serves clients without brotli: its best (9) for the same files as brotli's best, the default (6) elsewhere (0.3 % larger, 40 % faster). */
const GZIP_LEVEL = { best: 9, page: 6 } as const;

/** How long a cache entry that no build used is kept (other builds, e.g. tests, share the cache). */
export const CACHE_UNUSED_MS = 7 * 24 * 60 * 60 * 1000;
/**
 * How often a build looks for such entries: looking means a `stat` of every entry (some 100,000 at
 * 2,500 posts per language, seconds of a rebuild), and an entry a week old can wait another day.
 */
const PRUNE_EVERY_MS = 24 * 60 * 60 * 1000;
/** The cache's note of when it was last pruned (its modification time). */
export const PRUNED_MARK = '.pruned';

export const sha256 = (body: Buffer | string) => hash('sha256', body);

/** The compressed siblings of one file (their encodings and levels), and whether the cache keeps them. */
function encodingsOf(sitePath: string): { siblings: { encoding: CompressJob['encoding']; level: number }[]; cached: boolean } {
  if (bestQuality(sitePath))
    return {
      siblings: [
        { encoding: 'br', level: BROTLI_QUALITY.best },
        { encoding: 'gz', level: GZIP_LEVEL.best },
      ],
      cached: true,
    };
  if (sitePath.endsWith('.html')) return { siblings: [{ encoding: 'br', level: BROTLI_QUALITY.page }], cached: false };
  return {
    siblings: [
      { encoding: 'br', level: BROTLI_QUALITY.page },
      { encoding: 'gz', level: GZIP_LEVEL.page },
    ],
    cached: true,
  };
}

/** Puts the previous release's sibling (site path, identity) at `target` if it has that identity; false if not. */
export type FromPrevious = (sitePath: string, identity: string, target: string) => boolean;

export interface Compressor {
  /**
   * Writes `file.br` (and `file.gz`, see encodingsOf) for a file whose bytes (`body()`, read
   * only when something must be compressed) have the hash `hash`, from the previous release
   * (`fromPrevious`), the cache, or compressed now; returns the site-relative siblings with a
   * stable identity of each (the same source and settings always give the same bytes).
   */
  compress(file: string, sitePath: string, body: () => Buffer | Promise<Buffer>, hash: string, fromPrevious?: FromPrevious): Promise<{ file: string; identity: string }[]>;
  /** Drops the cache entries that this build did not use and that were made over a week ago (looked for at most once a day). */
  prune(now?: number): Promise<number>;
  /** Stops the compression threads. */
  close(): Promise<void>;
  stats: { made: number; reused: number };
}

/** One compression thread per core; a file goes to the one with the least work waiting. */
function compressionThreads() {
  const threads = Array.from({ length: Math.max(1, availableParallelism()) }, () => {
    const worker = new Worker(new URL('./compress-worker.ts', import.meta.url));
    const waiting = new Map<number, { ok: () => void; fail: (e: Error) => void }>();
    const thread = { worker, waiting, dead: null as Error | null };
    worker.on('message', ({ id, error }: CompressAnswer) => {
      const job = waiting.get(id)!;
      waiting.delete(id);
      if (error === undefined) job.ok();
      else job.fail(new Error(`compressing failed: ${error}`));
    });
    // A thread that died fails what it holds and gets no more work; with none left, compressing fails.
    const die = (error: Error) => {
      thread.dead ??= error;
      for (const job of waiting.values()) job.fail(error);
      waiting.clear();
    };
    worker.on('error', die);
    worker.on('exit', (code) => die(new Error(`a compression thread stopped (exit code ${code})`)));
    return thread;
  });
  let ids = 0;
  return {
    run(body: Buffer, jobs: CompressJob[]): Promise<void> {
      const alive = threads.filter((t) => !t.dead);
      if (!alive.length) return Promise.reject(threads[0]!.dead!);
      const thread = alive.reduce((a, b) => (b.waiting.size < a.waiting.size ? b : a));
      const id = ++ids;
      return new Promise((ok, fail) => {
        thread.waiting.set(id, { ok, fail });
        // A view into a larger buffer would send the whole of it.
        const view = body.byteLength === body.buffer.byteLength ? body : Uint8Array.prototype.slice.call(body);
        thread.worker.postMessage({ id, body: view, jobs } satisfies CompressRequest);
      });
    },
    close: () => Promise.all(threads.map((t) => t.worker.terminate())).then(() => undefined),
  };
}

export async function createCompressor(cacheDir = readMachineSettings().compressCacheDir): Promise<Compressor> {
  await mkdir(cacheDir, { recursive: true });
  // One listing instead of a failed link per missing entry; an entry pruned since by another build is made again.
  const present = new Set(await readdir(cacheDir));
  const used = new Set<string>();
  const stats = { made: 0, reused: 0 };
  const threads = compressionThreads();
  return {
    stats,
    async compress(file, sitePath, body, hash, fromPrevious) {
      const out = [];
      const jobs: CompressJob[] = [];
      const making: string[] = [];
      const { siblings, cached: inCache } = encodingsOf(sitePath);
      for (const { encoding, level } of siblings) {
        const sibling = { file: `${sitePath}.${encoding}`, identity: `${encoding}${level}:${hash}` };
        const target = `${file}.${encoding}`;
        out.push(sibling);
        if (fromPrevious?.(sibling.file, sibling.identity, target)) {
          stats.reused++;
          continue;
        }
        if (!inCache) {
          jobs.push({ encoding, level, target });
          continue;
        }
        const name = `${hash.slice(0, 40)}.${encoding}${level}`;
        const cached = join(cacheDir, name);
        used.add(name);
        if (present.has(name) && placeFrom(cached, target)) stats.reused++;
        else {
          jobs.push({ encoding, level, cached, target });
          making.push(name);
        }
      }
      if (jobs.length) {
        await threads.run(await body(), jobs);
        stats.made += jobs.length;
        for (const name of making) present.add(name);
      }
      return out;
    },
    async prune(now = Date.now()) {
      const mark = join(cacheDir, PRUNED_MARK);
      const last = await stat(mark).then(
        (s) => s.mtimeMs,
        () => 0,
      );
      if (now - last < PRUNE_EVERY_MS) return 0;
      let removed = 0;
      for (const name of present) {
        if (used.has(name) || name === PRUNED_MARK) continue;
        const p = join(cacheDir, name);
        // Its time is when it was made (it is never rewritten: release files link to it and keep that
        // time as their Last-Modified). An old entry that another build still uses is simply made again.
        const mtimeMs = await stat(p).then(
          (s) => s.mtimeMs,
          () => now,
        );
        if (now - mtimeMs > CACHE_UNUSED_MS) {
          await rm(p, { force: true });
          removed++;
        }
      }
      await writeFile(mark, '');
      await utimes(mark, now / 1000, now / 1000);
      return removed;
    },
    close: threads.close,
  };
}

/** Puts the cache entry at `target` as placeFile does (a hard link, or a copy); false if there is no entry. */
function placeFrom(cached: string, target: string): boolean {
  try {
    placeFile(cached, target);
    return true;
  } catch {
    return false;
  }
}
