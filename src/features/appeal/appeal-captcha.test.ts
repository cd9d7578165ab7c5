/**
 * The stand-in for hCaptcha on a test copy of the site (AppealForm.astro, demo mode: the bundled sample API and
 * no hCaptcha key): what its checkbox says to a citizen.
 */
import { describe, expect, it } from 'vitest';
import { LANGUAGES } from '../../i18n/languages.ts';
import { t } from '../../i18n/t.ts';

describe('the demo robot check speaks plainly to citizens', () => {
  const EXPECTED = {
    'uz-latn': 'Men robot emasman (bu saytning sinov nusxasi, shuning uchun tekshiruv oʻchirilgan)',
    'uz-cyrl': 'Мен робот эмасман (бу сайтнинг синов нусхаси, шунинг учун текширув ўчирилган)',
    ru: 'Я не робот (это тестовая копия сайта, поэтому проверка отключена)',
    en: 'I am not a robot (this is a test copy of the site, so the check is switched off)',
  } as const;
  for (const lang of LANGUAGES) {
    it(`says it is a test copy of the site with the check switched off, with no technical words (${lang.label})`, () => {
      const text = t(lang, 'appeal.demoCaptcha');
      expect(text).toBe(EXPECTED[lang.code]);
      expect(text).not.toMatch(/\bAPI|captcha|капч|namunaviy|намунавий|sample|demo/i);
    });
  }
});
