/**
 * Search when the administration's API cannot answer: the site's own index answers, in every language, and
 * the page says that the newest items may be missing from it.
 */
import type { Page } from '@playwright/test';
import { SEARCH_FALLBACK_MS } from '../../src/constants.ts';
import { LANGUAGES, localizePath, type Language } from '../../src/i18n/languages.ts';
import { DICTIONARIES } from '../../src/i18n/t.ts';
import { isoDay } from '../../src/lib/text.ts';
import { expect, test } from './fixtures.ts';

const [UZ, UZ_CYRL, RU, EN] = LANGUAGES;
const API = new RegExp(`^${process.env.E2E_API_URL}/`);
const results = (page: Page) => page.locator('[data-search-results]');
const searchFor = (page: Page, lang: Language, query: string) => page.goto(`${localizePath(lang, '/search')}?q=${encodeURIComponent(query)}`);

test.describe('search without the API', () => {
  for (const lang of LANGUAGES) {
    test(`with the API down, the site's own index finds a news post, with its type and day (${lang.label})`, async ({ page, api }) => {
      const d = DICTIONARIES[lang.code];
      const news = (await api.postList(1, lang.number, 1)).items[2]!;
      // Two words of its title: the index lists its best ten, and one common word may find more.
      const word = news.title
        .split(/\s+/)
        .filter((w) => /^\p{L}{5,}/u.test(w))
        .slice(0, 2)
        .map((w) => w.replace(/[^\p{L}\p{N}]+$/u, ''))
        .join(' ');
      await page.route(API, (route) => route.abort('connectionrefused'));
      await searchFor(page, lang, word);
      await expect(results(page).getByText(d['search.fromIndex'])).toBeVisible();
      const hit = results(page)
        .getByRole('listitem')
        .filter({ has: page.getByRole('link', { name: news.title, exact: true }) });
      await expect(hit.getByRole('link')).toHaveAttribute('href', localizePath(lang, `/news/${news.id}`));
      await expect(hit).toContainText(d['search.typeNews']);
      await expect(hit.locator('time')).toHaveAttribute('datetime', isoDay(news.date)!);
      // The results page keeps its address: the search can be shared and reached again.
      await expect(page).toHaveURL(new RegExp(`\\?q=${RegExp.escape(encodeURIComponent(word))}$`));
    });
  }

  test('an Uzbek word is found whatever apostrophe was typed (Oʻzbekcha)', async ({ page }) => {
    await page.route(API, (route) => route.abort('connectionrefused'));
    await searchFor(page, UZ, "Qorako'l");
    // The site spells it with the letter oʻ (U+02BB).
    await expect(results(page).getByRole('link', { name: 'Qorakoʻl' }).first()).toBeVisible();
    await searchFor(page, UZ, 'Qorako‘l');
    await expect(results(page).getByRole('link', { name: 'Qorakoʻl' }).first()).toBeVisible();
  });

  test('an Uzbek word typed in Latin finds it in Cyrillic on the Cyrillic site (Ўзбекча)', async ({ page }) => {
    await page.route(API, (route) => route.abort('connectionrefused'));
    await searchFor(page, UZ_CYRL, 'maktab');
    await expect(
      results(page)
        .getByRole('link', { name: /мактаб/i })
        .first(),
    ).toBeVisible();
    await searchFor(page, UZ, 'мактаб');
    await expect(
      results(page)
        .getByRole('link', { name: /maktab/i })
        .first(),
    ).toBeVisible();
  });

  test(`an API that has not answered within ${SEARCH_FALLBACK_MS / 1000} s is not waited for (Русский)`, async ({ page, api }) => {
    const d = DICTIONARIES[RU.code];
    const news = (await api.postList(1, RU.number, 1)).items[0]!;
    await page.route(API, async (route) => {
      await new Promise((ok) => setTimeout(ok, 30_000));
      await route.abort('timedout').catch(() => undefined);
    });
    await searchFor(page, RU, news.title);
    await expect(results(page).getByText(d['search.fromIndex'])).toBeVisible({ timeout: SEARCH_FALLBACK_MS + 5_000 });
    await expect(results(page).getByRole('link', { name: news.title, exact: true })).toBeVisible();
  });

  test('an API error is answered from the index too, and the API’s own answer dates its results (English)', async ({ page, api }) => {
    const d = DICTIONARIES[EN.code];
    const news = (await api.postList(1, EN.number, 1)).items[0]!;
    const word = news.title
      .split(/\s+/)
      .find((w) => /^\p{L}{6,}/u.test(w))!
      .replace(/[^\p{L}\p{N}]+$/u, '');
    await page.route(API, (route) => route.fulfill({ status: 500, body: 'Internal Server Error' }));
    await searchFor(page, EN, word);
    await expect(results(page).getByText(d['search.fromIndex'])).toBeVisible();
    await page.unrouteAll();
    // With the API back, its results are shown without the note, dated from the index.
    await page.reload();
    const hit = results(page)
      .getByRole('listitem')
      .filter({ has: page.getByRole('link', { name: news.title, exact: true }) });
    await expect(hit.locator('time')).toHaveAttribute('datetime', isoDay(news.date)!);
    await expect(results(page).getByText(d['search.fromIndex'])).toHaveCount(0);
  });

  test('with neither the API nor the index, the page says that search failed (Русский)', async ({ page }) => {
    const d = DICTIONARIES[RU.code];
    await page.route(API, (route) => route.abort('connectionrefused'));
    await page.route(/\/search-index\//, (route) => route.abort('connectionrefused'));
    await searchFor(page, RU, 'школа');
    await expect(results(page).getByRole('alert')).toHaveText(d['search.error']);
  });
});
