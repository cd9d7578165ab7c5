/** Old `?pageNumber=N` links, numbered from the newest post, reach the site's page that holds those posts. */
import { describe, expect, it } from 'vitest';
import { layOutListPages } from '../../../scripts/pipeline/pull/list-pages.ts';
import { encodeApiPages, listPageOf, pageOfApiPage } from './old-page-numbers.ts';

const range = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => from + i);
/** The API's pages of ten, newest first, and the site's layout of the same list. */
function lists(newestFirst: number[], previous?: number[][]) {
  const api = Array.from({ length: Math.ceil(newestFirst.length / 10) }, (_, i) => newestFirst.slice(i * 10, i * 10 + 10));
  const pages = layOutListPages(newestFirst, previous, 10);
  const numbered = pages.length - 1;
  return { api, pages, numbered, pageOf: listPageOf(pages), runs: encodeApiPages(api, pages) };
}

describe('old page numbers', () => {
  it('every API page leads to the site page that holds its first post, in a table of a few runs', () => {
    const list = range(1, 416).reverse();
    const { api, numbered, pageOf, runs } = lists(list);
    expect(runs.split(',').length).toBeLessThanOrEqual(3);
    for (const [i, ids] of api.entries()) expect(pageOfApiPage(runs, numbered, i + 1)).toBe(pageOf.get(ids[0]!));
    expect(pageOfApiPage(runs, numbered, 1)).toBe('newest');
    expect(pageOfApiPage(runs, numbered, 999)).toBe(1);
  });

  it('still does after deletions left pages short', () => {
    const before = lists(range(1, 416).reverse());
    const after = lists(
      range(1, 416)
        .reverse()
        .filter((id) => ![33, 150, 151, 290].includes(id)),
      before.pages,
    );
    for (const [i, ids] of after.api.entries()) expect(pageOfApiPage(after.runs, after.numbered, i + 1)).toBe(after.pageOf.get(ids[0]!));
  });

  it('refuses what is not a page number or not a table', () => {
    expect(pageOfApiPage('1:5', 4, 0)).toBeNull();
    expect(pageOfApiPage('1:5', 4, Number.NaN)).toBeNull();
    expect(pageOfApiPage('<x>', 4, 2)).toBeNull();
  });
});
