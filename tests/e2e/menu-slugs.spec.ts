/**
 * Menu slugs (§2 "Navigation menu data"): each leads to its canonical route.
 * Every expectation is read from the sample API through the `api` fixture, never hard-coded, and
 * every UI string from the dictionaries.
 */
import { localizePath } from '../../src/i18n/languages.ts';
import { t } from '../../src/i18n/t.ts';
import { expect, test } from './fixtures.ts';
import { UZ_LATN, RU, EN, infoTitle } from './routes-helpers.ts';

test.describe('menu slugs (§2 "Navigation menu data")', () => {
  test('a slug leads to its canonical route', async ({ page, api }) => {
    const REDIRECTS = [
      { lang: UZ_LATN, from: '/yangiliklar', to: '/news', title: t(UZ_LATN, 'news.title') },
      { lang: RU, from: '/fotogalareya', to: '/gallery/photo', title: t(RU, 'photos.title') },
      { lang: EN, from: '/manzil', to: '/address', title: await infoTitle(api, EN, '/address', 'info.address') },
    ];
    for (const r of REDIRECTS) {
      const to = localizePath(r.lang, r.to);
      await page.goto(localizePath(r.lang, r.from));
      await expect(page).toHaveURL(new RegExp(`${to}$`));
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(r.title);
    }
  });

  test('a path with an apostrophe answers 200 with its title', async ({ page, api, consoleErrors }) => {
    const path = "/viloyat_hokimligidagi_ochiq_hay'at_majlislari";
    for (const lang of [UZ_LATN, RU]) {
      const res = await page.goto(localizePath(lang, path));
      expect(res?.status()).toBe(200);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(await infoTitle(api, lang, path, 'info.openSessions'));
    }
    expect(consoleErrors).toEqual([]);
  });
});
