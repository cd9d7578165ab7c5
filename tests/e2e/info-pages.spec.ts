/**
 * The information and directory routes: the region's facts, documents, placeholders and the other fixed pages.
 * Every expectation is read from the sample API through the `api` fixture, never hard-coded, and
 * every UI string from the dictionaries.
 */
import { district } from '../../src/district/district.ts';
import { LANGUAGES, localizePath } from '../../src/i18n/languages.ts';
import { DICTIONARIES, t } from '../../src/i18n/t.ts';
import { EMPLOYEE_CATEGORIES } from '../../src/api/types.ts';
import { hasOwnContent, INFO_PAGES } from '../../src/lib/info-pages.ts';
import { navTargetIs } from '../../src/routes.ts';
import { expect, test } from './fixtures.ts';
import { UZ_LATN, UZ_CYRL, RU, EN, numberIn, content, linkAttributes, NEW_TAB, textOf } from './routes-helpers.ts';

test.describe('information pages', () => {
  for (const lang of [UZ_LATN, RU]) {
    test(`every info page renders with its title in ${lang.label}`, async ({ page, api, request, consoleErrors }) => {
      // 45 page loads, on the phone and the desktop.
      test.slow();
      const items = (await api.menus(lang.number)).flatMap((g) => g.items);
      for (const info of INFO_PAGES) {
        const url = localizePath(lang, info.path);
        const html = await (await request.get(url)).text();
        // A topic the menu answers with a content page leads there; that page carries the menu's title.
        const leadsTo = /<meta http-equiv="refresh" content="0; url=([^"]+)"/.exec(html)?.[1];
        const pageId = leadsTo ? Number(/\/page\/(\d+)$/.exec(leadsTo)?.[1]) : undefined;
        const title =
          pageId !== undefined
            ? items.find((i) => i.target.kind === 'page' && i.target.pageId === pageId)?.title
            : (items.find((i) => i.target.kind === 'route' && navTargetIs(i.target, info.path))?.title ?? t(lang, info.titleKey));
        expect(title, `${url} → ${leadsTo}`).toBeTruthy();
        const res = await page.goto(leadsTo ?? url, { waitUntil: 'domcontentloaded' });
        expect(res?.status(), url).toBe(200);
        await expect(page.getByRole('heading', { level: 1 }), url).toHaveText(title!);
      }
      expect(consoleErrors).toEqual([]);
    });
  }

  test("/information-about-the-province: 870 200 and 39 400 in each language's number format", async ({ page, consoleErrors }) => {
    const REGION_FACTS = district().region;
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
      const names = district().region.units.map((u) => u.name[lang.code]);
      expect(names).toHaveLength(13);
      const list = content(page).locator('ol.departments > li');
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
      for (const n of [1, 2, 3] as const)
        await expect(
          content(page)
            .locator('summary')
            .nth(n - 1),
        ).toHaveAccessibleName(dict[`faq.q${n}`]);
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

  test('a topic that the menu offers as a content page is one page: its slug leads to that page', async ({ page, api, request, consoleErrors }) => {
    // The menu in Uzbek Latin names each content page; every one of them that has a slug of its own on the
    // site (a topic with no content there) is reached from that slug, and each from one slug only.
    const slugsWithoutContent = INFO_PAGES.filter((info) => !hasOwnContent(info)).map((info) => info.path);
    for (const lang of [RU, UZ_LATN]) {
      const items = (await api.menus(lang.number)).flatMap((g) => g.items);
      const pageIds = items.flatMap((i) => (i.target.kind === 'page' ? [i.target.pageId] : []));
      expect(pageIds.length).toBeGreaterThan(0);
      const leads = new Map<number, string[]>();
      for (const slug of slugsWithoutContent) {
        const html = await (await request.get(localizePath(lang, slug))).text();
        const to = /<meta http-equiv="refresh" content="0; url=([^"]+)"/.exec(html)?.[1];
        if (!to) continue;
        expect(to).toMatch(new RegExp(`^${localizePath(lang, '/page/')}\\d+$`));
        const id = Number(to.split('/').at(-1));
        leads.set(id, [...(leads.get(id) ?? []), slug]);
      }
      expect([...leads.keys()].sort((a, b) => a - b)).toEqual([...pageIds].sort((a, b) => a - b));
      for (const slugs of leads.values()) expect(slugs).toHaveLength(1);

      // A citizen following an old link to the slug lands on the administration's page, in the same language.
      const [[id, [slug]]] = [...leads] as [[number, [string]]];
      const item = items.find((i) => i.target.kind === 'page' && i.target.pageId === id)!;
      const body = await api.page(id, lang.number);
      await page.goto(localizePath(lang, slug));
      await expect(page).toHaveURL(new RegExp(`${localizePath(lang, `/page/${id}`)}/?$`));
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(item.title);
      await expect(content(page)).toContainText(textOf(body!.html).slice(0, 40));
      // The sitemap lists the page once, not the slug that leads to it.
      const index = await (await request.get('/sitemap-index.xml')).text();
      const files = [...index.matchAll(/<loc>[a-z]+:\/\/[^/<]+(\/[^<]+)<\/loc>/g)].map((m) => m[1]!);
      expect(files.length).toBeGreaterThan(1);
      const sitemap = (await Promise.all(files.map(async (file) => (await request.get(file)).text()))).join('');
      const listed = (path: string) => new RegExp(`<loc>[a-z]+://[^/<]+${RegExp.escape(localizePath(lang, path))}/?</loc>`).test(sitemap);
      expect(listed(`/page/${id}`)).toBe(true);
      expect(listed(slug)).toBe(false);
    }
    expect(consoleErrors).toEqual([]);
  });

  test('the public council says its members will be published, and shows no one else', async ({ page, api, consoleErrors }) => {
    for (const lang of [EN, UZ_CYRL]) {
      const leaders = await api.employees(EMPLOYEE_CATEGORIES.leadership, lang.number);
      await page.goto(localizePath(lang, '/jamoatchilik_kengashi'));
      await expect(content(page)).toContainText(t(lang, 'publicCouncil.note'));
      await expect(content(page)).toContainText(t(lang, 'placeholder.text'));
      await expect(content(page).locator('article')).toHaveCount(0);
      for (const leader of leaders) await expect(content(page)).not.toContainText(leader.name);
    }
    expect(consoleErrors).toEqual([]);
  });
});
