/**
 * Writes a `.br` and a `.gz` beside every text file of the built site, so the
 * server sends compressed bytes without compressing on each request. Brotli at
 * its best quality is slow, so each result is kept in a cache by content hash:
 * a rebuild compresses only the files that changed. Each build marks the
 * entries it used; entries no build has used for a week (files that changed or
 * went away) are removed, so the cache does not grow without end.
 */
import { createHash } from 'node:crypto';
import { copyFile, mkdir, readFile, readdir, rename, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { listFiles, mapLimit } from './files.ts';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';

const br = promisify(brotliCompress);
const gz = promisify(gzip);
export const COMPRESSIBLE = /\.(html|css|js|mjs|json|svg|xml|txt|webmanifest|map)$/;

/** How long a cache entry that no build used is kept (other builds, e.g. tests, share the cache). */
export const CACHE_UNUSED_MS = 7 * 24 * 60 * 60 * 1000;

/** Removes the cache entries that no build has used for `maxUnusedMs`. */
export async function pruneCompressCache(cacheDir: string, maxUnusedMs = CACHE_UNUSED_MS, now = Date.now()): Promise<number> {
  let removed = 0;
  for (const name of await readdir(cacheDir)) {
    const p = join(cacheDir, name);
    // Another build sharing the cache may have removed it already.
    const mtimeMs = await stat(p).then((s) => s.mtimeMs, () => now);
    if (now - mtimeMs > maxUnusedMs) {
      await rm(p, { force: true });
      removed++;
    }
  }
  return removed;
}

export async function precompress(
  root: string,
  cacheDir = process.env.COMPRESS_CACHE_DIR || '.cache/compressed',
): Promise<{ files: number; reused: number; pruned: number }> {
  await mkdir(cacheDir, { recursive: true });
  let count = 0;
  let reused = 0;
  let temporaries = 0;
  const one = async (file: string) => {
    const body = await readFile(file);
    const key = createHash('sha256').update(body).digest('hex').slice(0, 40);
    for (const [ext, make] of [
      ['br', () => br(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: body.length } })],
      ['gz', () => gz(body, { level: 9 })],
    ] as const) {
      const cached = join(cacheDir, `${key}.${ext}`);
      const target = `${file}.${ext}`;
      try {
        // Copy first rather than check, then copy: another build sharing the cache may prune it in between.
        await copyFile(cached, target);
        reused++;
        // Marks the entry as used by this build (see pruneCompressCache). An entry of another user may
        // refuse; that only shortens its life in the cache.
        const now = new Date();
        await utimes(cached, now, now).catch(() => {});
      } catch {
        const data = await make();
        await writeFile(target, data);
        // Into the cache by rename, so that a build running beside this one never copies half a file.
        const tmp = `${cached}.${process.pid}-${++temporaries}.tmp`;
        await writeFile(tmp, data);
        await rename(tmp, cached);
      }
    }
    count++;
  };
  // A few at a time: compression is CPU work (libuv's threads) and the machine has few cores.
  await mapLimit((await listFiles(root)).filter((f) => COMPRESSIBLE.test(f)), 8, one);
  return { files: count, reused: reused / 2, pruned: await pruneCompressCache(cacheDir) };
}
