/**
 * The links of a paginated list (docs/rules.md, Post lists), whose pages are numbered from the oldest post
 * (scripts/pipeline/pull/list-pages.ts): the list's first page shows the newest posts, then pages N, N − 1 …
 * down to page 1, the oldest. Previous leads to newer posts and is disabled on the first page; next leads to
 * older ones and is disabled on page 1.
 *
 * A page's links name only pages near it, the first page and page 1, so a numbered page far from the newest
 * posts keeps its links, and its bytes, while new posts arrive.
 */

/** A page of a list: its number, or the list's first page (the newest posts, at the list's own address). */
export type ListPage = number | 'newest';

export interface ListPagination {
  current: ListPage;
  /** Newer posts; null on the first page. */
  previous: ListPage | null;
  /** Older posts; null on page 1. */
  next: ListPage | null;
  /** The numbered links, newest first: the first page, a window around the current one, page 1; 'gap' between. */
  links: (ListPage | 'gap')[];
}

/** The links of page `current` of a list with `numbered` numbered pages. */
export function listPagination(current: ListPage, numbered: number): ListPagination {
  // Newest first: the first page at 0, page n at numbered − n + 1.
  const at = (page: ListPage) => (page === 'newest' ? 0 : numbered - page + 1);
  const pageAt = (i: number): ListPage => (i === 0 ? 'newest' : numbered - i + 1);
  const here = at(current);
  const shown = [...new Set([0, here - 2, here - 1, here, here + 1, here + 2, numbered])].filter((i) => i >= 0 && i <= numbered).sort((a, b) => a - b);
  return {
    current,
    previous: here > 0 ? pageAt(here - 1) : null,
    next: here < numbered ? pageAt(here + 1) : null,
    links: shown.flatMap((i, k) => (k > 0 && i - shown[k - 1]! > 1 ? ['gap' as const, pageAt(i)] : [pageAt(i)])),
  };
}
