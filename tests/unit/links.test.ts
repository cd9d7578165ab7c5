/** src/lib/links.ts: the home page's service tiles open other sites in the reader's language where they have one. */
import { describe, expect, it } from 'vitest';
import { LANGUAGES } from '../../src/i18n/languages.ts';
import { externalUrl, SERVICES } from '../../src/lib/links.ts';

describe('service tiles', () => {
  it('“Trips to tourist sites” opens the tourism portal in the page’s language (Uzbek Cyrillic: its Uzbek version)', () => {
    const tourism = SERVICES.find((s) => s.labelKey === 'service.tourism')!.target;
    expect(tourism.kind).toBe('external');
    if (tourism.kind !== 'external') return;
    expect(Object.fromEntries(LANGUAGES.map((l) => [l.code, externalUrl(tourism.url, l.code)]))).toEqual({
      'uz-latn': 'https://uzbekistan.travel/uz/',
      'uz-cyrl': 'https://uzbekistan.travel/uz/',
      ru: 'https://uzbekistan.travel/ru/',
      en: 'https://uzbekistan.travel/en/',
    });
  });
  it('a single address is the same in every language', () => {
    expect(externalUrl('https://pm.gov.uz', 'ru')).toBe('https://pm.gov.uz');
  });
});
