import { describe, expect, it } from 'vitest';
import { EMPLOYEE_CATEGORIES } from '../../src/api/types.ts';
import { INFO_PAGES, infoPagePath } from '../../src/lib/info-pages.ts';

describe('infoPagePath', () => {
  it('gives the pages the footer and the byte budgets link to', () => {
    // The paths these links had when they were found by kind and by title key: moving to the lookup changed none.
    expect(infoPagePath('directory', EMPLOYEE_CATEGORIES.leadership)).toBe(INFO_PAGES.find((p) => p.titleKey === 'leadership.title')!.path);
    expect(infoPagePath('directory', EMPLOYEE_CATEGORIES.leadership)).toBe('/the-leadership-of-the-regional-administration');
    expect(infoPagePath('faq')).toBe('/answers-to-frequently-asked-questions');
    expect(infoPagePath('trust-phone')).toBe('/ishonch_va_yagona_telefon_raqamlari');
    expect(infoPagePath('address')).toBe('/address');
    expect(infoPagePath('ecology')).toBe('/ekologiya');
  });

  it('finds every page whose kind no other page has, and every directory by its category', () => {
    const count = (kind: string) => INFO_PAGES.filter((p) => p.kind === kind).length;
    const single = INFO_PAGES.filter((p) => p.kind !== 'directory' && count(p.kind) === 1);
    expect(single.length).toBeGreaterThan(10);
    // The kind is known here only as the page's, wider than the lookup's type: hence the cast.
    for (const page of single) expect(infoPagePath(page.kind as never), page.kind).toBe(page.path);
    for (const category of Object.values(EMPLOYEE_CATEGORIES)) {
      const directory = INFO_PAGES.filter((p) => p.kind === 'directory' && p.category === category);
      expect(directory, `category ${category}`).toHaveLength(1);
      expect(infoPagePath('directory', category)).toBe(directory[0]!.path);
    }
  });

  it('refuses a kind that is not one page', () => {
    expect(() => infoPagePath('tourism' as never)).toThrow('2 information pages of kind tourism, not one');
    expect(() => infoPagePath('directory' as never)).toThrow('0 information pages of kind directory, not one');
  });
});
