/**
 * Writes a `.br` and a `.gz` beside every text file of the built site, so the
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
 * Every result is kept in a cache by content hash and quality, and the site's
 * file is a hard link to the cache entry (a copy where links are impossible):
 * a rebuild compresses only what changed, and writes no bytes for the rest.
 * Entries the build did not use and made over a week ago are removed.
 */
import { hash } from 'node:crypto';
import { copyFile, link, mkdir, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import { LANGUAGES } from '../../src/i18n/languages.ts';
import { SECTION_LIST } from '../../src/lib/sections.ts';

const br = promisify(brotliCompress);
const gz = promisify(gzip);
export const COMPRESSIBLE = /\.(html|css|js|mjs|json|svg|xml|txt|webmanifest|map)$/;

/** Brotli quality of content-named assets and landing pages, and of everything else. */
export const BROTLI_QUALITY = { best: 11, page: 5 } as const;

/** The home page and page 1 of every section's list, in every language (`/index.html`, `/ru/news/index.html`). */
const LANDING_PAGE = new RegExp(
  `^/(?:(?:${LANGUAGES.filter((l) => l.prefix).map((l) => l.prefix).join('|')})/)?(?:(?:${SECTION_LIST.map((s) => s.slug).join('|')})/)?index\\.html$`,
);
export const bestQuality = (sitePath: string) => sitePath.startsWith('/_astro/') || LANDING_PAGE.test(sitePath);
/** gzip only serves clients without brotli: its best (9) for the same files as brotli's best, the default (6) elsewhere (0.3 % larger, 40 % faster). */
const GZIP_LEVEL = { best: 9, page: 6 } as const;

/** How long a cache entry that no build used is kept (other builds, e.g. tests, share the cache). */
export const CACHE_UNUSED_MS = 7 * 24 * 60 * 60 * 1000;

export const sha256 = (body: Buffer | string) => hash('sha256', body);

/** The compressed siblings of one file: their encodings and how each is made. */
function encodingsOf(sitePath: string) {
  const best = bestQuality(sitePath);
  const quality = best ? BROTLI_QUALITY.best : BROTLI_QUALITY.page;
  const level = best ? GZIP_LEVEL.best : GZIP_LEVEL.page;
  return [
    {
      ext: 'br',
      variant: `br${quality}`,
      make: (body: Buffer) => br(body, { params: { [constants.BROTLI_PARAM_QUALITY]: quality, [constants.BROTLI_PARAM_SIZE_HINT]: body.length } }),
    },
    { ext: 'gz', variant: `gz${level}`, make: (body: Buffer) => gz(body, { level }) },
  ] as const;
}

export interface Compressor {
  /**
   * Writes `file.br` and `file.gz` for a file whose bytes (`body()`, read
   * only when something must be compressed) have the hash `hash`; returns the
   * site-relative siblings with a stable identity of each (the same source and
   * settings always give the same bytes).
   */
  compress(file: string, sitePath: string, body: () => Buffer | Promise<Buffer>, hash: string): Promise<{ file: string; identity: string }[]>;
  /** Drops the cache entries that this build did not use and no build has used for a week. */
  prune(now?: number): Promise<number>;
  stats: { made: number; reused: number };
}

export async function createCompressor(cacheDir = process.env.COMPRESS_CACHE_DIR || '.cache/compressed'): Promise<Compressor> {
  await mkdir(cacheDir, { recursive: true });
  const used = new Set<string>();
  const stats = { made: 0, reused: 0 };
  let temporaries = 0;
  return {
    stats,
    async compress(file, sitePath, body, hash) {
      const out = [];
      for (const { ext, variant, make } of encodingsOf(sitePath)) {
        const name = `${hash.slice(0, 40)}.${variant}`;
        const cached = join(cacheDir, name);
        const target = `${file}.${ext}`;
        used.add(name);
        // Link first rather than check, then link: another build sharing the cache may prune it in between.
        if (await placeFrom(cached, target)) {
          stats.reused++;
        } else {
          const data = await make(await body());
          // Into the cache by rename, so that a build running beside this one never links half a file.
          const tmp = `${cached}.${process.pid}-${++temporaries}.tmp`;
          await writeFile(tmp, data);
          await rename(tmp, cached);
          if (!(await placeFrom(cached, target))) await writeFile(target, data);
          stats.made++;
        }
        out.push({ file: `${sitePath}.${ext}`, identity: `${variant}:${hash}` });
      }
      return out;
    },
    async prune(now = Date.now()) {
      let removed = 0;
      for (const name of await readdir(cacheDir)) {
        if (used.has(name)) continue;
        const p = join(cacheDir, name);
        // Its time is when it was made (it is never rewritten: release files link to it and keep that
        // time as their Last-Modified). An old entry that another build still uses is simply made again.
        const mtimeMs = await stat(p).then((s) => s.mtimeMs, () => now);
        if (now - mtimeMs > CACHE_UNUSED_MS) {
          await rm(p, { force: true });
          removed++;
        }
      }
      return removed;
    },
  };
}

/** Puts the cache entry at `target`: a hard link, or a copy across file systems; false if there is no entry. */
async function placeFrom(cached: string, target: string): Promise<boolean> {
  try {
    await link(cached, target);
    return true;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return false;
    if (code === 'EEXIST') {
      await rm(target, { force: true });
      return placeFrom(cached, target);
    }
    try {
      await copyFile(cached, target);
      return true;
    } catch {
      return false;
    }
  }
}
