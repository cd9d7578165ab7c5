/**
 * What the route specs share: expectations read from the sample API and the dictionaries, never hard-coded
 * (truncation, dates and numbers as each language writes them, the visible text of API HTML).
 */
import type { Locator, Page } from '@playwright/test';
import type { ApiClient } from '../../src/api/client.ts';
import type { PostSummary, PostTypeId } from '../../src/api/types.ts';
import { ELLIPSIS, LIST_PAGE_SIZE } from '../../src/constants.ts';
import { LANGUAGES, type Language } from '../../src/i18n/languages.ts';
import { t, type MessageKey } from '../../src/i18n/t.ts';
import { formatDate } from '../../src/lib/text.ts';
import { navTargetIs } from '../../src/routes.ts';
import { expect } from './fixtures.ts';

export const [UZ_LATN, UZ_CYRL, RU, EN] = LANGUAGES;

/** The site this run built and serves (tests/e2e/global-setup.ts), to read its files as written. */
export const DIST = `${process.env.E2E_DIR ?? '.cache/e2e'}/dist`;

/** A text longer than `max` characters is cut to `max` and followed by '...' (docs/rules.md, Text truncation). */
export function cut(text: string, max: number): string {
  const chars = Array.from(text.trim());
  return chars.length <= max ? chars.join('') : `${chars.slice(0, max).join('').trimEnd()}${ELLIPSIS}`;
}

/**
 * Titles that are their links' names (docs/rules.md, Text truncation; TITLE_LINES): each link is named by its whole title, the page
 * holds the whole title, and the screen shows at most `lines` lines of it (cut with '…' by CSS).
 * Returns how many of them the screen cuts.
 */
export async function expectWholeTitles(links: Locator, titles: string[], lines: number): Promise<number> {
  await expect(links).toHaveText(titles);
  for (const [i, title] of titles.entries()) await expect(links.nth(i)).toHaveAccessibleName(title);
  const shown = await links.evaluateAll((els) =>
    els.map((a) => {
      // The link itself, or the heading around it, carries the clamp (src/styles/_clamp.scss).
      const box = a.closest<HTMLElement>('[style*="--lines"]')!;
      return { lines: Math.round(box.clientHeight / parseFloat(getComputedStyle(box).lineHeight)), cut: box.scrollHeight > box.clientHeight + 1 };
    }),
  );
  for (const [i, s] of shown.entries()) expect(s.lines, titles[i]).toBeLessThanOrEqual(lines);
  return shown.filter((s) => s.cut).length;
}

/** The date as the page's language writes it, on the district's calendar ("2026-yil 20-noyabr", "2026-йил 20-ноябрь"). */
export function dateIn(lang: Language, iso: string): string {
  return formatDate(iso, lang)!;
}

export function numberIn(lang: Language, n: number): string {
  return new Intl.NumberFormat(lang.tag).format(n);
}

/** Every post of a category, over all of the API's pages. */
export async function allPosts(api: ApiClient, type: PostTypeId, lang: Language): Promise<PostSummary[]> {
  const first = await api.postList(type, lang.number, 1);
  const rest = await Promise.all(Array.from({ length: first.pageCount - 1 }, (_, i) => api.postList(type, lang.number, i + 2)));
  return [first, ...rest].flatMap((p) => p.items);
}

/**
 * Where a list laid out afresh, as the tests' build lays it out, shows the post at `index` (newest first) of
 * `total` (docs/rules.md, Post lists): numbered pages of ten from the oldest post, (n − 5) ÷ 10 of them
 * (rounded down), and the newest rest, five to fourteen, on the list's first page. The path after the list's own.
 */
export function freshListPage(index: number, total: number): { numbered: number; onFirst: number; path: string } {
  const numbered = Math.max(0, Math.floor((total - Math.ceil(LIST_PAGE_SIZE / 2)) / LIST_PAGE_SIZE));
  const onFirst = total - numbered * LIST_PAGE_SIZE;
  return { numbered, onFirst, path: index < onFirst ? '' : `/page/${numbered - Math.floor((index - onFirst) / LIST_PAGE_SIZE)}` };
}

/** Visible text of an HTML fragment. */
export function textOf(html: string): string {
  return html
    .replace(/<\/(p|li|h\d|div|tr)>|<br\s*\/?>/gi, ' ')
    .replace(/<[^>]*>/g, '')
    .replace(/&nbsp;/g, ' ')
    .replace(/&quot;/g, '"')
    .replace(/&#0*39;|&apos;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .trim();
}

/** A page's h1 comes from the menu item that leads to it, or from the dictionary when none does. */
export async function infoTitle(api: ApiClient, lang: Language, path: string, titleKey: MessageKey): Promise<string> {
  const items = (await api.menus(lang.number)).flatMap((g) => g.items);
  return items.find((i) => i.target.kind === 'route' && navTargetIs(i.target, path))?.title ?? t(lang, titleKey);
}

/** The date and view count of a meta line: both shown, neither a loading placeholder. */
export async function expectMeta(scope: ReturnType<Page['locator']>, lang: Language, post: { date: string | null; views: number | null }) {
  const meta = scope.locator('.meta').first();
  await expect(meta.locator('time')).toHaveText(dateIn(lang, post.date!));
  if (post.views !== null) await expect(meta).toContainText(numberIn(lang, post.views));
  await expect(meta.locator('.skeleton')).toHaveCount(0);
}

export const content = (page: Page) => page.locator('.inner__content');

/** href, target and rel of every link a locator matches, read in one round trip. */
export function linkAttributes(links: ReturnType<Page['locator']>) {
  return links.evaluateAll((els) => els.map((a) => ({ href: a.getAttribute('href'), target: a.getAttribute('target'), rel: a.getAttribute('rel') })));
}
export const NEW_TAB = { target: '_blank', rel: expect.stringMatching(/\bnoopener\b/) };

/**
 * Chooses a language as a visitor does: on a wide screen from the four in the header; on a phone by the menu bar's
 * button naming the page's language, which opens them.
 */
export async function chooseLanguage(page: Page, d: { 'header.language': string }, label: string) {
  const opener = page.getByRole('button', { name: new RegExp(`^${d['header.language']}:`) });
  if (await opener.isVisible()) {
    await opener.click();
    await expect(page.getByRole('navigation', { name: d['header.language'] })).toBeInViewport();
  }
  await page.getByRole('navigation', { name: d['header.language'] }).getByRole('link', { name: label }).click();
}
