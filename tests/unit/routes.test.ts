/** src/routes.ts: the menu's targets, its Uzbek slugs and their canonical routes (docs/rules.md, Menu items and Menu slugs). */
import { describe, expect, it } from 'vitest';
import { toNavTarget } from '../../src/api/wire.ts';
import { LANGUAGES } from '../../src/i18n/languages.ts';
import { canonicalRoute, navHref, navTargetIs, SLUG_ROUTES } from '../../src/routes.ts';

const [, , ru, en] = LANGUAGES;

describe('menu targets and slugs', () => {
  it('tells the three item kinds apart: a content page, an external link, a route', () => {
    expect(toNavTarget('7', true)).toEqual({ kind: 'page', pageId: 7 });
    expect(toNavTarget('https://my.gov.uz', false)).toEqual({ kind: 'external', url: 'https://my.gov.uz' });
    expect(toNavTarget('/yangiliklar', false)).toEqual({ kind: 'route', path: '/yangiliklar' });
    expect(toNavTarget('abc', true)).toBeNull();
    // Another host in the guise of a path is no menu item of this site.
    for (const hostile of ['//evil.example/news', '/\\evil.example', '/ok\\..\\x', '/news page']) expect(toNavTarget(hostile, false), hostile).toBeNull();
  });
  it('maps slugs to canonical routes in the page language', () => {
    expect(canonicalRoute('/yangiliklar')).toBe('/news');
    expect(canonicalRoute('/yangiliklar/')).toBe('/news');
    expect(navHref({ kind: 'route', path: '/fotogalareya' }, ru!)).toBe('/ru/gallery/photo');
    expect(navHref({ kind: 'page', pageId: 4 }, en!)).toBe('/en/page/4');
    expect(navHref({ kind: 'external', url: 'https://my.gov.uz' }, en!)).toBe('https://my.gov.uz');
    expect(canonicalRoute("/viloyat_hokimligidagi_ochiq_hay'at_majlislari")).toBe("/viloyat_hokimligidagi_ochiq_hay'at_majlislari");
  });
  it('has every slug of the menu data: ids 1 to 52 without 30', () => {
    expect(Object.keys(SLUG_ROUTES)).toHaveLength(51);
  });
  it('marks the current item, also on a detail or list page below it', () => {
    expect(navTargetIs({ kind: 'route', path: '/yangiliklar' }, '/news/12')).toBe(true);
    expect(navTargetIs({ kind: 'route', path: '/yangiliklar' }, '/news/page/2')).toBe(true);
    expect(navTargetIs({ kind: 'route', path: '/yangiliklar' }, '/newsletter')).toBe(false);
    expect(navTargetIs({ kind: 'page', pageId: 3 }, '/page/3')).toBe(true);
  });
});
