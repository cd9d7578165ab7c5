/**
 * The post lists (docs/rules.md, Post lists): the paginated news and lectures, the announcements, and the category 6 and 7 lists, in the four languages.
 * Every expectation is read from the sample API through the `api` fixture, never hard-coded, and
 * every UI string from the dictionaries.
 */
import { ELLIPSIS, TITLE_LINES, TRUNCATE } from '../../src/constants.ts';
import { LANGUAGES, localizePath } from '../../src/i18n/languages.ts';
import { DICTIONARIES, t } from '../../src/i18n/t.ts';
import { expect, test } from './fixtures.ts';
import { UZ_LATN, UZ_CYRL, RU, EN, cut, dateIn, numberIn, allPosts, expectMeta, expectWholeTitles, content } from './routes-helpers.ts';

const LISTS = [
  { path: '/news', type: 1, titleKey: 'news.title', langs: [UZ_LATN, RU] },
  { path: '/official-lectures', type: 4, titleKey: 'lectures.title', langs: [UZ_CYRL, EN] },
] as const;

test.describe('paginated lists', () => {
  for (const list of LISTS) {
    for (const lang of list.langs) {
      test(`${list.path} in ${lang.label}: page 1, the last page, ?pageNumber=2 and the cuts`, async ({ page, api, consoleErrors }) => {
        const dict = DICTIONARIES[lang.code];
        const first = await api.postList(list.type, lang.number, 1);
        const second = await api.postList(list.type, lang.number, 2);
        const last = await api.postList(list.type, lang.number, first.pageCount);
        expect(first.pageCount).toBeGreaterThan(1);
        expect(first.items).toHaveLength(10);
        // The data must exercise the cuts.
        expect(first.items.some((p) => Array.from(p.brief).length > TRUNCATE.newsListBrief)).toBe(true);
        const pageLink = (n: number) => nav.getByRole('link', { name: t(lang, 'pagination.page', { n }), exact: true });
        const previousLink = () => nav.getByRole('link', { name: dict['pagination.previous'], exact: true });
        const nextLink = () => nav.getByRole('link', { name: dict['pagination.next'], exact: true });
        const cards = content(page).locator('.card-grid article');
        const nav = page.getByRole('navigation', { name: dict['pagination.label'] });

        await page.goto(localizePath(lang, list.path));
        await expect(page.getByRole('heading', { level: 1 })).toHaveText(dict[list.titleKey]);
        await expect(cards).toHaveCount(10);
        // List cards: title in 3 lines, brief 140 (docs/rules.md, Text truncation); the link is named by the whole title.
        await expect(cards.getByRole('heading')).toHaveText(first.items.map((p) => p.title));
        await expectWholeTitles(
          cards.getByRole('link'),
          first.items.map((p) => p.title),
          TITLE_LINES.newsList,
        );
        await expect(cards.locator('.card__brief')).toHaveText(first.items.map((p) => cut(p.brief, TRUNCATE.newsListBrief)));
        await expect(cards.first().getByRole('link')).toHaveAttribute('href', localizePath(lang, `${list.path}/${first.items[0]!.id}`));
        await expectMeta(cards.first(), lang, first.items[0]!);

        // Page 1: 'previous' is disabled (an aria-disabled span, not a link), page 1 is the current one.
        await expect(previousLink()).toHaveCount(0);
        await expect(nav.locator('span[aria-disabled="true"]')).toHaveText(dict['pagination.previous']);
        await expect(pageLink(1)).toHaveAttribute('aria-current', 'page');
        await expect(nav.locator('[aria-current]')).toHaveCount(1);
        await expect(nextLink()).toBeVisible();

        // The numbered link to the last page: there 'next' is disabled.
        await pageLink(first.pageCount).click();
        await expect(page).toHaveURL(new RegExp(`${localizePath(lang, `${list.path}/page/${first.pageCount}`)}$`));
        await expect(cards.getByRole('heading')).toHaveText(last.items.map((p) => p.title));
        await expect(nextLink()).toHaveCount(0);
        await expect(nav.locator('span[aria-disabled="true"]')).toHaveText(dict['pagination.next']);
        await expect(previousLink()).toBeVisible();
        await expect(pageLink(first.pageCount)).toHaveAttribute('aria-current', 'page');
        await expect(nav.locator('[aria-current]')).toHaveCount(1);

        // An old link with ?pageNumber=2 lands on the static page 2, which shows the API's page 2.
        await page.goto(`${localizePath(lang, list.path)}?pageNumber=2`);
        await expect(page).toHaveURL(new RegExp(`${localizePath(lang, `${list.path}/page/2`)}$`));
        await expect(cards.getByRole('heading')).toHaveText(second.items.map((p) => p.title));
        await expect(cards.locator('.card__brief')).toHaveText(second.items.map((p) => cut(p.brief, TRUNCATE.newsListBrief)));
        await expect(pageLink(2)).toHaveAttribute('aria-current', 'page');
        await expect(previousLink()).toHaveAttribute('href', localizePath(lang, list.path));

        // A page past the end, or page 1 by number, leads to the nearest real page instead of "not found".
        await page.goto(localizePath(lang, `${list.path}/page/999`));
        await expect(page).toHaveURL(new RegExp(`${localizePath(lang, `${list.path}/page/${first.pageCount}`)}$`));
        await expect(cards.getByRole('heading')).toHaveText(last.items.map((p) => p.title));
        await page.goto(`${localizePath(lang, list.path)}?pageNumber=${first.pageCount + 5}`);
        await expect(page).toHaveURL(new RegExp(`${localizePath(lang, `${list.path}/page/${first.pageCount}`)}$`));
        await page.goto(localizePath(lang, `${list.path}/page/1`));
        await expect(page).toHaveURL(new RegExp(`${localizePath(lang, list.path)}$`));
        await expect(pageLink(1)).toHaveAttribute('aria-current', 'page');
        // The not-found answer on the way is the browser's own line about the 404; nothing else may be logged.
        consoleErrors.splice(0, consoleErrors.length, ...consoleErrors.filter((e) => !/status of 404 \(Not Found\)/.test(e)));
        expect(consoleErrors).toEqual([]);
      });
    }
  }
});

test('/announcements-and-tenders: one column, titles in 3 lines and briefs cut to 180, in every language', async ({ page, api, consoleErrors }) => {
  for (const lang of LANGUAGES) {
    const posts = await allPosts(api, 2, lang);
    await page.goto(localizePath(lang, '/announcements-and-tenders'));
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(DICTIONARIES[lang.code]['announcements.title']);
    const items = content(page).locator('article');
    await expect(items).toHaveCount(posts.length);
    await expect(items.getByRole('heading')).toHaveText(posts.map((p) => p.title));
    await expectWholeTitles(
      items.getByRole('link'),
      posts.map((p) => p.title),
      TITLE_LINES.announcement,
    );
    await expect(items.locator('p:not(.meta)')).toHaveText(posts.map((p) => cut(p.brief, TRUNCATE.announcementBrief)));
    await expect(items.first().getByRole('link')).toHaveAttribute('href', localizePath(lang, `/announcements-and-tenders/${posts[0]!.id}`));
    await expect(items.first().locator('time')).toHaveText(dateIn(lang, posts[0]!.date!));
    // One column: every item starts at the same left edge, each below the one before.
    const boxes = await items.evaluateAll((els) => els.map((el) => el.getBoundingClientRect()).map((r) => ({ x: r.x, y: r.y, bottom: r.bottom })));
    for (let i = 1; i < boxes.length; i++) {
      expect(boxes[i]!.x).toBeCloseTo(boxes[0]!.x, 0);
      expect(boxes[i]!.y).toBeGreaterThanOrEqual(boxes[i - 1]!.bottom);
    }
  }
  expect(consoleErrors).toEqual([]);
});

test.describe('posts of categories 6 and 7', () => {
  test('/sayyor_qabullar shows the category 6 posts, in every language', async ({ page, api, consoleErrors }) => {
    for (const lang of LANGUAGES) {
      const posts = await allPosts(api, 6, lang);
      expect(posts.length).toBeGreaterThan(0);
      await page.goto(localizePath(lang, '/sayyor_qabullar'));
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(DICTIONARIES[lang.code]['visits.title']);
      const cards = content(page).locator('article');
      await expect(cards).toHaveCount(posts.length);
      // Title and brief whole, or cut with '...' (the product names no length for this list).
      const shown = await cards.evaluateAll((els) =>
        els.map((el) => [el.querySelector('h2, h3')?.textContent?.trim() ?? '', el.querySelector('.card__brief')?.textContent?.trim() ?? '']),
      );
      for (const [i, post] of posts.entries()) {
        for (const [text, full] of [
          [shown[i]![0]!, post.title],
          [shown[i]![1]!, post.brief],
        ] as const) {
          if (text === full) continue;
          expect(text.endsWith(ELLIPSIS), text).toBe(true);
          expect(full.startsWith(text.slice(0, -ELLIPSIS.length)), text).toBe(true);
          expect(text.length, text).toBeGreaterThan(40);
        }
      }
      await expect(cards.locator('.meta time')).toHaveText(posts.map((p) => dateIn(lang, p.date!)));
      await expect(cards.locator('.meta')).toContainText(posts.map((p) => numberIn(lang, p.views!)));
    }
    expect(consoleErrors).toEqual([]);
  });

  test('/tarixiy_shaxslar shows the category 7 posts, in every language', async ({ page, api, consoleErrors }) => {
    for (const lang of LANGUAGES) {
      const posts = await allPosts(api, 7, lang);
      expect(posts.length).toBeGreaterThan(0);
      await page.goto(localizePath(lang, '/tarixiy_shaxslar'));
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(DICTIONARIES[lang.code]['persons.title']);
      const people = content(page).locator('article');
      await expect(people).toHaveCount(posts.length);
      await expect(people.getByRole('heading', { level: 2 })).toHaveText(posts.map((p) => p.title));
      await expect(people.first()).toContainText(posts[0]!.brief);
    }
    expect(consoleErrors).toEqual([]);
  });
});
