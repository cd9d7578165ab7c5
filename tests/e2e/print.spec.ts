/**
 * What a page looks like on paper (src/styles/print.css): browsers print without backgrounds, so nothing may
 * be light text meant for a coloured band; the site's name, the page and the footer's contacts print, black on
 * white; the controls, menus and side lists, which do nothing on paper, do not.
 */
import { localizePath } from '../../src/i18n/languages.ts';
import { DICTIONARIES } from '../../src/i18n/t.ts';
import { expect, test } from './fixtures.ts';
import { RU, UZ_LATN } from './routes-helpers.ts';

/** The text colour of an element, and whether it is dark enough to read on white paper (contrast 4.5:1 or more). */
const inkOf = (locator: import('@playwright/test').Locator) =>
  locator.evaluate((el) => {
    const [r, g, b] = (getComputedStyle(el).color.match(/[\d.]+/g) ?? [])
      .slice(0, 3)
      .map(Number)
      .map((v) => {
        const c = v / 255;
        return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
      });
    const luminance = 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
    return 1.05 / (luminance + 0.05);
  });

for (const lang of [UZ_LATN, RU]) {
  test(`a page prints black on white with the site's name and contacts, and none of the controls (${lang.label})`, async ({ page }) => {
    const d = DICTIONARIES[lang.code];
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(localizePath(lang, '/address'));
    await page.emulateMedia({ media: 'print' });
    for (const what of ['.brand__name', '.inner__title', '.site-footer__contacts dd', '.site-footer__rights']) {
      const part = page.locator(what).first();
      await expect(part, what).toBeVisible();
      expect(await inkOf(part), what).toBeGreaterThanOrEqual(4.5);
    }
    await expect(page.locator('.site-footer__contacts')).toContainText(d['footer.helpline']);
    for (const what of ['.nav-bar', '.site-header__tools', '.inner__aside', '.site-footer__social']) {
      await expect(page.locator(what).first(), what).toBeHidden();
    }
    expect(await page.getByRole('button').evaluateAll((buttons) => buttons.filter((b) => (b as HTMLElement).offsetParent !== null).length)).toBe(0);
    // On screen nothing of this applies.
    await page.emulateMedia({ media: 'screen' });
    await expect(page.locator('.nav-bar')).toBeVisible();
  });
}
