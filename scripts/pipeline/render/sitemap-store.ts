/**
 * The sitemap's files (src/lib/sitemap.ts) kept beside Astro's cache between builds, as the search index's are
 * (../../lib/text-store.ts): at 10,000 news a language they are 52 files of 18.7 MB, of which a new post changes
 * one or two, all written into the site on every build (0.13 s of the build's main thread) and read and hashed
 * again by the last pass. Here a file is written only when its text differs from the one kept, and the last pass
 * places each as a link.
 *
 * The render step turns this on (`keepSitemapIn`); a build Astro runs by itself (`astro build`) writes the
 * sitemap into its folder as before. Astro loads its configuration, which names `keepSitemap`, in a module
 * graph of its own: the two meet on the global object.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { storeTextFiles } from '../../lib/text-store.ts';
import type { StoredFiles } from '../finish/finish-step.ts';

interface SitemapStore {
  folder: string;
  /** The files the sitemap was written as in this build, by site path. */
  files?: StoredFiles;
}

const STORE = Symbol.for('hokimiyat.sitemap-store');
const shared = globalThis as { [STORE]?: SitemapStore };

/** Sends the sitemap of the builds this process runs into `folder`, not into Astro's. */
export function keepSitemapIn(folder: string): void {
  shared[STORE] = { folder };
}

/** The sitemap's files the last build kept (by site path, with their source and hash), for the last pass to place. */
export const keptSitemap = (): StoredFiles => shared[STORE]?.files ?? new Map();

const textIn = (file: string) => {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
};

/** Keeps the sitemap's files (text by name) in the store when the render step has set one up; false when it has not. */
export function keepSitemap(files: ReadonlyMap<string, string>): boolean {
  const store = shared[STORE];
  if (!store) return false;
  const { hashes } = storeTextFiles(store.folder, files, (file, _name, text) => textIn(file) === text);
  store.files = new Map([...hashes].map(([name, hash]) => [`/${name}`, { source: join(store.folder, name), hash }]));
  return true;
}
