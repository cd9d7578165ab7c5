/** src/i18n/languages.ts: URL prefixes and the stored language number, 1 to 4 (docs/rules.md, Languages). */
import { describe, expect, it } from 'vitest';
import { LANGUAGES, localizePath, splitLocalizedPath } from '../../src/i18n/languages.ts';

const [uzLatn, uzCyrl, ru, en] = LANGUAGES;

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
});
