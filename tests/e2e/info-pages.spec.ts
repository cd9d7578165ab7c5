/**
 * The information and directory routes (§2 "Information and directory routes").
 * Every expectation is read from the sample API through the `api` fixture, never hard-coded, and
 * every UI string from the dictionaries.
 */
import { REGION_FACTS } from '../../src/constants.ts';
import { LANGUAGES, localizePath } from '../../src/i18n/languages.ts';
import { DICTIONARIES, t, type MessageKey } from '../../src/i18n/t.ts';
import { INFO_PAGES } from '../../src/lib/info-pages.ts';
import { navTargetIs } from '../../src/routes.ts';
import { expect, test } from './fixtures.ts';
import { UZ_LATN, UZ_CYRL, RU, EN, numberIn, content, linkAttributes, NEW_TAB } from './routes-helpers.ts';

test.describe('information pages (§2 "Information and directory routes")', () => {
  for (const lang of [UZ_LATN, RU]) {
    test(`every info page renders with its title in ${lang.label}`, async ({ page, api, consoleErrors }) => {
      // 45 page loads, on the phone and the desktop.
      test.slow();
      const items = (await api.menus(lang.number)).flatMap((g) => g.items);
      for (const info of INFO_PAGES) {
        const title = items.find((i) => i.target.kind === 'route' && navTargetIs(i.target, info.path))?.title ?? t(lang, info.titleKey);
        const url = localizePath(lang, info.path);
        const res = await page.goto(url, { waitUntil: 'domcontentloaded' });
        expect(res?.status(), url).toBe(200);
        await expect(page.getByRole('heading', { level: 1 }), url).toHaveText(title);
      }
      expect(consoleErrors).toEqual([]);
    });
  }

  test("/information-about-the-province: 870 200 and 39 400 in each language's number format", async ({ page, consoleErrors }) => {
    for (const lang of LANGUAGES) {
      await page.goto(localizePath(lang, '/information-about-the-province'));
      const facts = content(page);
      await expect(facts).toContainText(t(lang, 'province.populationValue', { n: numberIn(lang, REGION_FACTS.population) }));
      await expect(facts).toContainText(t(lang, 'province.areaValue', { n: numberIn(lang, REGION_FACTS.areaKm2) }));
      expect(numberIn(lang, REGION_FACTS.population)).toMatch(/^870\D200$/);
      expect(numberIn(lang, REGION_FACTS.areaKm2)).toMatch(/^39\D?400$/);
    }
    expect(consoleErrors).toEqual([]);
  });

  test('/regionaldepartments: 13 names and exactly 4 external links', async ({ page, consoleErrors }) => {
    for (const lang of [UZ_CYRL, EN]) {
      const dict = DICTIONARIES[lang.code];
      await page.goto(localizePath(lang, '/regionaldepartments'));
      const names = (Object.keys(dict) as MessageKey[]).filter((k) => k.startsWith('dept.') && k !== 'dept.regionSite').map((k) => dict[k]);
      expect(names).toHaveLength(REGION_FACTS.districtCount);
      const list = content(page).locator('ol > li');
      await expect(list).toHaveCount(13);
      for (const name of names) await expect(list.filter({ hasText: name })).toHaveCount(1);
      // The region's site and three districts; the other ten names are plain text.
      const external = content(page).locator('a[href^="http"]');
      await expect(external).toHaveCount(4);
      await expect(external.filter({ hasText: dict['dept.regionSite'] })).toHaveCount(1);
      await expect(list.getByRole('link')).toHaveCount(3);
      expect(await linkAttributes(external)).toEqual(Array(4).fill({ href: expect.stringMatching(/^https:\/\//), ...NEW_TAB }));
    }
    expect(consoleErrors).toEqual([]);
  });

  test('the FAQ keeps one item open at a time, and clicking the open one closes it', async ({ page, consoleErrors }) => {
    for (const lang of [UZ_LATN, RU]) {
      const dict = DICTIONARIES[lang.code];
      await page.goto(localizePath(lang, '/answers-to-frequently-asked-questions'));
      const q = (n: 1 | 2 | 3) => content(page).getByText(dict[`faq.q${n}`], { exact: true });
      const a = (n: 1 | 2 | 3) => content(page).getByText(dict[`faq.a${n}`], { exact: true });
      for (const n of [1, 2, 3] as const) await expect(a(n)).toBeHidden();
      // Each question is named by its words alone, without the "+" drawn beside it.
      for (const n of [1, 2, 3] as const) await expect(content(page).locator('summary').nth(n - 1)).toHaveAccessibleName(dict[`faq.q${n}`]);
      await q(1).click();
      await expect(a(1)).toBeVisible();
      await q(2).click();
      await expect(a(2)).toBeVisible();
      await expect(a(1)).toBeHidden();
      await expect(a(3)).toBeHidden();
      await q(2).click();
      for (const n of [1, 2, 3] as const) await expect(a(n)).toBeHidden();
    }
    expect(consoleErrors).toEqual([]);
  });

  test('/social-questionnaire and /formal-attitude say the form is not accepted and cannot be sent', async ({ page, consoleErrors }) => {
    const FORMS = [
      { path: '/social-questionnaire', submitKey: 'questionnaire.vote' },
      { path: '/formal-attitude', submitKey: 'feedback.send' },
    ] as const;
    for (const form of FORMS) {
      for (const lang of [UZ_CYRL, EN]) {
        const dict = DICTIONARIES[lang.code];
        await page.goto(localizePath(lang, form.path));
        await expect(content(page).getByText(dict['form.notAccepted'])).toBeVisible();
        await expect(content(page).getByRole('button', { name: dict[form.submitKey] })).toBeDisabled();
      }
    }
    expect(consoleErrors).toEqual([]);
  });
});
