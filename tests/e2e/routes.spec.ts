/**
 * The site's routes as a citizen sees them (§2, §4, §9), in the four
 * languages. Every expectation is read from the sample API through the `api`
 * fixture, never hard-coded, and every UI string from the dictionaries.
 */
import type { Page } from '@playwright/test';
import type { ApiClient } from '../../src/api/client.ts';
import type { EmployeeCategory, PostSummary, PostTypeId } from '../../src/api/types.ts';
import { ELLIPSIS, REGION_FACTS, TRUNCATE } from '../../src/constants.ts';
import { LANGUAGES, localizePath, type Language } from '../../src/i18n/languages.ts';
import { DICTIONARIES, t, type MessageKey } from '../../src/i18n/t.ts';
import { INFO_PAGES } from '../../src/lib/info-pages.ts';
import { formatDate } from '../../src/lib/text.ts';
import { navTargetIs } from '../../src/routes.ts';
import { expect, test } from './fixtures.ts';

const [UZ_LATN, UZ_CYRL, RU, EN] = LANGUAGES;

// ---------------------------------------------------------------- helpers

/** §9: a text longer than `max` characters is cut to `max` and followed by '...'. */
function cut(text: string, max: number): string {
  const chars = Array.from(text.trim());
  return chars.length <= max ? chars.join('') : `${chars.slice(0, max).join('').trimEnd()}${ELLIPSIS}`;
}

/** The date as the page's language writes it, on the district's calendar ("2026-yil 20-noyabr", "2026 йил 20 ноябрь"). */
function dateIn(lang: Language, iso: string): string {
  return formatDate(iso, lang)!;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function numberIn(lang: Language, n: number): string {
  return new Intl.NumberFormat(lang.tag).format(n);
}

/** Every post of a category, over all of the API's pages. */
async function allPosts(api: ApiClient, type: PostTypeId, lang: Language): Promise<PostSummary[]> {
  const first = await api.postList(type, lang.number, 1);
  const rest = await Promise.all(Array.from({ length: first.pageCount - 1 }, (_, i) => api.postList(type, lang.number, i + 2)));
  return [first, ...rest].flatMap((p) => p.items);
}

/** Visible text of an HTML fragment. */
function textOf(html: string): string {
  return html
    .replace(/<\/(p|li|h\d|div|tr)>|<br\s*\/?>/gi, ' ')
    .replace(/<[^>]*>/g, '')
    .replace(/&nbsp;/g, ' ')
    .replace(/&quot;/g, '"')
    .replace(/&#0*39;|&apos;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .trim();
}

/** A page's h1 comes from the menu item that leads to it, or from the dictionary when none does. */
async function infoTitle(api: ApiClient, lang: Language, path: string, titleKey: MessageKey): Promise<string> {
  const items = (await api.menus(lang.number)).flatMap((g) => g.items);
  return items.find((i) => i.target.kind === 'route' && navTargetIs(i.target, path))?.title ?? t(lang, titleKey);
}

/** The date and view count of a meta line: both shown, neither a loading placeholder. */
async function expectMeta(scope: ReturnType<Page['locator']>, lang: Language, post: { date: string | null; views: number | null }) {
  const meta = scope.locator('.meta').first();
  await expect(meta.locator('time')).toHaveText(dateIn(lang, post.date!));
  if (post.views !== null) await expect(meta).toContainText(numberIn(lang, post.views));
  await expect(meta.locator('.skeleton')).toHaveCount(0);
}

const content = (page: Page) => page.locator('.inner__content');

/** href, target and rel of every link a locator matches, read in one round trip. */
function linkAttributes(links: ReturnType<Page['locator']>) {
  return links.evaluateAll((els) => els.map((a) => ({ href: a.getAttribute('href'), target: a.getAttribute('target'), rel: a.getAttribute('rel') })));
}
const NEW_TAB = { target: '_blank', rel: expect.stringMatching(/\bnoopener\b/) };

// ---------------------------------------------------------------- 1. home

test.describe('home page (§2 "Home page")', () => {
  for (const lang of LANGUAGES) {
    test(`the eight sections in ${lang.label}`, async ({ page, api, consoleErrors }) => {
      const dict = DICTIONARIES[lang.code];
      const [news, announcements, surveys, videos] = await Promise.all([
        api.postList(1, lang.number, 1),
        api.postList(2, lang.number, 1),
        api.surveys(lang.number),
        api.videos(lang.number),
      ]);
      // The data must exercise the cut (otherwise this test proves nothing about it).
      expect(news.items.slice(0, 6).some((p) => Array.from(p.title).length > TRUNCATE.homeCardTitle)).toBe(true);
      expect(news.items.slice(0, 6).some((p) => Array.from(p.brief).length > TRUNCATE.homeCardBrief)).toBe(true);

      await page.goto(localizePath(lang, '/'));

      // Eight sections, in the order of §2.
      const sections = page.locator('main > section');
      await expect(sections).toHaveCount(8);
      await expect(sections.first()).toContainText(dict['home.heroTitle']);
      await expect(sections.locator('h2[id]')).toHaveText(
        [
          dict['home.latestNews'],
          dict['news.title'],
          dict['home.services'],
          dict['home.surveys'],
          dict['home.announcements'],
          dict['home.media'],
          dict['home.usefulLinks'],
          dict['home.map'],
        ],
      );

      // 1. Hero with the appeal button.
      const hero = sections.nth(0);
      await expect(hero.getByRole('heading', { level: 1 })).toHaveText(dict['home.heroTitle']);
      await expect(hero.getByRole('link', { name: dict['home.heroButton'] })).toHaveAttribute('href', localizePath(lang, '/murojaat_yuborish'));

      // 2. Latest news: 6 cards (title 50, brief 80) and a side list of 4 titles with date and views.
      const latest = sections.nth(1);
      const cards = latest.locator('.news-grid article');
      await expect(cards).toHaveCount(6);
      const six = news.items.slice(0, 6);
      await expect(cards.getByRole('heading')).toHaveText(six.map((p) => cut(p.title, TRUNCATE.homeCardTitle)));
      await expect(cards.locator('.card__brief')).toHaveText(six.map((p) => cut(p.brief, TRUNCATE.homeCardBrief)));
      await expect(cards.first().getByRole('link')).toHaveAttribute('href', localizePath(lang, `/news/${six[0]!.id}`));
      await expect(latest.getByRole('link', { name: dict['common.all'], exact: true })).toHaveAttribute('href', localizePath(lang, '/news'));
      const titles = latest.locator('.title-list li');
      await expect(titles).toHaveCount(4);
      const four = news.items.slice(0, 4);
      await expect(titles.getByRole('link')).toHaveText(four.map((p) => cut(p.title, TRUNCATE.sideListTitle)));
      for (const [i, post] of four.entries()) await expectMeta(titles.nth(i), lang, post);

      // 3. Six service tiles; exactly two are not links.
      const services = sections.nth(2);
      await expect(services.locator('.tiles > li')).toHaveCount(6);
      await expect(services.getByRole('link')).toHaveCount(4);
      const inactive = services.locator('.tiles > li').filter({ hasNot: page.getByRole('link') });
      await expect(inactive).toHaveCount(2);
      await expect(inactive.nth(0)).toContainText(dict['service.development']);
      await expect(inactive.nth(1)).toContainText(dict['service.transport']);
      await expect(services.getByRole('link', { name: dict['service.suggestions'] })).toHaveAttribute('href', localizePath(lang, '/murojaat_yuborish'));

      // 4. Surveys with their author and like/dislike counts. The counts are those of the build: votes cast
      // by other test files since then may have raised the API's, never lowered them.
      const surveyCards = sections.nth(3).locator('article');
      await expect(surveyCards).toHaveCount(surveys.length);
      await expect(surveyCards.getByRole('heading')).toHaveText(surveys.map((s) => s.title));
      await expect(surveyCards).toContainText(surveys.map((s) => s.author));
      await expect(surveyCards.getByRole('button')).toHaveCount(2 * surveys.length);
      // Each button says what it counts, in the same words as the vote it casts ("Yoqdi 12", "Like 12").
      // The island refreshes the counts from the API when it hydrates, and other tests vote meanwhile:
      // each count shown lies between the API's before the page was read and after.
      const later = await api.surveys(lang.number);
      for (const [i, s] of surveys.entries()) {
        const buttons = surveyCards.nth(i).getByRole('button');
        await expect(buttons.nth(0)).toContainText(dict['survey.like']);
        await expect(buttons.nth(1)).toContainText(dict['survey.dislike']);
        for (const [n, then, now] of [[0, s.likes, later[i]!.likes], [1, s.dislikes, later[i]!.dislikes]] as const) {
          const shown = Number((await buttons.nth(n).locator('.survey__count').innerText()).replace(/\D/g, ''));
          expect(shown, `${s.title}: button ${n}`).toBeLessThanOrEqual(now);
          expect(shown, `${s.title}: button ${n}`).toBeGreaterThan(then - 5);
        }
      }

      // 5. Three announcements and the 'all' link.
      const ann = sections.nth(4);
      await expect(ann.locator('article')).toHaveCount(3);
      await expect(ann.locator('article').getByRole('heading')).toHaveText(
        announcements.items.slice(0, 3).map((p) => cut(p.title, TRUNCATE.announcementTitle)),
      );
      await expect(ann.getByRole('link', { name: dict['common.all'], exact: true })).toHaveAttribute(
        'href',
        localizePath(lang, '/announcements-and-tenders'),
      );

      // 6. Video cards open the video in a new tab, without handing over the opener; 'all' leads to the video gallery.
      await expect(sections.nth(5).getByRole('link', { name: dict['common.all'], exact: true })).toHaveAttribute(
        'href',
        localizePath(lang, '/gallery/video'),
      );
      const videoLinks = sections.nth(5).locator('a.video-card');
      const shown = await videoLinks.count();
      expect(shown).toBeGreaterThan(0);
      expect(shown).toBeLessThanOrEqual(videos.length);
      await expect(videoLinks.locator('.video-card__title')).toHaveText(videos.slice(0, shown).map((v) => v.title));
      expect(await linkAttributes(videoLinks)).toEqual(videos.slice(0, shown).map((v) => ({ href: v.url, ...NEW_TAB })));

      // 7. Twelve useful links, each to an outside portal in a new tab.
      const useful = sections.nth(6).getByRole('link');
      await expect(useful).toHaveCount(12);
      const portals = await linkAttributes(useful);
      expect(portals).toEqual(Array(12).fill({ href: expect.stringMatching(/^https:\/\//), ...NEW_TAB }));
      expect(new Set(portals.map((l) => l.href)).size).toBe(12);

      // 8. The map.
      const map = sections.nth(7).locator('iframe');
      await expect(map).toHaveCount(1);
      await expect(map).toHaveAttribute('title', dict['map.title']);
      await map.scrollIntoViewIfNeeded();
      await expect(map).toBeVisible();
      expect(consoleErrors).toEqual([]);
    });
  }
});

// ---------------------------------------------------------------- 2. paginated lists

const LISTS = [
  { path: '/news', type: 1, titleKey: 'news.title', langs: [UZ_LATN, RU] },
  { path: '/official-lectures', type: 4, titleKey: 'lectures.title', langs: [UZ_CYRL, EN] },
] as const;

test.describe('paginated lists (§2, §4)', () => {
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
        expect(first.items.some((p) => Array.from(p.title).length > TRUNCATE.newsListTitle)).toBe(true);
        expect(first.items.some((p) => Array.from(p.brief).length > TRUNCATE.newsListBrief)).toBe(true);
        const pageLink = (n: number) => nav.getByRole('link', { name: t(lang, 'pagination.page', { n }), exact: true });
        const previousLink = () => nav.getByRole('link', { name: dict['pagination.previous'], exact: true });
        const nextLink = () => nav.getByRole('link', { name: dict['pagination.next'], exact: true });
        const cards = content(page).locator('.card-grid article');
        const nav = page.getByRole('navigation', { name: dict['pagination.label'] });

        await page.goto(localizePath(lang, list.path));
        await expect(page.getByRole('heading', { level: 1 })).toHaveText(dict[list.titleKey]);
        await expect(cards).toHaveCount(10);
        // List cards: title 80, brief 140 (§9).
        await expect(cards.getByRole('heading')).toHaveText(first.items.map((p) => cut(p.title, TRUNCATE.newsListTitle)));
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
        await expect(cards.getByRole('heading')).toHaveText(last.items.map((p) => cut(p.title, TRUNCATE.newsListTitle)));
        await expect(nextLink()).toHaveCount(0);
        await expect(nav.locator('span[aria-disabled="true"]')).toHaveText(dict['pagination.next']);
        await expect(previousLink()).toBeVisible();
        await expect(pageLink(first.pageCount)).toHaveAttribute('aria-current', 'page');
        await expect(nav.locator('[aria-current]')).toHaveCount(1);

        // An old link with ?pageNumber=2 lands on the static page 2, which shows the API's page 2.
        await page.goto(`${localizePath(lang, list.path)}?pageNumber=2`);
        await expect(page).toHaveURL(new RegExp(`${localizePath(lang, `${list.path}/page/2`)}$`));
        await expect(cards.getByRole('heading')).toHaveText(second.items.map((p) => cut(p.title, TRUNCATE.newsListTitle)));
        await expect(cards.locator('.card__brief')).toHaveText(second.items.map((p) => cut(p.brief, TRUNCATE.newsListBrief)));
        await expect(pageLink(2)).toHaveAttribute('aria-current', 'page');
        await expect(previousLink()).toHaveAttribute('href', localizePath(lang, list.path));
        expect(consoleErrors).toEqual([]);
      });
    }
  }
});

// ---------------------------------------------------------------- 3. detail pages

const HOSTILE_TITLE = 'District library holds Reading Family contest';

test.describe('detail pages (§2)', () => {
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

      // Side list: the latest news but this one, titles cut to 120 (§9).
      const side = page.locator('.title-list');
      await expect(side.getByRole('heading')).toHaveText(dict['news.title']);
      await expect(side.getByRole('link')).toHaveText(latest.map((p) => cut(p.title, TRUNCATE.sideListTitle)));
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
        // The side list comes from the same category (§2), without this post.
        const side = page.locator('.title-list');
        await expect(side.getByRole('heading')).toHaveText(dict[detail.titleKey]);
        await expect(side.getByRole('link')).toHaveText(list.filter((p) => p.id !== id).map((p) => cut(p.title, TRUNCATE.sideListTitle)));
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

// ---------------------------------------------------------------- 4. announcements

test('/announcements-and-tenders: one column, titles cut to 80 and briefs to 180, in every language', async ({ page, api, consoleErrors }) => {
  for (const lang of LANGUAGES) {
    const posts = await allPosts(api, 2, lang);
    await page.goto(localizePath(lang, '/announcements-and-tenders'));
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(DICTIONARIES[lang.code]['announcements.title']);
    const items = content(page).locator('article');
    await expect(items).toHaveCount(posts.length);
    await expect(items.getByRole('heading')).toHaveText(posts.map((p) => cut(p.title, TRUNCATE.announcementTitle)));
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

// ---------------------------------------------------------------- 5. galleries

test.describe('galleries (§2)', () => {
  test('/gallery/photo lists every group with title, date and count, in every language', async ({ page, api, consoleErrors }) => {
    for (const lang of LANGUAGES) {
      const groups = await api.photoGroups(lang.number);
      await page.goto(localizePath(lang, '/gallery/photo'));
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(DICTIONARIES[lang.code]['photos.title']);
      const shown = content(page).locator('section.photo-group');
      await expect(shown).toHaveCount(groups.length);
      await expect(shown.getByRole('heading', { level: 2 })).toHaveText(groups.map((g) => g.title));
      await expect(shown.locator('time')).toHaveText(groups.map((g) => dateIn(lang, g.date!)));
      await expect(shown.locator('.photo-group__count')).toHaveText(groups.map((g) => t(lang, 'gallery.photoCount', { n: g.photoCount })));
      expect(await shown.evaluateAll((els) => els.map((el) => el.querySelectorAll('a[data-lightbox]').length))).toEqual(groups.map((g) => g.photos.length));
    }
    expect(consoleErrors).toEqual([]);
  });

  test('a photo opens the lightbox, which does not loop past the last photo and closes on Escape', async ({ page, api, consoleErrors }) => {
    const lang = UZ_CYRL;
    const groups = await api.photoGroups(lang.number);
    const index = groups.findIndex((g) => g.photos.length >= 2);
    const group = groups[index]!;
    await page.goto(localizePath(lang, '/gallery/photo'));
    const photos = content(page).locator('section.photo-group').nth(index).locator('a[data-lightbox]');
    const box = page.locator('.glightbox-container');
    const slides = box.locator('.gslide');

    // A photo opens the lightbox at that photo.
    await photos.first().click();
    await expect(box).toBeVisible();
    await expect(slides).toHaveCount(group.photos.length);
    await expect(slides.first()).toHaveClass(/\bcurrent\b/);
    await page.keyboard.press('Escape');
    await expect(box).toHaveCount(0);

    // On the last photo there is no way forward: 'next' is disabled and ArrowRight stays there.
    await photos.last().click();
    await expect(box).toBeVisible();
    await expect(slides.last()).toHaveClass(/\bcurrent\b/);
    const next = box.locator('.gnext');
    if (await next.isVisible()) await expect(next).toHaveClass(/\bdisabled\b/);
    await page.keyboard.press('ArrowRight');
    await page.waitForTimeout(400);
    await expect(slides.last()).toHaveClass(/\bcurrent\b/);
    await expect(slides.first()).not.toHaveClass(/\bcurrent\b/);
    // Escape closes it.
    await page.keyboard.press('Escape');
    await expect(box).toHaveCount(0);
    expect(consoleErrors).toEqual([]);
  });

  test('/gallery/video: each video opens in a new tab, in every language', async ({ page, api, consoleErrors }) => {
    for (const lang of LANGUAGES) {
      const videos = await api.videos(lang.number);
      await page.goto(localizePath(lang, '/gallery/video'));
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(DICTIONARIES[lang.code]['videos.title']);
      const links = content(page).locator('a.video-card');
      await expect(links).toHaveCount(videos.length);
      await expect(links.locator('.video-card__title')).toHaveText(videos.map((v) => v.title));
      expect(await linkAttributes(links)).toEqual(videos.map((v) => ({ href: v.url, ...NEW_TAB })));
    }
    expect(consoleErrors).toEqual([]);
  });
});

// ---------------------------------------------------------------- 6. directories

/** Each directory in two languages; the popup is tried in the first, so each language opens it once. */
const DIRECTORIES: { path: string; category: EmployeeCategory; langs: readonly [Language, Language] }[] = [
  { path: '/mayors-of-cities-and-districts', category: 1, langs: [UZ_LATN, RU] },
  { path: '/the-leadership-of-the-regional-administration', category: 2, langs: [RU, UZ_CYRL] },
  { path: '/information-service', category: 3, langs: [UZ_CYRL, EN] },
  { path: '/jamoatchilik_kengashi', category: 2, langs: [EN, UZ_LATN] },
];

test.describe('directories (§2, §4 "Leader popup")', () => {
  for (const dir of DIRECTORIES) {
    test(`${dir.path}: cards from the API; 'More' opens the popup in ${dir.langs[0].label}`, async ({ page, api, consoleErrors }) => {
      for (const lang of dir.langs) {
        const people = await api.employees(dir.category, lang.number);
        expect(people.length).toBeGreaterThan(0);
        await page.goto(localizePath(lang, dir.path));
        const cards = content(page).locator('article');
        await expect(cards).toHaveCount(people.length);
        await expect(cards.getByRole('heading', { level: 2 })).toHaveText(people.map((p) => p.name));
        await expect(cards.locator('.person-card__text > .person-card__position')).toHaveText(people.map((p) => p.position));
      }

      const lang = dir.langs[0];
      const dict = DICTIONARIES[lang.code];
      const person = (await api.employees(dir.category, lang.number)).at(-1)!;
      await page.goto(localizePath(lang, dir.path));
      const more = content(page).locator('article').last().getByRole('button', { name: new RegExp(`^${escapeRegExp(dict['person.more'])}`) });
      const dialog = page.getByRole('dialog', { name: person.name });
      await expect(dialog).toBeHidden();

      // 'More' opens the popup with the biography and the duties.
      await more.click();
      await expect(dialog).toBeVisible();
      await expect(dialog.getByRole('heading', { name: dict['person.biography'] })).toBeVisible();
      await expect(dialog.getByRole('heading', { name: dict['person.duties'] })).toBeVisible();
      await expect(dialog).toContainText(textOf(person.biographyHtml).slice(0, 40));
      await expect(dialog).toContainText(textOf(person.dutiesHtml).slice(0, 40));
      // Escape closes it and gives the focus back to 'More'.
      await page.keyboard.press('Escape');
      await expect(dialog).toBeHidden();
      await expect(more).toBeFocused();

      // The close button closes it too.
      await more.click();
      await expect(dialog).toBeVisible();
      await dialog.getByRole('button', { name: dict['person.close'] }).click();
      await expect(dialog).toBeHidden();
      await expect(more).toBeFocused();
      expect(consoleErrors).toEqual([]);
    });
  }
});

// ---------------------------------------------------------------- 7. information pages

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

// ---------------------------------------------------------------- 8. slugs

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

// ---------------------------------------------------------------- 9. post lists from categories 6 and 7

test.describe('posts of categories 6 and 7 (§2)', () => {
  test('/sayyor_qabullar shows the category 6 posts, in every language', async ({ page, api, consoleErrors }) => {
    for (const lang of LANGUAGES) {
      const posts = await allPosts(api, 6, lang);
      expect(posts.length).toBeGreaterThan(0);
      await page.goto(localizePath(lang, '/sayyor_qabullar'));
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(DICTIONARIES[lang.code]['visits.title']);
      const cards = content(page).locator('article');
      await expect(cards).toHaveCount(posts.length);
      // Title and brief whole, or cut with '...' (§2 names no length for this list).
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
