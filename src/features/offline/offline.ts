/**
 * Loaded by every page (OfflineSupport.astro), as a module after the page has painted. Shows the
 * saved-copy note when the service worker served this page from its cache, and registers the worker
 * once the page has loaded, so a first visit pays nothing for it.
 */
import { format } from '../../i18n/format.ts';
import { languageByNumber } from '../../i18n/languages.ts';
import { siteAddress } from '../../lib/base-path.ts';
import { formatSavedAt, SAVED_AT_ATTRIBUTE } from './saved-copy.ts';

const note = document.querySelector<HTMLElement>('[data-saved-copy]');
const lang = languageByNumber(Number(note?.dataset.lang));
const savedAt = document.documentElement.getAttribute(SAVED_AT_ATTRIBUTE);

if (note && lang && savedAt !== null) {
  // The note's text is in the page already, in its language: only the time is filled in.
  note.textContent = format(note.dataset.text ?? '', { when: formatSavedAt(savedAt, lang) ?? '…' });
  note.hidden = false;
}

async function register(): Promise<void> {
  const controlled = Boolean(navigator.serviceWorker.controller);
  // Its scope is the site's base path: another site on the same origin keeps its own worker.
  await navigator.serviceWorker.register(siteAddress('/sw.js'), { scope: siteAddress('/') });
  if (controlled || savedAt !== null) return;
  // This page came from the network before the worker existed: keep it too, as if it had passed through.
  const { active } = await navigator.serviceWorker.ready;
  active?.postMessage({ type: 'CACHE_URLS', payload: { urlsToCache: [location.href] } });
}

if (note?.dataset.worker === 'on' && 'serviceWorker' in navigator) {
  const start = () => void register().catch(() => undefined);
  if (document.readyState === 'complete') start();
  else addEventListener('load', start, { once: true });
}
