/** A list page past the end leads to the nearest real one, in every language. */
import { describe, expect, it } from 'vitest';
import { nearestListPage } from './nearest-list-page.ts';

/** Numbered pages of each list: `/news/page/1` … `/news/page/12`, the newest posts at `/news`. */
const counts = { news: 12, 'official-lectures': 0 };

describe('the nearest list page', () => {
  it('leads past the newest numbered page to the list itself, and page 0 to page 1, keeping the language', () => {
    expect(nearestListPage('/news/page/999', counts)).toBe('/news');
    expect(nearestListPage('/ru/news/page/13/', counts)).toBe('/ru/news');
    expect(nearestListPage('/en/news/page/0', counts)).toBe('/en/news/page/1');
    expect(nearestListPage('/uz-cyrl/official-lectures/page/1', counts)).toBe('/uz-cyrl/official-lectures');
  });

  it('leaves every other address to the not-found screen', () => {
    expect(nearestListPage('/news/page/5', counts)).toBeNull();
    expect(nearestListPage('/news/page/1', counts)).toBeNull();
    expect(nearestListPage('/news/page/12', counts)).toBeNull();
    expect(nearestListPage('/news/5', counts)).toBeNull();
    expect(nearestListPage('/gallery/page/2', counts)).toBeNull();
    expect(nearestListPage('/news/page/abc', counts)).toBeNull();
  });
});
