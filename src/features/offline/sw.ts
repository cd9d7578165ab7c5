/// <reference lib="webworker" />
/**
 * The site's service worker, bundled with its precache list into /sw.js by
 * src/features/offline/build-service-worker.ts. Serwist does all the caching; this file only says what goes where:
 *
 * - precached at install: the hashed scripts and styles, the icon sprite, each language's offline page;
 * - pages of this site: the network first; the saved copy when the network fails or has not answered
 *   within OFFLINE_NETWORK_TIMEOUT_S, marked with the time it was saved; a page never saved gets the
 *   offline page of its language;
 * - a page the site no longer has leaves the cache: when the server answers 404 or 410 for it (the
 *   visitor gets the site's not-found page), and when a new release's worker takes over without it on
 *   its list of pages (./site-pages.ts);
 * - pictures of this site, and the parts of its search index (src/features/search/search-index.ts): from the
 *   cache once seen, refreshed in the background, so a search this device made once answers offline too;
 * - the search page is kept once whatever its query (its script reads `?q=`), so any search opens offline;
 * - anything else (the API, which is another origin, other origins, POST, sw.js): not touched.
 */
import { CacheableResponsePlugin, ExpirationPlugin, NetworkFirst, Serwist, StaleWhileRevalidate, type PrecacheEntry, type SerwistPlugin } from 'serwist';
import { SEARCH_PATH } from '../../constants.ts';
import { OFFLINE_CACHES, OFFLINE_NETWORK_TIMEOUT_S } from './offline-caches.ts';
import { INDEX_ROOT } from '../search/search-index.ts';
import { LANGUAGES, splitLocalizedPath } from '../../i18n/languages.ts';
import { withinSite } from '../../lib/base-path.ts';
import { offlinePath, SAVED_AT_ATTRIBUTE, SAVED_AT_HEADER } from './saved-copy.ts';
import { removedPages, type SitePages } from './site-pages.ts';

declare const self: ServiceWorkerGlobalScope & { __SW_MANIFEST: PrecacheEntry[]; __SW_PAGES: SitePages };

const DAY_S = 86_400;
/** This site's address: its origin, under its base path (another site may share the origin under another path). */
const ours = (url: URL) => url.origin === self.location.origin && withinSite(url.pathname) !== null;
/** A page, not a file: pages have no extension (`/news/5`, `/ru/`); `/_astro/` holds only files. */
const isPage = (url: URL) => ours(url) && !withinSite(url.pathname)!.startsWith('/_astro/') && !/\.[^/]*$/.test(url.pathname);

/** The same response with other headers; its body read as it is (already decoded). */
function withHeaders(response: Response, body: BodyInit | null, change: (headers: Headers) => void): Response {
  const headers = new Headers(response.headers);
  // The body a fetch hands over is decoded: its stored length and coding no longer describe it.
  headers.delete('content-length');
  headers.delete('content-encoding');
  change(headers);
  return new Response(body, { status: response.status, statusText: response.statusText, headers });
}

const savedCopies: SerwistPlugin = {
  cacheWillUpdate: async ({ response }) => withHeaders(response, response.body, (h) => h.set(SAVED_AT_HEADER, new Date().toISOString())),
  // NetworkFirst reads its cache only when the network failed or was too slow: mark the copy so the page says so.
  cachedResponseWillBeUsed: async ({ cachedResponse }) => {
    if (!cachedResponse) return cachedResponse;
    const savedAt = cachedResponse.headers.get(SAVED_AT_HEADER) ?? '';
    const html = (await cachedResponse.text()).replace(/<html\b/i, `<html ${SAVED_AT_ATTRIBUTE}="${savedAt.replace(/[^\w:.+-]/g, '')}"`);
    return withHeaders(cachedResponse, html, () => undefined);
  },
};

/** A page the server says is gone (404, 410): its saved copy goes too, so it is not shown offline later. */
const forgetGonePages: SerwistPlugin = {
  cacheWillUpdate: async ({ request, response }) => {
    if (response.status === 404 || response.status === 410) await (await caches.open(OFFLINE_CACHES.pages.name)).delete(request.url, { ignoreVary: true });
    return response;
  },
};

/** The search page is one page whatever its query: its saved copy answers every search. */
const oneSearchPage: SerwistPlugin = {
  cacheKeyWillBeUsed: async ({ request }) => {
    const url = new URL(request.url);
    if (!url.search || splitLocalizedPath(url.pathname).path !== SEARCH_PATH) return request;
    url.search = '';
    return url.href;
  },
};

/** When this release's worker takes over: the saved pages it does not have (taken down since they were saved) go. */
async function forgetRemovedPages(): Promise<void> {
  if (!(await caches.has(OFFLINE_CACHES.pages.name))) return;
  const cache = await caches.open(OFFLINE_CACHES.pages.name);
  const removed = removedPages(
    (await cache.keys()).map((r) => r.url),
    self.__SW_PAGES,
  );
  await Promise.all(removed.map((url) => cache.delete(url, { ignoreVary: true })));
}

const serwist = new Serwist({
  precacheEntries: self.__SW_MANIFEST,
  precacheOptions: { cleanupOutdatedCaches: true },
  // A new release's worker takes over at once: the visitor is never held on the previous one's assets.
  skipWaiting: true,
  clientsClaim: true,
  navigationPreload: true,
  disableDevLogs: true,
  runtimeCaching: [
    {
      matcher: ({ url }) => isPage(url),
      handler: new NetworkFirst({
        cacheName: OFFLINE_CACHES.pages.name,
        networkTimeoutSeconds: OFFLINE_NETWORK_TIMEOUT_S,
        plugins: [
          oneSearchPage,
          forgetGonePages,
          new CacheableResponsePlugin({ statuses: [200] }),
          new ExpirationPlugin({ maxEntries: OFFLINE_CACHES.pages.maxEntries, maxAgeSeconds: OFFLINE_CACHES.pages.maxAgeDays * DAY_S, purgeOnQuotaError: true }),
          savedCopies,
        ],
      }),
    },
    {
      matcher: ({ url, request }) => ours(url) && request.destination === 'image',
      handler: new StaleWhileRevalidate({
        cacheName: OFFLINE_CACHES.pictures.name,
        plugins: [
          new CacheableResponsePlugin({ statuses: [200] }),
          new ExpirationPlugin({ maxEntries: OFFLINE_CACHES.pictures.maxEntries, maxAgeSeconds: OFFLINE_CACHES.pictures.maxAgeDays * DAY_S, purgeOnQuotaError: true }),
        ],
      }),
    },
    {
      matcher: ({ url }) => ours(url) && withinSite(url.pathname)!.startsWith(INDEX_ROOT),
      handler: new StaleWhileRevalidate({
        cacheName: OFFLINE_CACHES.search.name,
        plugins: [
          new CacheableResponsePlugin({ statuses: [200] }),
          new ExpirationPlugin({ maxEntries: OFFLINE_CACHES.search.maxEntries, maxAgeSeconds: OFFLINE_CACHES.search.maxAgeDays * DAY_S, purgeOnQuotaError: true }),
        ],
      }),
    },
  ],
  fallbacks: {
    entries: LANGUAGES.map((lang) => ({
      url: offlinePath(lang),
      matcher: ({ request }) => request.mode === 'navigate' && splitLocalizedPath(new URL(request.url).pathname).lang === lang,
    })),
  },
});

serwist.addEventListeners();
self.addEventListener('activate', (event) => event.waitUntil(forgetRemovedPages()));
