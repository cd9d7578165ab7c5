/** The links of a list numbered from the oldest post (src/lib/list-pagination.ts). */
import { describe, expect, it } from 'vitest';
import { listPagination } from '../../src/lib/list-pagination.ts';

describe('list pagination', () => {
  it('the first page: previous disabled, next to the newest numbered page, page 1 last', () => {
    expect(listPagination('newest', 40)).toEqual({ current: 'newest', previous: null, next: 40, links: ['newest', 40, 39, 'gap', 1] });
  });

  it('page 1: next disabled, previous to page 2', () => {
    expect(listPagination(1, 40)).toEqual({ current: 1, previous: 2, next: null, links: ['newest', 'gap', 3, 2, 1] });
  });

  it('a page deep in the archive names the same links however many pages come after it', () => {
    const deep = listPagination(12, 40);
    expect(deep).toEqual({ current: 12, previous: 13, next: 11, links: ['newest', 'gap', 14, 13, 12, 11, 10, 'gap', 1] });
    expect(listPagination(12, 900)).toEqual(deep);
  });

  it('near the newest posts, the first page takes the place of the pages that are not there', () => {
    expect(listPagination(40, 40)).toEqual({ current: 40, previous: 'newest', next: 39, links: ['newest', 40, 39, 38, 'gap', 1] });
    expect(listPagination(39, 40).links).toEqual(['newest', 40, 39, 38, 37, 'gap', 1]);
  });

  it('a list of one page has no numbered pages, and one of two has no gap', () => {
    expect(listPagination('newest', 0)).toEqual({ current: 'newest', previous: null, next: null, links: ['newest'] });
    expect(listPagination('newest', 1)).toEqual({ current: 'newest', previous: null, next: 1, links: ['newest', 1] });
  });
});
