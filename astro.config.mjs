// @ts-check
import react from '@astrojs/react';
import { defineConfig } from 'astro/config';
import { slugRedirects } from './src/routes.ts';

export default defineConfig({
  site: (process.env.SITE_URL || 'http://localhost:4321').trim(),
  output: 'static',
  outDir: process.env.OUT_DIR || './dist',
  integrations: [react()],
  // `/news/5` is served from `news/5/index.html` by any static host.
  // Incremental builds (issue: webhook and nightly rebuilds): pages keyed by their content are reused.
  // The cache lives in cacheDir, which the rebuild keeps between builds; concurrency must stay 1 while it is on.
  experimental: { incrementalBuild: true },
  cacheDir: process.env.ASTRO_CACHE_DIR || './.cache/astro',
  build: { format: 'directory', concurrency: 1 },
  trailingSlash: 'ignore',
  // The menu's Uzbek slugs (/yangiliklar) lead to the canonical routes (/news), in every language.
  redirects: slugRedirects(),
  // The site is read from a CDN by slow phones: keep styles in files that cache across pages.
  vite: { build: { assetsInlineLimit: 0 } },
});
