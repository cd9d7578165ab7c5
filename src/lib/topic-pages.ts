/**
 * Topics that the site has a slug for but no content of its own (an honest "being prepared" page), which the
 * administration's menu answers with a content page instead: `/muxbirlarni_akkreditatsiya_qilish` and
 * `/page/2`, "Muxbirlarni akkreditatsiya qilish". Without this a citizen meets the topic twice, once empty.
 * Such a slug leads to the content page.
 *
 * The API does not say which content page answers which slug. A slug is the topic's name written in Uzbek
 * Latin without its letters oʻ and gʻ (`roʻyxati` → `ruyxati`), so the page is found by the words of its
 * Uzbek Latin menu title: a word matches when it is the same or shares most of its stem (`axborotni`,
 * `axborot`), a slug and a title score by the share of their words that match, and the best pairs are
 * taken first, one page per slug. A pair that shares fewer than two words, or less than 40 % of them, is
 * not a match: the slug keeps its own page.
 */
import type { NavGroup } from '../api/types.ts';
import type { LanguageContent } from '../content/snapshot.ts';
import { contentFor } from '../content/store.ts';
import { DEFAULT_LANGUAGE, LANGUAGES, localizePath } from '../i18n/languages.ts';
import { hasOwnContent, INFO_PAGES } from './info-pages.ts';

/** The slugs' spelling of a title's words: lower case, oʻ → u, gʻ → g, apostrophes dropped. */
export function slugWords(text: string): string[] {
  return text
    .toLowerCase()
    .replace(/o[ʻ‘’'`]/g, 'u')
    .replace(/g[ʻ‘’'`]/g, 'g')
    .replace(/[ʻʼ‘’'`]/g, '')
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
}

/** Two words name the same thing when they are equal or share a stem of five letters and most of the shorter. */
function sameWord(a: string, b: string): boolean {
  if (a === b) return true;
  let shared = 0;
  while (shared < a.length && shared < b.length && a[shared] === b[shared]) shared++;
  return shared >= Math.max(5, Math.floor(0.8 * Math.min(a.length, b.length)));
}

const MIN_SHARED_WORDS = 2;
const MIN_SCORE = 0.4;

function score(slug: readonly string[], title: readonly string[]): { shared: number; score: number } {
  const shared = slug.filter((word) => title.some((other) => sameWord(word, other))).length;
  return { shared, score: shared / (slug.length + title.length - shared) };
}

/**
 * For each slug (`/muxbirlarni_akkreditatsiya_qilish`), the id of the content page that the menu (in Uzbek
 * Latin, the language slugs are written in) offers for the same topic, if any.
 */
export function topicPages(slugs: readonly string[], uzbekLatinMenus: readonly NavGroup[]): Map<string, number> {
  const pages = new Map<number, string[]>();
  for (const item of uzbekLatinMenus.flatMap((group) => group.items)) {
    if (item.target.kind === 'page' && !pages.has(item.target.pageId)) pages.set(item.target.pageId, slugWords(item.title));
  }
  const pairs = slugs.flatMap((slug) => {
    const words = slugWords(slug);
    return [...pages].map(([pageId, title]) => ({ slug, pageId, ...score(words, title) }));
  });
  const candidates = pairs
    .filter((pair) => pair.shared >= MIN_SHARED_WORDS && pair.score >= MIN_SCORE)
    .sort((a, b) => b.score - a.score || a.pageId - b.pageId || a.slug.localeCompare(b.slug));
  const found = new Map<string, number>();
  const taken = new Set<number>();
  for (const { slug, pageId } of candidates) {
    if (found.has(slug) || taken.has(pageId)) continue;
    found.set(slug, pageId);
    taken.add(pageId);
  }
  return found;
}

let answered: Map<string, number> | undefined;

/** The content page that answers each information slug with no content of its own, from the snapshot, once a build. */
function answeredTopics(): ReadonlyMap<string, number> {
  answered ??= topicPages(
    INFO_PAGES.filter((page) => !hasOwnContent(page)).map((page) => page.path),
    contentFor(DEFAULT_LANGUAGE).menus,
  );
  return answered;
}

/** Where an information slug leads in a language instead of its own page, when the language has that content page. */
export function topicPageIn(content: LanguageContent, path: string): number | undefined {
  const pageId = answeredTopics().get(path);
  return pageId !== undefined && content.pages[pageId] ? pageId : undefined;
}

/** The localised paths of those slugs, which the sitemap leaves out (their pages only send the reader on). */
export const topicRedirectPaths = (): string[] =>
  LANGUAGES.flatMap((lang) => {
    const content = contentFor(lang);
    return [...answeredTopics().keys()].filter((path) => topicPageIn(content, path) !== undefined).map((path) => localizePath(lang, path));
  });
