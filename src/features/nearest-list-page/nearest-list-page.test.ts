/** A list page past the end leads to the nearest real one, in every language. */
import { describe, expect, it } from 'vitest';
import { nearestListPage } from './nearest-list-page.ts';

const counts = { news: 12, 'official-lectures': 1 };

describe('the nearest list page', () => {
  it('leads past the end to the last page, and page 1 or 0 to the list itself, keeping the language', () => {
    expect(nearestListPage('/news/page/999', counts)).toBe('/news/page/12');
    expect(nearestListPage('/ru/news/page/13/', counts)).toBe('/ru/news/page/12');
    expect(nearestListPage('/news/page/1', counts)).toBe('/news');
    expect(nearestListPage('/en/news/page/0', counts)).toBe('/en/news');
    expect(nearestListPage('/uz-cyrl/official-lectures/page/4', counts)).toBe('/uz-cyrl/official-lectures');
  });

  it('leaves every other address to the not-found screen', () => {
    expect(nearestListPage('/news/page/5', counts)).toBeNull();
    expect(nearestListPage('/news/5', counts)).toBeNull();
    expect(nearestListPage('/gallery/page/2', counts)).toBeNull();
    expect(nearestListPage('/news/page/abc', counts)).toBeNull();
  });
});
