/** The last pass's filter of the files a page refers to (scripts/pipeline/finish/reference-filter.ts). */
import { describe, expect, it } from 'vitest';
import { referenceFilter, referenceProbe } from '../../scripts/pipeline/finish/reference-filter.ts';

// A detail page's references as the site writes them: the menus' pages, the assets, its pictures in every width.
const pagePaths = (n: number, from = 0) => Array.from({ length: n }, (_, i) => `/ru/page/${from + i}/index.html`);
const referred = [...pagePaths(120), '/_astro/site.B3x9.css', ...[320, 480, 640, 960, 1280].map((w) => `/_astro/pictures/post-5417-${w}.webp`)];

describe('the filter of what a page refers to', () => {
  it('never says a page does not refer to a file it refers to', () => {
    const filter = referenceFilter(referred);
    for (const path of referred) expect(referenceProbe([path])(filter), path).toBe(true);
    expect(referenceProbe(['/news/1/index.html', referred[7]!])(filter)).toBe(true);
  });

  it('says so of other files but for about one in a hundred', () => {
    const filter = referenceFilter(referred);
    const others = pagePaths(2000, 5000);
    const wrong = others.filter((path) => referenceProbe([path])(filter)).length;
    expect(wrong / others.length).toBeLessThan(0.02);
  });

  it('takes a filter it cannot read for one that may refer to anything', () => {
    expect(referenceProbe(['/a.html'])('')).toBe(true);
  });
});
