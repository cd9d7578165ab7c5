/// <reference lib="webworker" />
/**
 * The worker shipped when the operator turns offline reading off (SERVICE_WORKER=off): a device that
 * has the real worker gets this one at its next visit, which empties the site's caches and
 * unregisters itself, so from then on every request goes to the network as if there had never been one.
 */
declare const self: ServiceWorkerGlobalScope;
// A module, so `self` above is this file's own declaration.
export {};

self.addEventListener('install', () => void self.skipWaiting());
self.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      await Promise.all((await caches.keys()).map((name) => caches.delete(name)));
      await self.registration.unregister();
    })(),
  );
});
