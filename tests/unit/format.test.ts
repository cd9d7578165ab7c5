import { describe, expect, it } from 'vitest';
import { format } from '../../src/i18n/format.ts';
import { t } from '../../src/i18n/t.ts';
import { LANGUAGES } from '../../src/i18n/languages.ts';

describe('format', () => {
  it('fills every placeholder, numbers and text alike', () => {
    expect(format('Slide {n} of {total}', { n: 2, total: 5 })).toBe('Slide 2 of 5');
    expect(format('{n} likes', { n: '1 234' })).toBe('1 234 likes');
  });

  it('leaves a placeholder without a value as written', () => {
    expect(format('Photo {n}', {})).toBe('Photo {n}');
  });

  it('is what t() does with values, in every language', () => {
    for (const lang of LANGUAGES) {
      expect(t(lang, 'carousel.slide', { n: 3, total: 7 })).toBe(format(t(lang, 'carousel.slide'), { n: 3, total: 7 }));
      expect(t(lang, 'carousel.slide', { n: 3, total: 7 })).not.toMatch(/\{\w+\}/);
    }
  });
});
