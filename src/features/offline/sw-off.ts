/// <reference lib="webworker" />
/**
 * The worker shipped when the operator turns offline reading off (SERVICE_WORKER=off): a device that
 * has the real worker gets this one at its next visit, which empties the site's caches and
 * unregisters itself, so from then on every request goes to the network as if there had never been one.
 */
import { OFFLINE_CACHES } from './offline-caches.ts';

declare const self: ServiceWorkerGlobalScope;

/**
 * This site's caches only: its saved pages and pictures, and the precache, whose name holds the worker's
 * scope. Another site on the same origin under another path keeps its own.
 */
const isThisSitesCache = (name: string) => Object.values(OFFLINE_CACHES).some((c) => c.name === name) || name.endsWith(self.registration.scope);

self.addEventListener('install', () => void self.skipWaiting());
self.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      await Promise.all((await caches.keys()).filter(isThisSitesCache).map((name) => caches.delete(name)));
      await self.registration.unregister();
    })(),
  );
});
