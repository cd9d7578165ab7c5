/**
 * The home page as a citizen sees it (docs/rules.md, Home page and Text truncation), in the four languages;
 * its icons, and labels that never break inside a word.
 * Every expectation is read from the sample API through the `api` fixture, never hard-coded, and
 * every UI string from the dictionaries.
 */
import { readFileSync } from 'node:fs';
import { TITLE_LINES, TRUNCATE } from '../../src/constants.ts';
import { LANGUAGES, localizePath } from '../../src/i18n/languages.ts';
import { DICTIONARIES } from '../../src/i18n/t.ts';
import { ICONS } from '../../src/lib/icons.ts';
import { expect, headerReady, surveyVotesReady, test } from './fixtures.ts';
import { splitWords } from './layout-audit.ts';
import { cut, DIST, expectMeta, expectWholeTitles, linkAttributes, NEW_TAB, RU, UZ_LATN } from './routes-helpers.ts';

test.describe('home page', () => {
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
      expect(news.items.slice(0, 6).some((p) => Array.from(p.brief).length > TRUNCATE.homeCardBrief)).toBe(true);

      await page.goto(localizePath(lang, '/'));

      // Eight sections, in the product's order (docs/rules.md, Home page).
      const sections = page.locator('main > section');
      await expect(sections).toHaveCount(8);
      await expect(sections.first()).toContainText(dict['home.heroTitle']);
      await expect(sections.locator('h2[id]')).toHaveText([
        dict['home.latestNews'],
        dict['home.moreNews'],
        dict['home.services'],
        dict['home.surveys'],
        dict['home.announcements'],
        dict['home.media'],
        dict['home.usefulLinks'],
        dict['home.map'],
      ]);

      // 1. Hero with the appeal button.
      const hero = sections.nth(0);
      await expect(hero.getByRole('heading', { level: 1 })).toHaveText(dict['home.heroTitle']);
      await expect(hero.getByRole('link', { name: dict['home.heroButton'] })).toHaveAttribute('href', localizePath(lang, '/murojaat_yuborish'));

      // 2. Latest news: 6 cards (title in 2 lines, brief 80) and a side list of the 4 next titles with date and views.
      // A title is its link's name: whole in the page, cut on screen only.
      const latest = sections.nth(1);
      const cards = latest.locator('.card-grid article');
      await expect(cards).toHaveCount(6);
      const six = news.items.slice(0, 6);
      await expect(cards.getByRole('heading')).toHaveText(six.map((p) => p.title));
      expect(
        await expectWholeTitles(
          cards.getByRole('link'),
          six.map((p) => p.title),
          TITLE_LINES.homeCard,
        ),
      ).toBeGreaterThan(0);
      await expect(cards.locator('.card__brief')).toHaveText(six.map((p) => cut(p.brief, TRUNCATE.homeCardBrief)));
      await expect(cards.first().getByRole('link')).toHaveAttribute('href', localizePath(lang, `/news/${six[0]!.id}`));
      await expect(latest.getByRole('link', { name: dict['home.allNews'], exact: true })).toHaveAttribute('href', localizePath(lang, '/news'));
      const titles = latest.locator('.title-list li');
      await expect(latest.locator('.title-list h2')).toHaveText(dict['home.moreNews']);
      await expect(titles).toHaveCount(4);
      const four = news.items.slice(6, 10);
      await expectWholeTitles(
        titles.getByRole('link'),
        four.map((p) => p.title),
        TITLE_LINES.sideList,
      );
      for (const [i, post] of four.entries()) await expectMeta(titles.nth(i), lang, post);

      // 3. The service tiles: each is a link; the two services with no address yet are not shown at all.
      const services = sections.nth(2);
      await expect(services.locator('.tiles > li')).toHaveCount(4);
      await expect(services.getByRole('link')).toHaveCount(4);
      await expect(services).not.toContainText(dict['service.development']);
      await expect(services).not.toContainText(dict['service.transport']);
      await expect(services.getByRole('link', { name: dict['service.suggestions'] })).toHaveAttribute('href', localizePath(lang, '/murojaat_yuborish'));

      // 4. Surveys with their author and like/dislike counts. The counts are those of the build: votes cast
      // by other test files since then may have raised the API's, never lowered them.
      const surveyCards = sections.nth(3).locator('article');
      await expect(surveyCards).toHaveCount(surveys.length);
      await expect(surveyCards.getByRole('heading')).toHaveText(surveys.map((s) => s.title));
      await expect(surveyCards).toContainText(surveys.map((s) => s.author));
      await expect(surveyCards.getByRole('button')).toHaveCount(2 * surveys.length);
      // Each button says what it counts, in the same words as the vote it casts ("Roziman 12", "For 12").
      // The island refreshes the counts from the API when it hydrates, and other tests vote meanwhile:
      // each count shown lies between the API's before the page was read and after.
      const later = await api.surveys(lang.number);
      for (const [i, s] of surveys.entries()) {
        const buttons = surveyCards.nth(i).getByRole('button');
        await expect(buttons.nth(0)).toContainText(dict['survey.like']);
        await expect(buttons.nth(1)).toContainText(dict['survey.dislike']);
        for (const [n, then, now] of [
          [0, s.likes, later[i]!.likes],
          [1, s.dislikes, later[i]!.dislikes],
        ] as const) {
          const shown = Number((await buttons.nth(n).locator('.survey__count').innerText()).replace(/\D/g, ''));
          expect(shown, `${s.title}: button ${n}`).toBeLessThanOrEqual(now);
          expect(shown, `${s.title}: button ${n}`).toBeGreaterThan(then - 5);
        }
      }

      // 5. Three announcements and the link to all of them.
      const ann = sections.nth(4);
      await expect(ann.locator('article')).toHaveCount(3);
      await expect(ann.locator('article').getByRole('heading')).toHaveText(announcements.items.slice(0, 3).map((p) => p.title));
      await expectWholeTitles(
        ann.locator('article').getByRole('link'),
        announcements.items.slice(0, 3).map((p) => p.title),
        TITLE_LINES.announcement,
      );
      await expect(ann.getByRole('link', { name: dict['home.allAnnouncements'], exact: true })).toHaveAttribute('href', localizePath(lang, '/announcements-and-tenders'));

      // 6. Video cards open the video in a new tab, without handing over the opener; "All videos" leads to the video gallery.
      await expect(sections.nth(5).getByRole('link', { name: dict['home.allVideos'], exact: true })).toHaveAttribute('href', localizePath(lang, '/gallery/video'));
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

      // 8. The map: OpenStreetMap's frame only once asked for (third-parties.spec.ts has the rest).
      const show = sections.nth(7).getByRole('button', { name: dict['map.show'] });
      await show.scrollIntoViewIfNeeded();
      await expect(sections.nth(7).locator('iframe')).toHaveCount(0);
      await show.click();
      const map = sections.nth(7).locator('iframe');
      await expect(map).toHaveAttribute('title', dict['map.title']);
      await expect(map).toBeVisible();
      expect(consoleErrors).toEqual([]);
    });
  }
});

test.describe('icons', () => {
  for (const lang of [UZ_LATN, RU]) {
    test(`the home page has no emoji or symbol icons, only the sprite's SVG, the header's drawn from the same paths (${lang.label})`, async ({ page, request }) => {
      const html = readFileSync(`${DIST}${localizePath(lang, '/')}index.html`, 'utf8');
      const symbols = [...html.matchAll(/[\p{Extended_Pictographic}\u2190-\u21FF\u2300-\u23FF\u25A0-\u25FF\u2600-\u27BF]/gu)].map((m) => m[0]).filter((c) => !'©®™'.includes(c));
      expect(symbols).toEqual([]);
      await page.goto(localizePath(lang, '/'));
      const tiles = page.locator('.tile__icon');
      await expect(tiles).toHaveCount(4);
      for (const tile of await tiles.all()) await expect(tile.locator('svg use')).toHaveAttribute('href', /^\/icons\.svg#[\w-]+$/);
      await page.locator('#surveys').scrollIntoViewIfNeeded();
      await surveyVotesReady(page);
      const votes = page.locator('.survey__vote');
      expect(await votes.count()).toBeGreaterThan(0);
      for (const b of await votes.all()) await expect(b.locator('svg use')).toHaveAttribute('href', /^\/icons\.svg#thumb-(up|down)$/);
      // Only the header's icons are drawn in the page, which must paint before the sprite arrives,
      // each with the sprite's own path; every other icon is a <use> of the sprite.
      await headerReady(page);
      const drawn = await page
        .locator('svg.icon:not(:has(use))')
        .evaluateAll((svgs) => svgs.map((svg) => ({ d: svg.querySelector('path')?.getAttribute('d'), inHeader: Boolean(svg.closest('.site-header, [data-nav-bar]')) })));
      // The header's search and panel buttons for wide screens, and the menu bar's for phones, draw the same paths.
      expect([...new Set(drawn.map((icon) => icon.d))].sort()).toEqual([ICONS.search, ICONS.eye, ICONS.menu].sort());
      expect(drawn.every((icon) => icon.inHeader)).toBe(true);
      const used = await page.locator('svg use').evaluateAll((uses) => [...new Set(uses.map((u) => u.getAttribute('href')!.split('#')[1]!))]);
      const sprite = await (await request.get('/icons.svg')).text();
      for (const id of used) expect(sprite, id).toContain(`<symbol id="${id}"`);
    });
  }
});

test.describe('survey buttons', () => {
  for (const width of [320, 1280]) {
    for (const lang of [UZ_LATN, RU]) {
      test(`no survey button or service tile label breaks inside a word at ${width} px (${lang.label})`, async ({ page }) => {
        await page.setViewportSize({ width, height: 900 });
        await page.goto(localizePath(lang, '/'));
        await page.locator('#surveys').scrollIntoViewIfNeeded();
        await surveyVotesReady(page);
        const split = await splitWords(page, '.survey__vote, .tile__label');
        expect(split).toEqual([]);
      });
    }
  }
});
