/** The site's pages of a post list, numbered from the oldest post (scripts/pipeline/pull/list-pages.ts). */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { layOutListPages } from '../../scripts/pipeline/pull/list-pages.ts';

const range = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => from + i);
/** A list as the API orders it: the highest id is the newest. */
const newestFirst = (ids: number[]) => [...ids].sort((a, b) => b - a);
/** How many pages differ between two layouts, page by page from the oldest. */
const changedPages = (a: number[][], b: number[][]) => Array.from({ length: Math.max(a.length, b.length) }, (_, i) => String(a[i]) !== String(b[i])).filter(Boolean).length;

describe('list pages numbered from the oldest post', () => {
  it('laid out afresh: whole pages of ten from the oldest, the newest five to fourteen on the first page', () => {
    const pages = layOutListPages(newestFirst(range(1, 106)), undefined, 10);
    expect(pages).toHaveLength(11);
    expect(pages[0]).toEqual(range(1, 11));
    expect(pages[9]).toEqual(range(91, 101));
    expect(pages.at(-1)).toEqual(range(101, 106));
    expect(layOutListPages(newestFirst(range(1, 115)), undefined, 10).at(-1)).toEqual(range(101, 115));
    expect(layOutListPages(newestFirst(range(1, 8)), undefined, 10)).toEqual([range(1, 8)]);
    expect(layOutListPages([], undefined, 10)).toEqual([[]]);
  });

  it('a new post changes the first page only, and every tenth one adds a numbered page', () => {
    const before = layOutListPages(newestFirst(range(1, 106)), undefined, 10);
    const one = layOutListPages(newestFirst(range(1, 107)), before, 10);
    expect(one.slice(0, -1)).toEqual(before.slice(0, -1));
    expect(one.at(-1)).toEqual(range(101, 107));
    const sealed = layOutListPages(newestFirst(range(1, 116)), one, 10);
    expect(sealed.slice(0, -2)).toEqual(before.slice(0, -1));
    expect(sealed.at(-2)).toEqual(range(101, 111));
    expect(sealed.at(-1)).toEqual(range(111, 116));
  });

  it('a deleted post leaves its page one shorter and every other page as it was', () => {
    const before = layOutListPages(newestFirst(range(1, 106)), undefined, 10);
    const after = layOutListPages(newestFirst(range(1, 106).filter((id) => id !== 34)), before, 10);
    expect(after[3]).toEqual(range(31, 41).filter((id) => id !== 34));
    expect(changedPages(before, after)).toBe(1);
  });

  it('a page emptied by deletions is laid out again with the pages newer than it; older pages keep their numbers', () => {
    const before = layOutListPages(newestFirst(range(1, 106)), undefined, 10);
    const after = layOutListPages(newestFirst(range(1, 106).filter((id) => id < 41 || id > 50)), before, 10);
    expect(after.slice(0, 4)).toEqual(before.slice(0, 4));
    expect(after[4]).toEqual(range(51, 61));
    expect(after.flat()).toEqual(range(1, 106).filter((id) => id < 41 || id > 50));
  });

  it('deletions among the newest posts take the newest numbered page back onto the first page', () => {
    const before = layOutListPages(newestFirst(range(1, 97)), undefined, 10);
    expect(before.at(-1)).toEqual(range(91, 97));
    const after = layOutListPages(newestFirst(range(1, 93)), before, 10);
    expect(after.slice(0, -1)).toEqual(before.slice(0, 8));
    expect(after.at(-1)).toEqual(range(81, 93));
  });

  it('a post dated back into the archive joins the page of the post just older than it', () => {
    const before = layOutListPages(newestFirst(range(1, 106).map((id) => id * 2)), undefined, 10);
    const after = layOutListPages(newestFirst([...range(1, 106).map((id) => id * 2), 45]), before, 10);
    expect(after[2]).toEqual([...range(21, 23).map((id) => id * 2), 45, ...range(23, 31).map((id) => id * 2)]);
    expect(changedPages(before, after)).toBe(1);
  });

  it('a post dated anew leaves its page for the first page', () => {
    const before = layOutListPages(newestFirst(range(1, 106)), undefined, 10);
    // Post 12 is now the newest: the API lists it first.
    const now = [12, ...newestFirst(range(1, 106).filter((id) => id !== 12))];
    const after = layOutListPages(now, before, 10);
    expect(after[1]).toEqual(range(11, 21).filter((id) => id !== 12));
    expect(after.at(-1)).toEqual([...range(101, 106), 12]);
    expect(changedPages(before, after)).toBe(2);
  });

  it('whatever the edits, every post is on exactly one page, in the list order, and no page but the first is empty or oversized', () => {
    const edit = fc.record({
      size: fc.integer({ min: 1, max: 6 }),
      start: fc.uniqueArray(fc.integer({ min: 1, max: 200 }), { maxLength: 80 }),
      steps: fc.array(
        fc.record({
          add: fc.uniqueArray(fc.integer({ min: 201, max: 400 }), { maxLength: 5 }),
          remove: fc.array(fc.nat(), { maxLength: 5 }),
          shuffle: fc.boolean(),
        }),
        { maxLength: 6 },
      ),
    });
    fc.assert(
      fc.property(edit, ({ size, start, steps }) => {
        let list = newestFirst(start);
        let pages = layOutListPages(list, undefined, size);
        for (const step of steps) {
          const removed = new Set(step.remove.map((i) => list[i % Math.max(1, list.length)]));
          list = [...step.add.filter((id) => !list.includes(id)), ...list.filter((id) => !removed.has(id))];
          if (step.shuffle) list = [...list.slice(1), ...list.slice(0, 1)];
          pages = layOutListPages(list, pages, size);
          expect(pages.flat()).toEqual([...list].reverse());
          for (const page of pages.slice(0, -1)) expect(page.length).toBeGreaterThan(0);
          for (const page of pages.slice(0, -1)) expect(page.length).toBeLessThan(2 * size);
          const fewest = Math.ceil(size / 2);
          if (list.length >= fewest) expect(pages.at(-1)!.length).toBeGreaterThanOrEqual(fewest);
          expect(pages.at(-1)!.length).toBeLessThan(fewest + size);
        }
      }),
    );
  });
});
