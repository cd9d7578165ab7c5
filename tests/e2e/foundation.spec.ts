import { LANGUAGES, localizePath } from '../../src/i18n/languages.ts';
import { DICTIONARIES } from '../../src/i18n/t.ts';
import { expect, test } from './fixtures.ts';
import { readFileSync } from 'node:fs';
import { allPosts, chooseLanguage, DIST, EN, freshListPage, RU, UZ_CYRL, UZ_LATN } from './routes-helpers.ts';

test.describe('home page from the sample API', () => {
  for (const lang of LANGUAGES) {
    test(`renders in ${lang.label}`, async ({ page, api, consoleErrors }) => {
      const dict = DICTIONARIES[lang.code];
      const latest = await api.postList(1, lang.number, 1);
      await page.goto(localizePath(lang, '/'));
      await expect(page.locator('html')).toHaveAttribute('lang', lang.tag);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(dict['home.heroTitle']);
      await expect(page.getByText(dict['site.testMode'])).toBeVisible();
      const cards = page.locator('.card-grid article');
      await expect(cards).toHaveCount(6);
      // The first card is the API's newest post in this language, its title whole in the page (cut on screen
      // by lines only, so a screen reader reads all of it).
      await expect(cards.first().getByRole('heading')).toHaveText(latest.items[0]!.title);
      // Every page links its other-language versions.
      for (const other of LANGUAGES) {
        await expect(page.locator(`link[rel="alternate"][hreflang="${other.tag}"]`)).toHaveAttribute('href', new RegExp(`${localizePath(other, '/')}$`));
      }
      expect(consoleErrors).toEqual([]);
    });
  }
});

test('the language choice persists across pages', async ({ page }) => {
  await page.goto('/');
  await chooseLanguage(page, DICTIONARIES['uz-latn'], 'Русский');
  await expect(page).toHaveURL(/\/ru\/$/);
  await expect(page.locator('html')).toHaveAttribute('lang', 'ru');
  // An unprefixed link now leads to the Russian version before it paints.
  await page.goto('/news');
  await expect(page).toHaveURL(/\/ru\/news$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(DICTIONARIES.ru['news.title']);
  // Choosing Uzbek (Latin) again stops the redirect.
  await chooseLanguage(page, DICTIONARIES.ru, 'Oʻzbekcha');
  await expect(page).toHaveURL(/\/news$/);
  await page.goto('/news');
  await expect(page).toHaveURL(/\/news$/);
  await expect(page.locator('html')).toHaveAttribute('lang', 'uz-Latn');
});

test.describe('the three kinds of menu item: content page, external link, route', () => {
  async function openGroupOf(page: import('@playwright/test').Page, linkName: string | RegExp) {
    const toggle = page.getByRole('button', { name: /menu|menyu|меню/i });
    if (await toggle.isVisible()) await toggle.click();
    const group = page
      .locator('[data-nav-group]')
      .filter({ has: page.getByRole('link', { name: linkName, includeHidden: true }) })
      .first();
    await group.locator('summary').click();
    return group.getByRole('link', { name: linkName });
  }

  test('an internal route goes to its canonical page', async ({ page, api }) => {
    await page.goto('/en/');
    const menus = await page.request.get(`${process.env.E2E_API_URL}/api/home/menus`, { headers: { langType: '4' } });
    const items = ((await menus.json()) as { data: { items: { title: string; page: string }[] }[] }).data.flatMap((g) => g.items);
    const newsItem = items.find((i) => i.page === '/yangiliklar')!;
    const link = await openGroupOf(page, newsItem.title);
    await expect(link).toHaveAttribute('href', '/en/news');
    await link.click();
    await expect(page).toHaveURL(/\/en\/news$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('News');
    // The list's first page: the newest posts, as many as it holds (docs/rules.md, Post lists).
    const news = await allPosts(api, 1, EN);
    await expect(page.locator('.card-grid article')).toHaveCount(freshListPage(0, news.length).onFirst);
  });

  test('a content page opens as page/{id} with its text', async ({ page, api }) => {
    await page.goto('/ru/');
    const menus = await api.menus(3);
    const item = menus.flatMap((g) => g.items).find((i) => i.target.kind === 'page')!;
    const pageId = item.target.kind === 'page' ? item.target.pageId : -1;
    const content = await api.page(pageId, 3);
    const link = await openGroupOf(page, item.title);
    await link.click();
    await expect(page).toHaveURL(new RegExp(`/ru/page/${pageId}$`));
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(item.title);
    const firstParagraph = /<p>(.*?)<\/p>/.exec(content!.html)![1]!.replace(/<[^>]+>/g, '');
    await expect(page.locator('.prose')).toContainText(firstParagraph.slice(0, 40));
    // The side menu lists the group's items with this one marked.
    await expect(page.getByRole('complementary').getByRole('link', { name: item.title })).toHaveAttribute('aria-current', 'page');
  });

  test('an external link opens in a new tab', async ({ page, context }) => {
    await page.goto('/');
    const link = await openGroupOf(page, /portal/i);
    await expect(link).toHaveAttribute('target', '_blank');
    await expect(link).toHaveAttribute('rel', 'noopener noreferrer');
    const [popup] = await Promise.all([context.waitForEvent('page'), link.click()]);
    await expect(popup).toHaveURL(/^https:\/\/my\.gov\.uz/);
  });
});

test('an unknown path shows the not-found screen in its language', async ({ page }) => {
  const res = await page.goto('/en/no-such-page');
  expect(res?.status()).toBe(404);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(DICTIONARIES.en['notFound.title']);
  const uz = await page.goto('/no-such-page');
  expect(uz?.status()).toBe(404);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(DICTIONARIES['uz-latn']['notFound.title']);
});

test("on a host that serves one not-found page for everything, a wrong address still gets its language's", async ({ page }) => {
  // As GitHub Pages, an S3 bucket or a CDN's error page do: the default language's 404.html, status 404, for any missing file.
  const single = readFileSync(`${DIST}/404.html`);
  for (const [lang, wrong] of [
    [RU, '/ru/novosti-net'],
    [UZ_CYRL, '/uz-cyrl/yoq-sahifa'],
    [EN, '/en/no-such-page/deeper'],
  ] as const) {
    await page.route(`**${wrong}`, (route) => route.fulfill({ status: 404, contentType: 'text/html; charset=utf-8', body: single }));
    await page.goto(wrong);
    await expect(page).toHaveURL(new RegExp(`${localizePath(lang, '/404/')}$`));
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(DICTIONARIES[lang.code]['notFound.title']);
  }
  // An address of the default language stays on the page it was given.
  await page.route('**/yoq-sahifa', (route) => route.fulfill({ status: 404, contentType: 'text/html; charset=utf-8', body: single }));
  await page.goto('/yoq-sahifa');
  await expect(page).toHaveURL(/\/yoq-sahifa$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(DICTIONARIES['uz-latn']['notFound.title']);
});

test.describe('top strip', () => {
  for (const lang of [UZ_LATN, RU]) {
    test(`an open group closes when its title is clicked again (${lang.label})`, async ({ page }) => {
      // The top strip is shown on wide screens only: the phone project looks at it as a wide screen too.
      await page.setViewportSize({ width: 1280, height: 800 });
      await page.goto(localizePath(lang, '/'));
      const group = page.locator('.top-strip details').first();
      const title = group.locator('summary');
      await title.click();
      await expect(group).toHaveAttribute('open', '');
      await expect(group.getByRole('link').first()).toBeVisible();
      // The open list lies wholly on the screen.
      const box = (await group.locator('ul').boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(page.viewportSize()!.width);
      await title.click();
      await expect(group).not.toHaveAttribute('open');
      await expect(group.getByRole('link').first()).toBeHidden();
      // And it opens again, and a click elsewhere still closes it.
      await title.click();
      await expect(group).toHaveAttribute('open', '');
      await page.locator('main h1, main h2').first().click();
      await expect(group).not.toHaveAttribute('open');
    });
  }
});
