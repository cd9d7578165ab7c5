/**
 * Astro's incremental build copies every page it reuses from its cache into
 * the output folder. After one edit at 2,500 posts per language that is some
 * 11,000 pages, 450 MB written one page at a time, about 7 seconds of a
 * rebuild, and the bytes are thrown away again when the last pass links the
 * unchanged pages to the published release. A hard link to the cache's copy
 * costs no bytes.
 *
 * The danger of a link is writing through it: Astro rewrites a cache entry
 * in place when it renders that page again. So the last pass never writes a
 * page in place, and gives a file that is still linked elsewhere an inode of
 * its own before it is published (finish-step.ts); the rebuild test's
 * same-bytes-as-a-cold-build check covers both.
 *
 * The cache is Astro's internal `IncrementalBuildCache` (experimental in
 * Astro 7.3). If a later Astro moves it, `restoreByLink` returns false and
 * Astro copies as before: slower, never wrong.
 */
import { linkSync, mkdirSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';

interface RestoringCache {
  restoreOutputFile(settings: { config: { cacheDir: URL } }, outputFile: string, destination: URL): Promise<boolean>;
}

/** Where Astro keeps its copy of an output file (its `getCachedOutputFile`). */
const cachedOutputFile = (cacheDir: URL, outputFile: string) => new URL(outputFile, new URL('dist/', cacheDir));

/**
 * A page's own folder (`news/5/`), which is nearly always new: made with one call, and its parents only when
 * missing. At 10,000 posts per language (44,700 pages) a recursive mkdir before each took 10.6 s of a rebuild,
 * this 3.5 s (profiled).
 */
function makeFolder(folder: URL): void {
  try {
    mkdirSync(folder);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') mkdirSync(folder, { recursive: true });
    else if (code !== 'EEXIST') throw error;
  }
}

/** Makes Astro restore reused pages as hard links to its cache. Returns whether it could. */
export async function restoreByLink(): Promise<boolean> {
  const astro = dirname(createRequire(import.meta.url).resolve('astro/package.json'));
  let cache: { prototype?: Partial<RestoringCache> } | undefined;
  try {
    ({ IncrementalBuildCache: cache } = await import(pathToFileURL(join(astro, 'dist/core/build/incremental.js')).href));
  } catch {
    return false;
  }
  const proto = cache?.prototype;
  const copy = proto?.restoreOutputFile;
  if (!proto || typeof copy !== 'function') return false;
  // Synchronous on purpose: Astro restores one page at a time (build.concurrency 1), and each awaited
  // call is a round trip through libuv's threads that left the cores idle most of the restore.
  proto.restoreOutputFile = async function (this: RestoringCache, settings, outputFile, destination) {
    try {
      makeFolder(new URL('./', destination));
      linkSync(cachedOutputFile(settings.config.cacheDir, outputFile), destination);
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
      // Another file system, or a file left there: Astro's own copy.
      rmSync(destination, { force: true });
      return copy.call(this, settings, outputFile, destination);
    }
  };
  return true;
}
