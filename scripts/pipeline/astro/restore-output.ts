/**
 * Astro's incremental build copies every page it reuses from its cache into
 * the output folder: after one edit at 10,000 posts per language some 44,000
 * pages, each a new folder and a file, and the copy is thrown away again when
 * the last pass links the unchanged page to the published release.
 *
 * So the build tells Astro the page is restored and only notes where its cache
 * keeps it. The last pass (../finish/finish-step.ts) reads the page from there
 * when it must, and puts the file into the release once: a link to the
 * published release's copy when the bytes are the same, or a file of its own.
 * Nothing reads the output folder between the two (../build-step.ts).
 *
 * The cache is Astro's internal `IncrementalBuildCache` (experimental in
 * Astro 7.3). If a later Astro moves it, `deferRestore` returns null and
 * Astro copies as before: slower, never wrong.
 */
import { statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { astroCacheClass, COPIES_FOLDER } from './astro-cache.ts';
import type { FileStamp } from './copy-stats.ts';

interface RestoringCache {
  restoreOutputFile(settings: { config: { cacheDir: URL; outDir: URL } }, outputFile: string, destination: URL): Promise<boolean>;
}

/** A page Astro reused: its copy in Astro's cache, and that file's stat when Astro reused it. */
export interface ReusedPage {
  source: string;
  stat: FileStamp;
}

/** Pages Astro reused in this process's latest build, by site path (`/news/5/index.html`). */
export type ReusedPages = ReadonlyMap<string, ReusedPage>;

/** Where Astro keeps its copy of an output file (its `getCachedOutputFile`). */
const cachedOutputFile = (cacheDir: URL, outputFile: string) => new URL(outputFile, new URL(COPIES_FOLDER, cacheDir));

/** Astro's own restore, kept once however often the build is started in one process. */
const ASTRO_RESTORE = Symbol.for('hokimiyat.astro-restore');

/**
 * Makes Astro note the pages it reuses instead of copying them, from now until the next call. Returns the
 * pages it noted (filled as Astro builds), or null when Astro's cache is not where this expects it.
 */
export async function deferRestore(): Promise<Map<string, ReusedPage> | null> {
  const cache = await astroCacheClass<{ prototype: Partial<RestoringCache> & { [ASTRO_RESTORE]?: RestoringCache['restoreOutputFile'] } }>();
  const proto = cache?.prototype;
  const copy = proto?.[ASTRO_RESTORE] ?? proto?.restoreOutputFile;
  if (!proto || typeof copy !== 'function') return null;
  proto[ASTRO_RESTORE] = copy;
  const reused = new Map<string, ReusedPage>();
  const folders = new WeakMap<object, { copies: string; outDir: string; outDirHref: string }>();
  proto.restoreOutputFile = async function (this: RestoringCache, settings, outputFile, destination) {
    let known = folders.get(settings.config);
    if (!known) {
      const { cacheDir, outDir } = settings.config;
      folders.set(settings.config, (known = { copies: fileURLToPath(cachedOutputFile(cacheDir, '')), outDir: fileURLToPath(outDir), outDirHref: outDir.href }));
    }
    // Names without an escape are the same as paths and as URLs: joined as strings, as 44,000 pages a rebuild want.
    const plain = !outputFile.includes('%') && !destination.href.includes('%') && destination.href.startsWith(known.outDirHref);
    const source = plain ? known.copies + outputFile : fileURLToPath(cachedOutputFile(settings.config.cacheDir, outputFile));
    // Astro renders a page whose copy is missing, as its own restore does.
    const stat = statSync(source, { bigint: true, throwIfNoEntry: false });
    if (!stat) return false;
    const file = plain ? known.outDir + destination.href.slice(known.outDirHref.length) : fileURLToPath(destination);
    if (!file.startsWith(known.outDir)) return copy.call(this, settings, outputFile, destination);
    reused.set(`/${file.slice(known.outDir.length).replace(/^\/+/, '')}`, { source, stat });
    return true;
  };
  return reused;
}
