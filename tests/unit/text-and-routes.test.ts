import { describe, expect, it } from 'vitest';
import { toNavTarget } from '../../src/api/wire.ts';
import { TRUNCATE } from '../../src/constants.ts';
import { LANGUAGES, languageFromStored, localizePath, splitLocalizedPath } from '../../src/i18n/languages.ts';
import { giveConsent, hasConsent, scrolledEnough } from '../../src/features/cookie-consent/cookie-consent.ts';
import { formatDate, isoDay, truncate } from '../../src/lib/text.ts';
import { canonicalRoute, navHref, navTargetIs, SLUG_ROUTES } from '../../src/routes.ts';

const [uzLatn, uzCyrl, ru, en] = LANGUAGES;

describe('truncate', () => {
  it('leaves text within the limit alone', () => {
    expect(truncate('Qisqa sarlavha', 50)).toBe('Qisqa sarlavha');
    expect(truncate('x'.repeat(50), 50)).toBe('x'.repeat(50));
  });
  it('cuts longer text to the limit and adds ...', () => {
    expect(truncate('x'.repeat(51), 50)).toBe(`${'x'.repeat(50)}...`);
    expect(truncate('a'.repeat(200), TRUNCATE.sideListTitle)).toHaveLength(123);
  });
  it('counts characters, not UTF-16 units, and trims the cut edge', () => {
    expect(truncate('Қоракўл тумани ҳокимлиги', 8)).toBe('Қоракўл...');
    expect(truncate('😀😀😀', 2)).toBe('😀😀...');
  });
});

describe('languages', () => {
  it('keeps the default language unprefixed and prefixes the others', () => {
    expect(localizePath(uzLatn!, '/news/5')).toBe('/news/5');
    expect(localizePath(uzCyrl!, '/news/5')).toBe('/uz-cyrl/news/5');
    expect(localizePath(ru!, '/')).toBe('/ru/');
    expect(localizePath(en!, 'page/3')).toBe('/en/page/3');
  });
  it('splits a localised path back', () => {
    expect(splitLocalizedPath('/ru/news/5')).toEqual({ lang: ru, path: '/news/5' });
    expect(splitLocalizedPath('/news/5')).toEqual({ lang: uzLatn, path: '/news/5' });
    expect(splitLocalizedPath('/en/')).toEqual({ lang: en, path: '/' });
  });
  it('reads the stored number, defaulting to 1 (§1)', () => {
    expect(languageFromStored('3')).toBe(ru);
    expect(languageFromStored(null)).toBe(uzLatn);
    expect(languageFromStored('9')).toBe(uzLatn);
  });
  it('gives <time datetime> the Tashkent day that the text shows', () => {
    expect(isoDay('2026-11-19T21:30:00Z')).toBe('2026-11-20');
    expect(formatDate('2026-11-19T21:30:00Z', en!)).toBe('November 20, 2026');
    expect(isoDay('soon')).toBeUndefined();
  });
  it('formats dates in each language and reads a missing date as null', () => {
    expect(formatDate('2026-11-20T09:30:00+05:00', en!)).toBe('November 20, 2026');
    expect(formatDate('2026-11-20T09:30:00+05:00', ru!)).toMatch(/^20 ноября 2026/);
    expect(formatDate(null, ru!)).toBeNull();
  });
});

describe('menu targets and slugs', () => {
  it('tells the three item kinds apart (§2)', () => {
    expect(toNavTarget('7', true)).toEqual({ kind: 'page', pageId: 7 });
    expect(toNavTarget('https://my.gov.uz', false)).toEqual({ kind: 'external', url: 'https://my.gov.uz' });
    expect(toNavTarget('/yangiliklar', false)).toEqual({ kind: 'route', path: '/yangiliklar' });
    expect(toNavTarget('abc', true)).toBeNull();
  });
  it('maps slugs to canonical routes in the page language', () => {
    expect(canonicalRoute('/yangiliklar')).toBe('/news');
    expect(canonicalRoute('/yangiliklar/')).toBe('/news');
    expect(navHref({ kind: 'route', path: '/fotogalareya' }, ru!)).toBe('/ru/gallery/photo');
    expect(navHref({ kind: 'page', pageId: 4 }, en!)).toBe('/en/page/4');
    expect(navHref({ kind: 'external', url: 'https://my.gov.uz' }, en!)).toBe('https://my.gov.uz');
    expect(canonicalRoute("/viloyat_hokimligidagi_ochiq_hay'at_majlislari")).toBe("/viloyat_hokimligidagi_ochiq_hay'at_majlislari");
  });
  it('has every slug of the menu data: ids 1 to 52 without 30 (§2)', () => {
    expect(Object.keys(SLUG_ROUTES)).toHaveLength(51);
  });
  it('marks the current item, also on a detail or list page below it', () => {
    expect(navTargetIs({ kind: 'route', path: '/yangiliklar' }, '/news/12')).toBe(true);
    expect(navTargetIs({ kind: 'route', path: '/yangiliklar' }, '/news/page/2')).toBe(true);
    expect(navTargetIs({ kind: 'route', path: '/yangiliklar' }, '/newsletter')).toBe(false);
    expect(navTargetIs({ kind: 'page', pageId: 3 }, '/page/3')).toBe(true);
  });
});

describe('cookie consent', () => {
  it('lasts 150 days', () => {
    const store = new Map<string, string>();
    const storage = { getItem: (k: string) => store.get(k) ?? null, setItem: (k: string, v: string) => void store.set(k, v) };
    const now = Date.UTC(2026, 0, 1);
    expect(hasConsent(storage, now)).toBe(false);
    giveConsent(storage, now);
    expect(hasConsent(storage, now + 149 * 86_400_000)).toBe(true);
    expect(hasConsent(storage, now + 151 * 86_400_000)).toBe(false);
  });  it('is given by scrolling a quarter of what the page can scroll, and never by a page that cannot scroll', () => {
    // 3000 px page in a 1000 px window: 2000 px to scroll, a quarter is 500 px.
    expect(scrolledEnough(499, 3000, 1000)).toBe(false);
    expect(scrolledEnough(500, 3000, 1000)).toBe(true);
    expect(scrolledEnough(0, 800, 1000)).toBe(false);
  });
});
