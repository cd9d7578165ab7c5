/**
 * The post lists (docs/rules.md, Post lists): the paginated news and lectures, the announcements, and the category 6 and 7 lists, in the four languages.
 * Every expectation is read from the sample API through the `api` fixture, never hard-coded, and
 * every UI string from the dictionaries.
 */
import { ELLIPSIS, LIST_PAGE_SIZE, TITLE_LINES, TRUNCATE } from '../../src/constants.ts';
import { LANGUAGES, localizePath } from '../../src/i18n/languages.ts';
import { DICTIONARIES, t } from '../../src/i18n/t.ts';
import { expect, test } from './fixtures.ts';
import { UZ_LATN, UZ_CYRL, RU, EN, cut, dateIn, numberIn, allPosts, expectMeta, expectWholeTitles, content, freshListPage } from './routes-helpers.ts';

test.describe('paginated lists', () => {
  for (const lang of [UZ_LATN, RU]) {
    test(`/news in ${lang.label}: the newest posts first, older pages by next and by number, and old ?pageNumber= links`, async ({ page, api, consoleErrors }) => {
      const dict = DICTIONARIES[lang.code];
      const posts = await allPosts(api, 1, lang);
      const { numbered, onFirst } = freshListPage(0, posts.length);
      expect(numbered).toBeGreaterThan(0);
      // The data must exercise the cuts.
      expect(posts.slice(0, onFirst).some((p) => Array.from(p.brief).length > TRUNCATE.newsListBrief)).toBe(true);
      const nav = page.getByRole('navigation', { name: dict['pagination.label'] });
      const pageLink = (n: number) => nav.getByRole('link', { name: t(lang, 'pagination.page', { n }), exact: true });
      const newestLink = () => nav.getByRole('link', { name: dict['pagination.newest'], exact: true });
      const previousLink = () => nav.getByRole('link', { name: dict['pagination.previous'], exact: true });
      const nextLink = () => nav.getByRole('link', { name: dict['pagination.next'], exact: true });
      const cards = content(page).locator('.card-grid article');
      const titles = (from: number, to: number) => posts.slice(from, to).map((p) => p.title);

      await page.goto(localizePath(lang, '/news'));
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(dict['news.title']);
      await expect(cards.getByRole('heading')).toHaveText(titles(0, onFirst));
      // List cards: title in 3 lines, brief 140 (docs/rules.md, Text truncation); the link is named by the whole title.
      await expectWholeTitles(cards.getByRole('link'), titles(0, onFirst), TITLE_LINES.newsList);
      await expect(cards.locator('.card__brief')).toHaveText(posts.slice(0, onFirst).map((p) => cut(p.brief, TRUNCATE.newsListBrief)));
      await expect(cards.first().getByRole('link')).toHaveAttribute('href', localizePath(lang, `/news/${posts[0]!.id}`));
      await expectMeta(cards.first(), lang, posts[0]!);

      // The first page: 'previous' (newer) is disabled, an aria-disabled span and not a link; it is the current page.
      await expect(previousLink()).toHaveCount(0);
      await expect(nav.locator('span[aria-disabled="true"]')).toHaveText(dict['pagination.previous']);
      await expect(newestLink()).toHaveAttribute('aria-current', 'page');
      await expect(nav.locator('[aria-current]')).toHaveCount(1);

      // Next: the newest numbered page, the ten posts after the first page's.
      await nextLink().click();
      await expect(page).toHaveURL(new RegExp(`${localizePath(lang, `/news/page/${numbered}`)}$`));
      await expect(page).toHaveTitle(new RegExp(t(lang, 'pagination.page', { n: numbered })));
      await expect(cards.getByRole('heading')).toHaveText(titles(onFirst, onFirst + LIST_PAGE_SIZE));
      await expect(pageLink(numbered)).toHaveAttribute('aria-current', 'page');
      await expect(previousLink()).toBeVisible();

      // Page 1 by its number: the oldest posts, and there 'next' (older) is disabled.
      await pageLink(1).click();
      await expect(page).toHaveURL(new RegExp(`${localizePath(lang, '/news/page/1')}$`));
      await expect(cards.getByRole('heading')).toHaveText(titles(posts.length - LIST_PAGE_SIZE, posts.length));
      await expect(nextLink()).toHaveCount(0);
      await expect(nav.locator('span[aria-disabled="true"]')).toHaveText(dict['pagination.next']);
      await expect(nav.locator('[aria-current]')).toHaveCount(1);
      await newestLink().click();
      await expect(page).toHaveURL(new RegExp(`${localizePath(lang, '/news')}$`));

      // An old link numbered from the newest post, as the API pages the list, lands on the page that holds that API page's first post.
      for (const n of [2, 3]) {
        const first = (await api.postList(1, lang.number, n)).items[0]!;
        await page.goto(`${localizePath(lang, '/news')}?pageNumber=${n}`);
        const path = freshListPage(
          posts.findIndex((p) => p.id === first.id),
          posts.length,
        ).path;
        await expect(page).toHaveURL(new RegExp(`${localizePath(lang, `/news${path}`)}${path ? '' : '\\?pageNumber=\\d'}$`));
        await expect(cards.getByRole('heading', { name: first.title, exact: true })).toBeVisible();
      }

      // A page past the newest numbered one leads to the list itself, page 0 to page 1, instead of "not found".
      await page.goto(localizePath(lang, '/news/page/999'));
      await expect(page).toHaveURL(new RegExp(`${localizePath(lang, '/news')}$`));
      await expect(newestLink()).toHaveAttribute('aria-current', 'page');
      await page.goto(localizePath(lang, '/news/page/0'));
      await expect(page).toHaveURL(new RegExp(`${localizePath(lang, '/news/page/1')}$`));
      // The not-found answer on the way is the browser's own line about the 404; nothing else may be logged.
      consoleErrors.splice(0, consoleErrors.length, ...consoleErrors.filter((e) => !/status of 404 \(Not Found\)/.test(e)));
      expect(consoleErrors).toEqual([]);
    });
  }

  for (const lang of [UZ_CYRL, EN]) {
    test(`/official-lectures in ${lang.label}: fewer than fifteen lectures are one page with no page links, where every old link lands`, async ({ page, api, consoleErrors }) => {
      const dict = DICTIONARIES[lang.code];
      const posts = await allPosts(api, 4, lang);
      expect(freshListPage(0, posts.length).numbered).toBe(0);
      const first = await api.postList(4, lang.number, 1);
      expect(first.pageCount).toBeGreaterThan(1);
      const cards = content(page).locator('.card-grid article');
      await page.goto(`${localizePath(lang, '/official-lectures')}?pageNumber=${first.pageCount}`);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(dict['lectures.title']);
      await expect(cards.getByRole('heading')).toHaveText(posts.map((p) => p.title));
      await expect(page.getByRole('navigation', { name: dict['pagination.label'] })).toHaveCount(0);
      await page.goto(localizePath(lang, '/official-lectures/page/1'));
      await expect(page).toHaveURL(new RegExp(`${localizePath(lang, '/official-lectures')}$`));
      consoleErrors.splice(0, consoleErrors.length, ...consoleErrors.filter((e) => !/status of 404 \(Not Found\)/.test(e)));
      expect(consoleErrors).toEqual([]);
    });
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
