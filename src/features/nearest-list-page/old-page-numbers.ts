/**
 * Old links `/news?pageNumber=N` (docs/rules.md, Post lists) number the API's pages from the newest post;
 * the site numbers its pages from the oldest (scripts/pipeline/pull/list-pages.ts). The list's first page
 * carries where each API page begins among the site's pages, and this sends such a link to the page that
 * holds the posts it showed. Without script the link shows the list's first page, the newest posts.
 *
 * The table is a few runs: within a run, each API page begins one site page older than the one before.
 */
import type { ListPage } from '../../lib/list-pagination.ts';

/** The site's page that holds each post of a list laid out oldest page first: its number, or 'newest' for the last. */
export function listPageOf(layout: readonly (readonly number[])[]): Map<number, ListPage> {
  const numbered = layout.length - 1;
  return new Map(layout.flatMap((ids, i) => ids.map((id) => [id, i === numbered ? 'newest' : i + 1] as [number, ListPage])));
}

/**
 * `N:page` runs (`1:41,3:39`): API page N begins on site page `page`, N + 1 on `page − 1` and so on; the first
 * page is `numbered + 1`. From the API's pages and the site's layout of the same list (listPageOf).
 */
export function encodeApiPages(apiPages: readonly (readonly number[])[], layout: readonly (readonly number[])[]): string {
  const pageOf = listPageOf(layout);
  const numbered = layout.length - 1;
  const runs: string[] = [];
  let expected: number | undefined;
  let previous = numbered + 1;
  apiPages.forEach((ids, i) => {
    const where = ids.length ? pageOf.get(ids[0]!) : undefined;
    const page = where === undefined ? previous : where === 'newest' ? numbered + 1 : where;
    if (page !== expected) runs.push(`${i + 1}:${page}`);
    previous = page;
    expected = page - 1;
  });
  return runs.join(',');
}

/** The site's page that holds API page `n`, from the table; null when the table is unreadable or `n` is not a page number. */
export function pageOfApiPage(runs: string, numbered: number, n: number): ListPage | null {
  if (!Number.isInteger(n) || n < 1) return null;
  let found: number | null = null;
  for (const run of runs.split(',')) {
    const m = /^(\d+):(\d+)$/.exec(run);
    if (!m) return null;
    const [start, page] = [Number(m[1]), Number(m[2])];
    if (start > n) break;
    found = page - (n - start);
  }
  if (found === null) return null;
  // Past the API's last page the runs go below 1: the oldest page.
  return found > numbered ? 'newest' : Math.max(1, found);
}

const table = typeof document === 'undefined' ? null : document.querySelector<HTMLElement>('page-number-redirect');
const asked = typeof location === 'undefined' ? null : new URLSearchParams(location.search).get('pageNumber');
if (table && asked) {
  const page = pageOfApiPage(table.dataset.apiPages ?? '', Number(table.dataset.numbered), Math.floor(Number(asked)));
  if (typeof page === 'number') location.replace(`${table.dataset.base}${page}${location.hash}`);
}
