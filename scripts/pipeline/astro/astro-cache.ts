/**
 * Astro's incremental build cache (`IncrementalBuildCache`, experimental in Astro 7.3), which the build reaches
 * into to note the pages Astro reuses (./restore-output.ts) and to leave out the pages whose key is unchanged
 * (./changed-pages.ts). tests/unit/astro-bridge.test.ts checks what they use of it against the installed Astro.
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';

/** The folder inside Astro's cache directory that keeps its copy of each output file (its `getCachedOutputFile`). */
export const COPIES_FOLDER = 'dist/';

/** Astro's cache class, or undefined when it is not where this expects it (a later Astro: slower, never wrong). */
export async function astroCacheClass<T extends object>(): Promise<Partial<T> | undefined> {
  const astro = dirname(createRequire(import.meta.url).resolve('astro/package.json'));
  try {
    const module = (await import(pathToFileURL(join(astro, 'dist/core/build/incremental.js')).href)) as { IncrementalBuildCache?: Partial<T> };
    return module.IncrementalBuildCache;
  } catch {
    return undefined;
  }
}
