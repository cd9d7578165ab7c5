/** A pull told what changed reads a list only as far as the change reaches (scripts/pipeline/pull/list-reading.ts). */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { restOfList } from '../../scripts/pipeline/pull/list-reading.ts';

const pages = (flat: number[], size: number) => Array.from({ length: Math.max(1, Math.ceil(flat.length / size)) }, (_, i) => flat.slice(i * size, (i + 1) * size));
const range = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => from + i);

/** Reads as the pull does: page after page until restOfList knows the rest; returns the list and the pages read. */
function read(now: number[], before: number[], size: number, changed: Set<number>, moved = new Set<number>()) {
  const api = pages(now, size);
  const previous = pages(before, size);
  const named = { gone: new Set([...changed].filter((id) => !now.includes(id))), moved };
  const fetched = [api[0]!];
  for (;;) {
    const whole = restOfList(fetched, previous, api.length, named);
    // As the pull does: a named post that no list shows may stand anywhere, and every list is read in full.
    if (whole && [...changed].some((id) => now.includes(id) && !whole.flat().includes(id))) return { whole: api, read: api.length };
    if (whole) return { whole, read: fetched.length };
    fetched.push(api[fetched.length]!);
  }
}

describe('reading a list told what changed', () => {
  const before = range(1, 101).reverse(); // 100 posts, newest (100) first, 10 a page

  it('a new post costs two pages, an edit one, and the rest comes from the previous pull', () => {
    const added = [101, ...before];
    expect(read(added, before, 10, new Set([101]))).toEqual({ whole: pages(added, 10), read: 2 });
    expect(read(before, before, 10, new Set([50]))).toEqual({ whole: pages(before, 10), read: 1 });
  });

  it('a deleted post costs one page wherever it stood: the pages after it are the previous ones shifted', () => {
    const deleted = before.filter((id) => id !== 45); // on page 6
    expect(read(deleted, before, 10, new Set([45]))).toEqual({ whole: pages(deleted, 10), read: 1 });
    const newest = before.filter((id) => id !== 100);
    expect(read(newest, before, 10, new Set([100]))).toEqual({ whole: pages(newest, 10), read: 1 });
  });

  it('a list whose pages the pull shortened is read in full', () => {
    const previous = pages(before, 10);
    previous[3] = previous[3]!.slice(1);
    const fetched = [pages(before, 10)[0]!];
    expect(restOfList(fetched, previous, 10, { gone: new Set(), moved: new Set() })).toBeNull();
  });

  it('a post dated anew is found wherever it moved, up or down', () => {
    const up = [55, ...before.filter((id) => id !== 55)];
    expect(read(up, before, 10, new Set([55]), new Set([55])).whole).toEqual(pages(up, 10));
    const down = before.filter((id) => id !== 95);
    down.splice(70, 0, 95);
    expect(read(down, before, 10, new Set([95]), new Set([95])).whole).toEqual(pages(down, 10));
  });

  it('whatever posts were added, deleted, edited or dated anew, what it reads is what a full read gives', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 6 }),
        fc.array(fc.integer({ min: 0, max: 99 }), { maxLength: 3 }),
        fc.array(fc.integer({ min: 0, max: 99 }), { maxLength: 3 }),
        fc.array(fc.tuple(fc.integer({ min: 0, max: 99 }), fc.integer({ min: 0, max: 99 })), { maxLength: 2 }),
        fc.integer({ min: 2, max: 12 }),
        (added, removedAt, editedAt, moves, size) => {
          const removed = new Set(removedAt.map((i) => before[i]!));
          let now = [...range(200, 200 + added).reverse(), ...before.filter((id) => !removed.has(id))];
          const moved: number[] = [];
          for (const [from, to] of moves) {
            const id = now[from % now.length]!;
            now = now.filter((x) => x !== id);
            now.splice(to % (now.length + 1), 0, id);
            moved.push(id);
          }
          const named = new Set([...range(200, 200 + added), ...removed, ...editedAt.map((i) => before[i]!), ...moved]);
          expect(read(now, before, size, named, new Set(moved)).whole).toEqual(pages(now, size));
        },
      ),
      { numRuns: 500 },
    );
  });
});
