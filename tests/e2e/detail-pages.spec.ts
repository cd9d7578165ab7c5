/**
 * Detail pages of posts (docs/rules.md, Detail pages): their text, sanitised, and their pictures, served from the site;
 * a post without date or view count; and `/news/{id}` of a post that is not news, where search hits lead.
 * Every expectation is read from the sample API through the `api` fixture, never hard-coded, and
 * every UI string from the dictionaries.
 */
import { TITLE_LINES } from '../../src/constants.ts';
import { LANGUAGES, localizePath } from '../../src/i18n/languages.ts';
import { DICTIONARIES } from '../../src/i18n/t.ts';
import { expect, test } from './fixtures.ts';
import { UZ_LATN, UZ_CYRL, RU, EN, allPosts, textOf, expectMeta, expectWholeTitles } from './routes-helpers.ts';

const HOSTILE_TITLE = 'District library holds Reading Family contest';

test.describe('detail pages', () => {
  test('the hostile news post shows its text and nothing that runs, in every language', async ({ page, api }) => {
    const id = (await allPosts(api, 1, EN)).find((p) => p.title.startsWith(HOSTILE_TITLE))!.id;
    // Whatever the content tries, nothing may run: no dialog and no page error.
    const problems: string[] = [];
    page.on('dialog', (d) => {
      problems.push(`dialog: ${d.message()}`);
      void d.dismiss();
    });
    page.on('pageerror', (e) => problems.push(e.message));

    for (const lang of LANGUAGES) {
      const dict = DICTIONARIES[lang.code];
      const post = (await api.post(id, lang.number))!;
      const latest = (await api.postList(1, lang.number, 1)).items.filter((p) => p.id !== id);
      const res = await page.goto(localizePath(lang, `/news/${id}`));
      expect(res?.status()).toBe(200);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(post.title);
      await expectMeta(page.locator('article.post'), lang, post);
      await expect(page.getByRole('link', { name: dict['common.back'], exact: true })).toHaveAttribute('href', localizePath(lang, '/news'));

      const prose = page.locator('.prose');
      // The text survives sanitising…
      const paragraphs = [...post.html.matchAll(/<p[^>]*>([\s\S]*?)<\/p>/g)].map((m) => textOf(m[1]!));
      expect(paragraphs.length).toBeGreaterThan(1);
      for (const text of paragraphs) await expect(prose).toContainText(text.slice(0, 40));
      await expect(prose).toContainText(paragraphs[0]!);
      // …but nothing that could run: no script, no on* attribute, no javascript: link.
      expect(post.html).toMatch(/<script/);
      await expect(prose.locator('script')).toHaveCount(0);
      expect(await prose.locator('*').evaluateAll((els) => els.flatMap((el) => el.getAttributeNames().filter((n) => /^on/i.test(n))))).toEqual([]);
      await expect(prose.locator('a[href^="javascript:" i]')).toHaveCount(0);
      await expect(prose).not.toContainText('alert(');

      // Side list: the latest news but this one, each link named by its whole title, cut on screen only (docs/rules.md, Text truncation).
      const side = page.locator('.title-list');
      await expect(side.getByRole('heading')).toHaveText(dict['news.title']);
      await expectWholeTitles(
        side.getByRole('link'),
        latest.map((p) => p.title),
        TITLE_LINES.sideList,
      );
      // Bring the whole post into view, so lazy content has its chance to misbehave.
      await side.scrollIntoViewIfNeeded();
    }
    await page.waitForTimeout(200);
    expect(problems).toEqual([]);
  });

  const DETAILS = [
    { path: '/official-lectures', type: 4, titleKey: 'lectures.title', langs: [UZ_LATN, RU] },
    { path: '/announcements-and-tenders', type: 2, titleKey: 'announcements.title', langs: [UZ_CYRL, EN] },
  ] as const;
  for (const detail of DETAILS) {
    test(`${detail.path}/{id} in ${detail.langs.map((l) => l.label).join(' and ')}`, async ({ page, api, consoleErrors }) => {
      for (const lang of detail.langs) {
        const dict = DICTIONARIES[lang.code];
        const list = (await api.postList(detail.type, lang.number, 1)).items;
        const id = list[1]!.id;
        const post = (await api.post(id, lang.number))!;
        await page.goto(localizePath(lang, `${detail.path}/${id}`));
        await expect(page.getByRole('heading', { level: 1 })).toHaveText(post.title);
        await expectMeta(page.locator('article.post'), lang, post);
        await expect(page.locator('.prose')).toContainText(textOf(post.html).slice(0, 60));
        await expect(page.locator('.prose script')).toHaveCount(0);
        // The side list comes from the same category, without this post.
        const side = page.locator('.title-list');
        await expect(side.getByRole('heading')).toHaveText(dict[detail.titleKey]);
        await expectWholeTitles(
          side.getByRole('link'),
          list.filter((p) => p.id !== id).map((p) => p.title),
          TITLE_LINES.sideList,
        );
        await expect(side.getByRole('link').first()).toHaveAttribute('href', localizePath(lang, `${detail.path}/${list[0]!.id}`));
        // The back link leads to the list.
        const back = page.getByRole('link', { name: dict['common.back'], exact: true });
        await expect(back).toHaveAttribute('href', localizePath(lang, detail.path));
        if (lang === detail.langs[0]) {
          await back.click();
          await expect(page).toHaveURL(new RegExp(`${localizePath(lang, detail.path)}$`));
          await expect(page.getByRole('heading', { level: 1 })).toHaveText(dict[detail.titleKey]);
        }
      }
      expect(consoleErrors).toEqual([]);
    });
  }
});

test('a picture inside a news text is served from the site, sized and lazy, in Uzbek and Russian', async ({ page, api, consoleErrors }) => {
  const mediaRequests: string[] = [];
  page.on('request', (r) => void (r.url().startsWith(process.env.E2E_API_URL!) && r.resourceType() === 'image' && mediaRequests.push(r.url())));
  for (const lang of [UZ_LATN, RU]) {
    const posts = await allPosts(api, 1, lang);
    const details = await Promise.all(posts.map((p) => api.post(p.id, lang.number)));
    const post = details.find((p) => p?.html.includes('<figure><img'))!;
    expect(post, 'a news text with a picture in the sample data').toBeTruthy();
    await page.goto(localizePath(lang, `/news/${post.id}`));
    const picture = page.locator('.prose figure img');
    await expect(picture).toHaveAttribute('src', /^\/_astro\/.+\.webp$/);
    await expect(picture).toHaveAttribute('loading', 'lazy');
    await expect(picture).toHaveAttribute('width', /^\d+$/);
    await expect(picture).toHaveAttribute('height', /^\d+$/);
    await picture.scrollIntoViewIfNeeded();
    await expect.poll(() => picture.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBeGreaterThan(0);
    await expect(page.locator('.prose figcaption')).toHaveText(/\S/);
  }
  expect(mediaRequests, 'pictures fetched from the API instead of the site').toEqual([]);
  expect(consoleErrors).toEqual([]);
});

/*
 * The side list of the latest posts: a complementary landmark named by its heading, after the
 * article in the page; on the right of the article on a wide screen (from 62 rem, the side menu on the left),
 * under it on a phone. Both kinds of page: a recent post carries its own list, an older one the shared
 * fragment spliced in after the build.
 */
test.describe('the side list beside the post', () => {
  for (const lang of [RU, UZ_LATN]) {
    test(`on the right of the article on a wide screen, under it on a phone (${lang.label})`, async ({ page, api }) => {
      const dict = DICTIONARIES[lang.code];
      const posts = await allPosts(api, 1, lang);
      for (const post of [posts[1]!, posts.at(-1)!]) {
        await page.setViewportSize({ width: 1280, height: 800 });
        await page.goto(localizePath(lang, `/news/${post.id}`));
        const article = page.locator('article.post');
        const side = page.getByRole('complementary', { name: dict['news.title'] });
        await expect(side).toHaveCount(1);
        await expect(side.getByRole('link').first()).toBeVisible();
        // The article first in reading order.
        expect(await article.evaluate((a, s) => Boolean(a.compareDocumentPosition(s!) & Node.DOCUMENT_POSITION_FOLLOWING), await side.elementHandle())).toBe(true);
        // The content begins with the breadcrumbs, then the back link.
        const top = page.getByRole('navigation', { name: dict['breadcrumbs.label'] });
        await expect(page.getByRole('link', { name: dict['common.back'], exact: true })).toBeVisible();

        // Wide (1280 px, and 1000 px just above the breakpoint): on the right of the article, its top level
        // with the top of the content (the breadcrumbs), so beside the article from its start.
        for (const width of [1280, 1000]) {
          await page.setViewportSize({ width, height: 800 });
          const [a, s, b] = [(await article.boundingBox())!, (await side.boundingBox())!, (await top.boundingBox())!];
          expect(s.x, `${post.id} at ${width} px: the list starts right of the article`).toBeGreaterThanOrEqual(a.x + a.width);
          expect(Math.abs(s.y - b.y), `${post.id} at ${width} px: the list is top-aligned with the content`).toBeLessThanOrEqual(24);
          expect(s.y).toBeLessThan(a.y);
        }

        // Phone: under the article, as wide as it.
        await page.setViewportSize({ width: 360, height: 740 });
        const [a, s] = [(await article.boundingBox())!, (await side.boundingBox())!];
        expect(s.y, `${post.id}: on a phone the list is under the article`).toBeGreaterThanOrEqual(a.y + a.height);
        expect(Math.abs(s.x - a.x)).toBeLessThanOrEqual(1);
        expect(Math.abs(s.width - a.width)).toBeLessThanOrEqual(1);
      }
    });
  }
});

for (const lang of [RU, UZ_LATN]) {
  test(`a news page is shared to Telegram by a plain link to its share page, with its address and title (${lang.label})`, async ({ page, api }) => {
    const d = DICTIONARIES[lang.code];
    const news = (await api.postList(1, lang.number, 1)).items[0]!;
    const path = localizePath(lang, `/news/${news.id}`);
    await page.goto(path);
    const share = page.getByRole('article').getByRole('link', { name: d['share.telegram'] });
    const href = new URL((await share.getAttribute('href'))!);
    expect(href.origin + href.pathname).toBe('https://t.me/share/url');
    expect(new URL(href.searchParams.get('url')!).pathname).toBe(path);
    expect(href.searchParams.get('text')).toBe(news.title);
    await expect(share).toHaveAttribute('target', '_blank');
    // Nothing of Telegram's is in the page itself.
    expect(await page.locator('script[src*="telegram"], iframe[src*="t.me"]').count()).toBe(0);
  });
}
