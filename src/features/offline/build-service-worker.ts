/**
 * Writes the site's service worker, /sw.js, into a built site (offline reading):
 * src/features/offline/sw.ts (Serwist's runtime) bundled by esbuild with the precache list that
 * @serwist/build makes from the built files. The build's last pass calls it once every page is
 * final, so each revision is the hash of what is published and the same site always gives the
 * same bytes (no time, no random revision). The worker also gets the list of the site's pages
 * (src/features/offline/site-pages.ts), to drop saved copies of pages the site no longer has: made
 * from this build's files alone, never from the previous release, so an incremental build writes
 * the same worker as a cold one. With SERVICE_WORKER=off it writes src/features/offline/sw-off.ts
 * instead, which removes the worker and its caches from every device that has it.
 */
import { readdir, writeFile } from 'node:fs/promises';
import { join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { getManifest, type ManifestEntry } from '@serwist/build';
import { DISTRICT_KEY } from '../../district/key.ts';
import { BASE_PATH, siteAddress, withinSite } from '../../lib/base-path.ts';
import { build } from 'esbuild';
import { offlinePath } from './saved-copy.ts';
import { sitePages } from './site-pages.ts';
import { PICTURE_SITE_DIR } from '../../content/pictures/settings.ts';
import { LANGUAGES } from '../../i18n/languages.ts';

export const SERVICE_WORKER_FILE = '/sw.js';
const REPO = fileURLToPath(new URL('../../..', import.meta.url));
const OFFLINE_PAGES = LANGUAGES.map(offlinePath);

/**
 * What every device keeps from its first visit: the hashed scripts, styles and fonts (not the
 * pictures, which `/_astro/` holds too and which are kept only once seen), the icon sprite, the
 * favicon every page asks for, and the offline pages. `/_astro/` names carry their hash, so those need no revision.
 */
export async function precacheList(root: string): Promise<ManifestEntry[]> {
  const { manifestEntries = [], warnings } = await getManifest({
    globDirectory: root,
    globPatterns: ['_astro/**/*.{js,css,woff2}', 'icons.svg', 'favicon.svg', ...OFFLINE_PAGES.map((p) => `${withinSite(p)!.slice(1)}/index.html`)],
    // Not walked: the drawn pictures hold none of those, and at 10,000 news a language are 26,000 files (0.14 s a build).
    globIgnores: [`${PICTURE_SITE_DIR}/**`],
    dontCacheBustURLsMatching: /^_astro\//,
    manifestTransforms: [
      // Addresses as pages link them (`/ru/offline`, under the base path), in one order whatever order the files were found in.
      async (entries) => ({
        manifest: entries.map((e) => ({ ...e, url: siteAddress(`/${e.url.replace(/\/?index\.html$/, '')}`) })).sort((a, b) => (a.url < b.url ? -1 : a.url > b.url ? 1 : 0)),
      }),
    ],
  });
  if (warnings.length) throw new Error(`the service worker's precache list: ${warnings.join('; ')}`);
  const missing = OFFLINE_PAGES.filter((p) => !manifestEntries.some((e) => e.url === p));
  if (missing.length) throw new Error(`the service worker's offline pages are not in the build: ${missing.join(', ')}`);
  return manifestEntries;
}

/** The site path of every page among a site's files (`/news/5/index.html` → `/news/5`, `/404.html` → `/404`). */
export const pagesAmong = (files: readonly string[]): string[] => files.filter((f) => f.endsWith('.html')).map((f) => f.replace(/(?:\/index)?\.html$/, '') || '/');

/** The site path of every page of a built site (`/`, `/ru/news/5`): each `index.html`, and the pages written as `name.html` (`/404`). */
export async function pagePaths(root: string): Promise<string[]> {
  return pagesAmong((await readdir(root, { recursive: true })).map((f) => `/${f.split(sep).join('/')}`));
}

/**
 * Writes `root/sw.js` (or `out`): the worker with its precache list and the site's pages, or, when `enabled` is false, the one
 * that removes itself. `files`, the site paths of the built site's files, spares a listing of the folder to a
 * caller that has one (the build's last pass: at 44,700 pages the listing took 1.4 s).
 */
export async function writeServiceWorker(root: string, enabled: boolean, files?: readonly string[], out = join(root, SERVICE_WORKER_FILE)): Promise<string> {
  const manifest = enabled ? await precacheList(root) : [];
  const pages = enabled ? sitePages(files ? pagesAmong(files) : await pagePaths(root)) : {};
  const result = await build({
    entryPoints: [join(REPO, 'src/features/offline', enabled ? 'sw.ts' : 'sw-off.ts')],
    absWorkingDir: REPO,
    bundle: true,
    write: false,
    format: 'iife',
    target: 'es2022',
    minify: true,
    legalComments: 'none',
    charset: 'utf8',
    logLevel: 'error',
    define: {
      'self.__SW_MANIFEST': JSON.stringify(manifest),
      'self.__SW_PAGES': JSON.stringify(pages),
      'process.env.NODE_ENV': '"production"',
      // Its cache names begin with the district's short name (src/district/key.ts).
      'globalThis.__SITE_DISTRICT__': JSON.stringify(DISTRICT_KEY),
      // And it knows the site's base path: its scope, and which addresses are this site's (src/lib/base-path.ts).
      'globalThis.__SITE_BASE_PATH__': JSON.stringify(BASE_PATH),
    },
  });
  await writeFile(out, result.outputFiles[0]!.contents);
  return out;
}
