/**
 * The cookie bar (docs/rules.md, Cookie consent): accepted by scrolling a quarter of the page, and asked
 * again once its 150 days have passed, in two languages.
 */
import { localizePath } from '../../src/i18n/languages.ts';
import { DICTIONARIES } from '../../src/i18n/t.ts';
import { STORAGE_KEYS } from '../../src/lib/storage.ts';
import { expect, test } from './fixtures.ts';
import { RU, UZ_LATN } from './routes-helpers.ts';

test.describe('cookie consent', () => {
  const KEY = STORAGE_KEYS.cookieConsent;
  const DAY = 86_400_000;

  for (const lang of [UZ_LATN, RU]) {
    test(`scrolling a quarter of the page accepts it, and it stays accepted on the next page (${lang.label})`, async ({ page }) => {
      const d = DICTIONARIES[lang.code];
      await page.goto(localizePath(lang, '/'));
      // The region is named for what it is about, not for its button.
      const bar = page.getByRole('region', { name: d['cookie.region'] });
      await expect(bar).toBeVisible();
      await expect(bar).toContainText(d['cookie.text']);
      await page.evaluate(() => scrollTo(0, (document.documentElement.scrollHeight - innerHeight) * 0.3));
      await expect(bar).toBeHidden();
      const until = Number(await page.evaluate((k) => localStorage.getItem(k), KEY));
      expect(Math.round((until - Date.now()) / DAY)).toBe(150);
      await page.goto(localizePath(lang, '/news'));
      await expect(page.getByRole('region', { name: d['cookie.region'] })).toBeHidden();
    });

    test(`a consent given 151 days ago has expired and the bar shows again; 149 days ago it has not (${lang.label})`, async ({ page }) => {
      const d = DICTIONARIES[lang.code];
      for (const [daysAgo, shown] of [
        [151, true],
        [149, false],
      ] as const) {
        await page.goto(localizePath(lang, '/news'));
        await page.evaluate(([k, until]) => localStorage.setItem(k, String(until)), [KEY, Date.now() - daysAgo * DAY + 150 * DAY] as const);
        await page.reload();
        // The region is named for what it is about, not for its button.
        const bar = page.getByRole('region', { name: d['cookie.region'] });
        if (shown) await expect(bar).toBeVisible();
        else await expect(bar).toBeHidden();
      }
    });
  }
});
