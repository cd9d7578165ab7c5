/**
 * A list page that does not exist (`/news/page/999` past the newest numbered page, `/news/page/0`) leads to
 * the nearest one that does, instead of the not-found screen: an old link or a typed number still brings
 * the citizen to the list. Pages are numbered from the oldest post (src/lib/list-pagination.ts), so past
 * the newest numbered page is the list's first page. The not-found page holds each paginated list's count
 * of numbered pages (`data-list-pages`); this runs there, before its other script.
 */
import { splitLocalizedPath, localizePath } from '../../i18n/languages.ts';

/** The address of the nearest real page of a list, for a list page address that has none; null for any other. */
export function nearestListPage(pathname: string, numberedPages: Readonly<Record<string, number>>): string | null {
  const { lang, path } = splitLocalizedPath(pathname);
  const m = /^\/([\w-]+)\/page\/(\d{1,9})\/?$/.exec(path);
  if (!m || !(m[1]! in numberedPages)) return null;
  const [slug, n, numbered] = [m[1]!, Number(m[2]), numberedPages[m[1]!]!];
  if (n >= 1 && n <= numbered) return null; // a real page: not this script's business
  return localizePath(lang, n > numbered || numbered < 1 ? `/${slug}` : `/${slug}/page/1`);
}

const screen = typeof document === 'undefined' ? null : document.querySelector<HTMLElement>('[data-list-pages]');
if (screen) {
  try {
    const target = nearestListPage(location.pathname, JSON.parse(screen.dataset.listPages ?? '{}') as Record<string, number>);
    if (target) location.replace(target + location.hash);
  } catch {
    // Unreadable counts: the not-found screen stays.
  }
}
