/**
 * The stand-in for hCaptcha on a test copy of the site (src/features/appeal/AppealCaptcha.tsx, demo mode: the
 * bundled sample API and no hCaptcha key): what its checkbox says to a citizen, as the server renders it.
 */
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { AppealCaptcha, CAPTCHA_MESSAGES } from './AppealCaptcha.tsx';
import { LANGUAGES } from '../../i18n/languages.ts';
import { pickMessages } from '../../i18n/t.ts';

/** The text of the demo checkbox's label, as a visitor reads it. */
function demoLabel(lang: (typeof LANGUAGES)[number]): string {
  const html = renderToStaticMarkup(
    createElement(AppealCaptcha, {
      config: { mode: 'demo' },
      idPrefix: 'appeal',
      messages: pickMessages(lang, CAPTCHA_MESSAGES),
      missing: false,
      onToken: () => {},
    }),
  );
  const label = /<label class="appeal-form__demo-captcha">([\s\S]*?)<\/label>/.exec(html);
  expect(label, html).not.toBeNull();
  return label![1]!.replace(/<[^>]*>/g, '').trim();
}

describe('the demo robot check speaks plainly to citizens', () => {
  const EXPECTED = {
    'uz-latn': 'Men robot emasman (bu saytning sinov nusxasi, shuning uchun tekshiruv oʻchirilgan)',
    'uz-cyrl': 'Мен робот эмасман (бу сайтнинг синов нусхаси, шунинг учун текширув ўчирилган)',
    ru: 'Я не робот (это тестовая копия сайта, поэтому проверка отключена)',
    en: 'I am not a robot (this is a test copy of the site, so the check is switched off)',
  } as const;
  for (const lang of LANGUAGES) {
    it(`says it is a test copy of the site with the check switched off, with no technical words (${lang.label})`, () => {
      const text = demoLabel(lang);
      expect(text).toBe(EXPECTED[lang.code]);
      expect(text).not.toMatch(/\bAPI|captcha|капч|namunaviy|намунавий|sample|demo/i);
    });
  }
});
