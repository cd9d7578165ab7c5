/**
 * Which not-found addresses may be an item published after the last build: the detail
 * URLs of posts and content pages, in every language. Pure, so it is unit-tested without a browser.
 */
import { LANGUAGES } from '../../i18n/languages.ts';
import { withinSite } from '../../lib/base-path.ts';

export type DetailShape = { kind: 'post' | 'page'; id: number };

const PREFIXES = LANGUAGES.map((l) => l.prefix)
  .filter(Boolean)
  .join('|');
const SHAPE = new RegExp(`^(?:/(?:${PREFIXES}))?/(news|official-lectures|announcements-and-tenders|page)/(\\d{1,9})/?$`);

/** `/ru/news/123` (under the site's base path) → {kind: 'post', id: 123}; anything else → null. */
export function detailShape(pathname: string): DetailShape | null {
  const m = SHAPE.exec(withinSite(pathname) ?? '');
  if (!m) return null;
  return { kind: m[1] === 'page' ? 'page' : 'post', id: Number(m[2]) };
}
