/**
 * The sitemap's files (src/lib/sitemap.ts) kept beside Astro's cache between builds, each under the hash of its
 * bytes: at 10,000 news a language they are 52 files of 18.7 MB, of which a new post changes one or two, all
 * written into the site on every build and read and hashed again by the last pass. Here a file is hashed once and
 * written only when no file has its bytes, and the last pass places each as a link, as it places the drawn pictures
 * (../finish/finish-step.ts, `stored`). Named by their hash, the files are never written through (a published
 * release may share their inode); one of another size than its text (cut short by a power loss: they are written
 * as a cache is, without waiting for the disk) is written again.
 *
 * The render step turns this on (`keepSitemapIn`); a build Astro runs by itself (`astro build`) writes the
 * sitemap into its folder as before. Astro loads its configuration, which names `keepSitemap`, in a module
 * graph of its own: the two meet on the global object.
 */
import { hash } from 'node:crypto';
import { mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { replaceFileSync } from '../../lib/replace-file.ts';
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

/** Keeps the sitemap's files (text by name) in the store when the render step has set one up; false when it has not. */
export function keepSitemap(files: ReadonlyMap<string, string>): boolean {
  const store = shared[STORE];
  if (!store) return false;
  mkdirSync(store.folder, { recursive: true });
  const kept = new Map<string, { source: string; hash: string }>();
  for (const [name, text] of files) {
    const sha = hash('sha256', text);
    const source = join(store.folder, sha);
    if (statSync(source, { throwIfNoEntry: false })?.size !== Buffer.byteLength(text)) replaceFileSync(source, text);
    kept.set(`/${name}`, { source, hash: sha });
  }
  // The files of earlier builds' sitemaps go (their releases keep their own links).
  const used = new Set([...kept.values()].map(({ hash: sha }) => sha));
  for (const name of readdirSync(store.folder)) if (!used.has(name)) rmSync(join(store.folder, name), { force: true });
  store.files = kept;
  return true;
}
