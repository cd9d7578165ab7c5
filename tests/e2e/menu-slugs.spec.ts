/**
 * Menu slugs (docs/rules.md, Menu slugs): each leads to its canonical route.
 * Every expectation is read from the sample API through the `api` fixture, never hard-coded, and
 * every UI string from the dictionaries.
 */
import { localizePath } from '../../src/i18n/languages.ts';
import { t } from '../../src/i18n/t.ts';
import { expect, test } from './fixtures.ts';
import { UZ_LATN, RU, EN, infoTitle } from './routes-helpers.ts';

test.describe('menu slugs of the navigation menu data', () => {
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

  test('a path with an apostrophe answers 200 and reaches the page for its topic', async ({ page, api, consoleErrors }) => {
    // The menu answers this topic with a content page of its own, which the slug leads to (src/lib/topic-pages.ts).
    const path = "/viloyat_hokimligidagi_ochiq_hay'at_majlislari";
    for (const lang of [UZ_LATN, RU]) {
      const res = await page.goto(localizePath(lang, path));
      expect(res?.status()).toBe(200);
      await expect(page).toHaveURL(new RegExp(`${localizePath(lang, '/page/')}\\d+/?$`));
      const id = Number(new URL(page.url()).pathname.replace(/\/$/, '').split('/').at(-1));
      const item = (await api.menus(lang.number)).flatMap((g) => g.items).find((i) => i.target.kind === 'page' && i.target.pageId === id);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(item!.title);
    }
    expect(consoleErrors).toEqual([]);
  });
});
