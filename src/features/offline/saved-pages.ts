/**
 * The offline page's list of the pages this device has saved, read from the service
 * worker's cache. Cached pages are content: only their title, language and address are taken, and
 * only as text.
 */
import { OFFLINE_CACHES } from './offline-caches.ts';
import { languageByNumber } from '../../i18n/languages.ts';
import { formatSavedAt, SAVED_AT_HEADER } from './saved-copy.ts';

interface SavedPage {
  href: string;
  title: string;
  lang: string;
  savedAt: string;
}

async function savedPages(): Promise<SavedPage[]> {
  if (!('caches' in window) || !(await caches.has(OFFLINE_CACHES.pages.name))) return [];
  const cache = await caches.open(OFFLINE_CACHES.pages.name);
  const pages = await Promise.all(
    (await cache.keys()).map(async (request): Promise<SavedPage | null> => {
      const url = new URL(request.url);
      const response = await cache.match(request);
      if (!response || url.origin !== location.origin) return null;
      const doc = new DOMParser().parseFromString(await response.text(), 'text/html');
      const title = doc.querySelector('meta[property="og:title"]')?.getAttribute('content')?.trim() || doc.title.trim() || url.pathname;
      return { href: url.pathname + url.search, title, lang: doc.documentElement.lang, savedAt: response.headers.get(SAVED_AT_HEADER) ?? '' };
    }),
  );
  return pages.filter((p): p is SavedPage => p !== null).sort((a, b) => b.savedAt.localeCompare(a.savedAt));
}

async function main(): Promise<void> {
  const section = document.querySelector<HTMLElement>('[data-saved-pages]');
  const list = section?.querySelector('ul');
  const lang = languageByNumber(Number(section?.dataset.lang));
  if (!section || !list || !lang) return;
  const pages = await savedPages();
  for (const page of pages) {
    const link = document.createElement('a');
    link.href = page.href;
    link.textContent = page.title;
    if (page.lang) link.lang = page.lang;
    const item = document.createElement('li');
    item.append(link);
    const when = formatSavedAt(page.savedAt, lang);
    if (when) {
      const time = document.createElement('time');
      time.dateTime = page.savedAt;
      time.textContent = when;
      item.append(' ', time);
    }
    list.append(item);
  }
  list.hidden = pages.length === 0;
  section.querySelector<HTMLElement>('[data-saved-none]')!.hidden = pages.length > 0;
}

void main();
