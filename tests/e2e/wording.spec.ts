/**
 * Wording as a citizen reads it: one spelling and one name for a thing in every place it shows, words
 * that read naturally in each language, sample names in the page's own script, links to other sites in
 * the reader's language, a news card without a picture that does not look broken, and a failed vote
 * that says whose fault it was.
 */
import type { Page } from '@playwright/test';
import { LANGUAGES, localizePath, type Language } from '../../src/i18n/languages.ts';
import { DICTIONARIES, t } from '../../src/i18n/t.ts';
import { expect, test } from './fixtures.ts';
import { allPosts, content, freshListPage } from './routes-helpers.ts';

const [UZ_LATN, UZ_CYRL, RU, EN] = LANGUAGES;
const h1 = (page: Page) => page.getByRole('heading', { level: 1 });
/** The main menu's link to `path` (behind the phone's menu button or not: its text is what it says). */
const menuLink = (page: Page, lang: Language, path: string) => page.locator(`#site-menu a[href="${localizePath(lang, path)}"]`);

test.describe('one name for one thing', () => {
  test('“byudjet” and “бюджет”, never “budjet”: the open budget page, its menu item and the useful links', async ({ page, consoleErrors }) => {
    for (const [lang, wrong] of [
      [UZ_LATN, /budjet/i],
      [UZ_CYRL, /буджет/i],
    ] as const) {
      await page.goto(localizePath(lang, '/ochiq_byutjet_malumotlari'));
      await expect(h1(page)).toHaveText(t(lang, 'info.openBudget'));
      await expect(menuLink(page, lang, '/ochiq_byutjet_malumotlari')).toHaveText(t(lang, 'info.openBudget'));
      expect(await page.locator('body').textContent()).not.toMatch(wrong);
      await page.goto(localizePath(lang, '/'));
      await expect(page.getByRole('link', { name: t(lang, 'link.openBudget') })).toBeVisible();
      expect(await page.locator('body').textContent()).not.toMatch(wrong);
    }
    expect(t(UZ_LATN, 'info.openBudget')).toContain('Ochiq byudjet');
    expect(t(UZ_CYRL, 'info.openBudget')).toContain('Очиқ бюджет');
    expect(consoleErrors).toEqual([]);
  });

  test('the official speeches: the menu item and the page it opens have one name, in every language', async ({ page, consoleErrors }) => {
    for (const lang of LANGUAGES) {
      await page.goto(localizePath(lang, '/official-lectures'));
      await expect(h1(page)).toHaveText(t(lang, 'lectures.title'));
      await expect(menuLink(page, lang, '/official-lectures')).toHaveText(t(lang, 'lectures.title'));
    }
    expect(t(RU, 'lectures.title')).toBe('Официальные выступления');
    expect(consoleErrors).toEqual([]);
  });

  test('the tours page is “Turistik sayohatlar”, in its menu item and its title', async ({ page, consoleErrors }) => {
    for (const [lang, title] of [
      [UZ_LATN, 'Turistik sayohatlar'],
      [UZ_CYRL, 'Туристик саёҳатлар'],
      [RU, 'Туристические поездки'],
    ] as const) {
      await page.goto(localizePath(lang, '/sayyorlik_sayohati'));
      await expect(h1(page)).toHaveText(title);
      await expect(menuLink(page, lang, '/sayyorlik_sayohati')).toHaveText(title);
      expect(await page.locator('body').textContent()).not.toMatch(/sayyohlik sayohat|саёҳлик саёҳат/i);
    }
    expect(consoleErrors).toEqual([]);
  });
});

test.describe('words that read naturally', () => {
  test('the home page’s map section is “Tuman xaritasi” / “Туман харитаси”', async ({ page, consoleErrors }) => {
    for (const [lang, heading] of [
      [UZ_LATN, 'Tuman xaritasi'],
      [UZ_CYRL, 'Туман харитаси'],
      [RU, 'Район на карте'],
      [EN, 'Map of the district'],
    ] as const) {
      await page.goto(localizePath(lang, '/'));
      await expect(page.locator('#map')).toHaveText(heading);
    }
    expect(consoleErrors).toEqual([]);
  });

  test('the party groups’ sample table: names in the page’s script and headings that are words', async ({ page, consoleErrors }) => {
    const LETTERS = { 'uz-latn': /^\p{Script=Latin}+$/u, 'uz-cyrl': /^\p{Script=Cyrillic}+$/u, ru: /^\p{Script=Cyrillic}+$/u, en: /^\p{Script=Latin}+$/u } as const;
    for (const lang of [RU, UZ_CYRL, UZ_LATN, EN]) {
      const d = DICTIONARIES[lang.code];
      await page.goto(localizePath(lang, '/partiyalar_deputatlik_guruhlari'));
      const table = content(page).locator('table');
      await expect(table.locator('thead th')).toHaveText([d['party.number'], d['party.firstName'], d['party.lastName'], d['party.role']]);
      expect((await table.locator('thead').innerText()).toLowerCase()).not.toMatch(/username|пользовател|foydalanuvchi|фойдаланувчи/);
      const rows = table.locator('tbody tr');
      await expect(rows).toHaveCount(3);
      await expect(rows.locator('td:nth-child(4)')).toHaveText([d['party.leader'], d['party.deputyLeader'], d['party.member']]);
      for (const name of [...(await rows.locator('td:nth-child(2)').allInnerTexts()), ...(await rows.locator('td:nth-child(3)').allInnerTexts())]) {
        expect(name, lang.code).toMatch(LETTERS[lang.code]);
      }
      expect(await table.innerText()).not.toContain('@');
    }
    expect(consoleErrors).toEqual([]);
  });
});

test.describe('links to other sites in the reader’s language', () => {
  test('“Trips to tourist sites” opens the tourism portal in the page’s language (Uzbek Cyrillic: the Uzbek one)', async ({ page, consoleErrors }) => {
    const PORTAL = { 'uz-latn': '/uz/', 'uz-cyrl': '/uz/', ru: '/ru/', en: '/en/' } as const;
    for (const lang of LANGUAGES) {
      await page.goto(localizePath(lang, '/'));
      const tile = page.getByRole('link', { name: t(lang, 'service.tourism') });
      await expect(tile).toHaveAttribute('href', `https://uzbekistan.travel${PORTAL[lang.code]}`);
      await expect(tile).toHaveAttribute('target', '_blank');
    }
    expect(consoleErrors).toEqual([]);
  });
});

test.describe('a news item without a picture', () => {
  for (const lang of [UZ_LATN, RU]) {
    test(`its card shows the district’s emblem on the tinted box, hidden from screen readers, as tall as a picture (${lang.label})`, async ({ page, api, consoleErrors }) => {
      const news = await allPosts(api, 1, lang);
      const index = news.findIndex((p) => p.imageUrl === null);
      expect(index, 'the sample API has a news item without a picture').toBeGreaterThanOrEqual(0);
      const post = news[index]!;
      await page.goto(localizePath(lang, `/news${freshListPage(index, news.length).path}`));
      const card = content(page)
        .locator('.card-grid article')
        .filter({ has: page.getByRole('heading', { name: post.title, exact: true }) });
      await expect(card).toHaveCount(1);
      const box = card.locator('.card__image--none');
      await expect(box).toBeVisible();
      await expect(box).toHaveAttribute('aria-hidden', 'true');
      const emblem = box.locator('svg');
      await expect(emblem).toBeVisible();
      // The emblem sits in the middle of the box, and the box is as big as a picture would be (3:2).
      const [outer, inner] = [(await box.boundingBox())!, (await emblem.boundingBox())!];
      expect(outer.height).toBeGreaterThan(inner.height * 1.5);
      expect(Math.abs(outer.x + outer.width / 2 - (inner.x + inner.width / 2))).toBeLessThan(2);
      expect(Math.abs(outer.y + outer.height / 2 - (inner.y + inner.height / 2))).toBeLessThan(2);
      expect(Math.abs(outer.width / outer.height - 1.5)).toBeLessThan(0.02);
      // Nothing of it reaches a screen reader: the card's link is named by the title alone.
      await expect(card.getByRole('img')).toHaveCount(0);
      await expect(card.getByRole('link')).toHaveAccessibleName(post.title);

      // Its own page shows no picture and no empty box.
      await page.goto(localizePath(lang, `/news/${post.id}`));
      await expect(h1(page)).toHaveText(post.title);
      await expect(page.locator('main .post__image, main [class*="image--none"]')).toHaveCount(0);
      expect(consoleErrors).toEqual([]);
    });
  }
});

test.describe('a vote the server refuses', () => {
  for (const lang of [RU, UZ_LATN]) {
    // No consoleErrors here: the browser logs the 500 itself.
    test(`says the server could not record it, not that the connection is lost (${lang.label})`, async ({ page, api }) => {
      const d = DICTIONARIES[lang.code];
      const survey = (await api.surveys(lang.number))[1]!;
      await page.route(new RegExp(`^${process.env.E2E_API_URL}/api/survey/answer`), (route) =>
        route.fulfill({ status: 500, contentType: 'application/json', body: '{"errorMsg":"Internal Server Error"}' }),
      );
      await page.goto(localizePath(lang, '/'));
      const card = page.locator('.survey').filter({ hasText: survey.title });
      await card.scrollIntoViewIfNeeded();
      const like = card.getByRole('button', { name: new RegExp(d['survey.like']) });
      await expect(like).toBeEnabled();
      await like.click();
      const toast = page.locator('.swal2-toast');
      await expect(toast.filter({ hasText: d['survey.serverError'] })).toBeVisible();
      await expect(toast.filter({ hasText: d['survey.failed'] })).toHaveCount(0);
      // Nothing was counted: the buttons are given back.
      await expect(like).toBeEnabled();
      await expect(like).toHaveAttribute('aria-pressed', 'false');
    });
  }
});
