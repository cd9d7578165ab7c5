/**
 * A list page that does not exist (`/news/page/999` past the end, `/news/page/1`, which is `/news`) leads
 * to the nearest one that does, instead of the not-found screen: an old link or a typed number still
 * brings the citizen to the list. The not-found page holds each paginated list's page count
 * (`data-list-pages`); this runs there, before its other script.
 */
import { splitLocalizedPath, localizePath } from '../../i18n/languages.ts';

/** The address of the nearest real page of a list, for a list page address that has none; null for any other. */
export function nearestListPage(pathname: string, pageCounts: Readonly<Record<string, number>>): string | null {
  const { lang, path } = splitLocalizedPath(pathname);
  const m = /^\/([\w-]+)\/page\/(\d{1,9})\/?$/.exec(path);
  if (!m || !(m[1]! in pageCounts)) return null;
  const [slug, n, count] = [m[1]!, Number(m[2]), pageCounts[m[1]!]!];
  const page = Math.min(Math.max(n, 1), Math.max(count, 1));
  if (page === n && n > 1) return null; // a real page: not this script's business
  return localizePath(lang, page <= 1 ? `/${slug}` : `/${slug}/page/${page}`);
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
