// @ts-check
import react from '@astrojs/react';
import { defineConfig } from 'astro/config';
import { readConfig, readMachineSettings } from './src/config.ts';
import { LANGUAGES } from './src/i18n/languages.ts';
import { slugRedirects } from './src/routes.ts';
import { inFragmentFolder } from './src/lib/fragments.ts';
import { unlistedPostPaths } from './src/lib/section-pages.ts';
import { sitemap } from './src/lib/sitemap.ts';
import { topicRedirectPaths } from './src/lib/topic-pages.ts';
import { devPictures } from './scripts/pipeline/downloads/dev-server.ts';
import { pagesReusedWithoutAstro } from './scripts/pipeline/astro/changed-pages.ts';
import { keepSitemap } from './scripts/pipeline/render/sitemap-store.ts';
import { district } from './src/district/district.ts';
import { devDistrictPictures } from './src/district/dev-server.ts';
import { DISTRICT_KEY } from './src/district/key.ts';

const redirects = slugRedirects();
/**
 * `/news/{id}` of posts that are not news redirect to their own section, topic slugs to the menu's content
 * page for them, and a post removed since the nightly pull says so (all noindex): read from the snapshot when the
 * sitemap is written.
 */
let contentRedirects;
const config = readConfig();
const machine = readMachineSettings();
const siteOrigin = new URL(config.siteUrl).origin;
// The district's identity is checked before anything is built: an invalid folder stops here, naming the file and the field.
district();

export default defineConfig({
  site: config.siteUrl,
  // Under a path of a shared domain (BASE_PATH, src/lib/base-path.ts): Astro's own assets go under it; the site's links through localizePath and siteAddress.
  base: config.basePath || undefined,
  output: 'static',
  outDir: machine.outDir,
  integrations: [
    react(),
    // Every page in every language, with its hreflang alternates (src/lib/sitemap.ts); not the redirects (menu slugs, /news/{id} of other posts),
    // the removed posts' pages, the error pages, or the search page (noindex).
    sitemap({
      site: new URL(`${config.basePath}/`, config.siteUrl).href,
      defaultLocale: LANGUAGES[0].code,
      locales: Object.fromEntries(LANGUAGES.map((l) => [l.prefix || l.code, l.tag])),
      reusedWithoutAstro: pagesReusedWithoutAstro,
      keptElsewhere: keepSitemap,
      filter: (page) => {
        // Each address is the site's followed by its path (a URL parsed for each of 44,700 pages took 0.3 s).
        const path = (page.startsWith(siteOrigin) ? page.slice(siteOrigin.length) : new URL(page).pathname).replace(/\/$/, '') || '/';
        contentRedirects ??= new Set([...unlistedPostPaths(), ...topicRedirectPaths()]);
        return !(path in redirects) && !contentRedirects.has(path) && !/(^|\/)(404|500|offline|search)$/.test(path) && !inFragmentFolder(path);
      },
    }),
  ],
  // `/news/5` is served from `news/5/index.html` by any static host.
  // Incremental builds (issue: webhook and nightly rebuilds): pages keyed by their content are reused.
  // The cache lives in cacheDir, which the rebuild keeps between builds; concurrency must stay 1 while it is on.
  experimental: { incrementalBuild: true },
  cacheDir: machine.astroCacheDir,
  build: { format: 'directory', concurrency: 1 },
  trailingSlash: 'ignore',
  // Scoped styles by class rather than a data attribute on every element: fewer bytes in the first flight.
  scopedStyleStrategy: 'class',
  // The menu's Uzbek slugs (/yangiliklar) lead to the canonical routes (/news) in every language through
  // src/pages/[...lang]/[slug].astro: localised pages with a cacheKey, not Astro's English `redirects`.
  // Pictures from the API are fetched and drawn by the pull, not by Astro (src/content/pictures/).
  // The site is read from a CDN by slow phones: keep styles in files that cache across pages.
  // Browser code learns the district's short name (storage keys, cache names) and the base path here: src/district/key.ts, src/lib/base-path.ts.
  vite: {
    build: { assetsInlineLimit: 0 },
    define: { 'globalThis.__SITE_DISTRICT__': JSON.stringify(DISTRICT_KEY), 'globalThis.__SITE_BASE_PATH__': JSON.stringify(config.basePath) },
    plugins: [devPictures(machine.pictureDir), devDistrictPictures()],
  },
});
