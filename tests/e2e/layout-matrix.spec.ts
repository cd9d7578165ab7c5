/**
 * Every page type, in four languages, at 360 and 320 px (phone project) and 1280 and 768 px (desktop
 * project): no control out of the screen or under something else, no sideways scroll, focus never hidden on a
 * Tab walk either way (through the header and footer on the home page, through the content on every page),
 * and text and focus rings at their contrast. Then the layers that open over a page —
 * phone menu, desktop menu group, search dialog, special-opportunities panel in every text size and colour
 * mode, cookie bar, lightbox, 'More' popup — each checked the same way while open.
 *
 * The full width × language matrix runs on the cheapest page for the layers; every page type gets every
 * width and language for the page itself. The checks are in layout-audit.ts.
 */
import type { Page } from '@playwright/test';
import type { ApiClient } from '../../src/api/client.ts';
import { POST_TYPES } from '../../src/api/types.ts';
import { localizePath, type Language } from '../../src/i18n/languages.ts';
import { STORAGE_KEYS } from '../../src/lib/storage.ts';
import { contentPagePath, postPath } from '../../src/lib/paths.ts';
import { SECTIONS } from '../../src/lib/sections.ts';
import { contrastProblems, controlProblems, focusProblemsOn, tabWalk } from './layout-audit.ts';
import { expect, test } from './fixtures.ts';
import { EN, RU, UZ_CYRL, UZ_LATN } from './routes-helpers.ts';

const LANGS = [UZ_LATN, UZ_CYRL, RU, EN];
/**
 * Widths each project tries; the first is the one a Tab walk is made at. A phone's layout is one below 480 px
 * (src/styles/_breakpoints.scss): 320 px is the narrowest of it and 360 the commonest; a wider phone of the
 * same layout has only more room.
 */
const widthsFor = (isMobile: boolean) => (isMobile ? [360, 320] : [1280, 768]);
const heightFor = (width: number) => (width < 1000 ? 640 : 800);
/** How far a Tab walk goes each way on the home page: the header, the start of the content and the footer. */
const TAB_STOPS = 40;
/**
 * How far it goes on every other page, each way from the edges of the content: the header and the footer are
 * the home page's, and walking them again on every page type was most of each test's time (a walk of 40 stops
 * takes 2 to 3 s here).
 */
const CONTENT_TAB_STOPS = 20;
/** The menu's entries for the page that is open: its group and its own link. */
const CURRENT_IN_MENU = '#site-menu summary.is-current, #site-menu [aria-current="page"]';
const DESKTOP_MENU = 992;

type PageType = { name: string; path: (api: ApiClient, lang: Language) => Promise<string> | string };

const PAGE_TYPES: PageType[] = [
  { name: 'home', path: () => '/' },
  { name: 'news list', path: () => '/news' },
  { name: 'news item', path: async (api, lang) => postPath(SECTIONS.news, (await api.postList(POST_TYPES[SECTIONS.news.list], lang.number)).items[0]!.id) },
  { name: 'announcements', path: () => '/announcements-and-tenders' },
  { name: 'photo gallery', path: () => '/gallery/photo' },
  { name: 'video gallery', path: () => '/gallery/video' },
  { name: 'leadership', path: () => '/the-leadership-of-the-regional-administration' },
  { name: 'information page', path: () => '/ekologiya' },
  { name: 'visiting receptions', path: () => '/sayyor_qabullar' },
  { name: 'appeal form', path: () => '/murojaat_yuborish' },
  {
    name: 'content page',
    path: async (api, lang) => {
      const item = (await api.menus(lang.number)).flatMap((g) => g.items).find((i) => i.target.kind === 'page');
      return contentPagePath(item!.target.kind === 'page' ? item!.target.pageId : 0);
    },
  },
  { name: 'not found', path: () => '/404' },
];

/** Each page's one script that sets the visitor's cookie consent before the site's scripts run. */
const consentScripts = new WeakMap<Page, Awaited<ReturnType<Page['addInitScript']>>>();

/** Opens a page as a returning visitor (cookies already accepted) or a first-time one. */
async function open(page: Page, width: number, url: string, { consent = true } = {}) {
  await page.setViewportSize({ width, height: heightFor(width) });
  // Replaced, not added to: a test opens page after page.
  await consentScripts.get(page)?.dispose();
  consentScripts.set(
    page,
    await page.addInitScript(([key, given]) => (given ? localStorage.setItem(key, String(Date.now() + 86_400_000)) : localStorage.removeItem(key)), [
      STORAGE_KEYS.cookieConsent,
      consent,
    ] as const),
  );
  await page.goto(url, { waitUntil: 'load' });
  // The panel's choices work once its inline script has run; island controls (votes) once hydrated.
  await page.locator('#a11y-panel[data-ready="true"]').waitFor({ state: 'attached', timeout: 10_000 });
  await expect(page.locator('[data-ready="false"]').first()).toHaveCount(0, { timeout: 10_000 });
}

/** Collects each check's problems under a heading that says where they were seen. */
function report() {
  const all: string[] = [];
  return {
    add: (where: string, problems: string[]) => all.push(...problems.map((p) => `${where}: ${p}`)),
    problems: all,
  };
}

for (const type of PAGE_TYPES) {
  for (const lang of LANGS) {
    test(`${type.name}: controls in view and uncovered, no sideways scroll, focus seen both ways, contrast (${lang.label})`, async ({ page, api, isMobile }) => {
      test.slow();
      const url = localizePath(lang, await type.path(api, lang));
      const found = report();
      for (const [i, width] of widthsFor(isMobile).entries()) {
        await open(page, width, url);
        if (i === 0 && type.name === 'home') {
          found.add(`${width} px, Tab`, await tabWalk(page, 'Tab', TAB_STOPS));
          await page.locator('footer a').last().focus();
          found.add(`${width} px, Shift+Tab`, await tabWalk(page, 'Shift+Tab', TAB_STOPS));
        } else if (i === 0) {
          // Where the skip link puts focus, and the footer's first link.
          await page.locator('main').focus();
          found.add(`${width} px, Tab from the content's start`, await tabWalk(page, 'Tab', CONTENT_TAB_STOPS));
          await page.locator('footer a').first().focus();
          found.add(`${width} px, Shift+Tab from the footer`, await tabWalk(page, 'Shift+Tab', CONTENT_TAB_STOPS));
          // The menu marks the page's own entry, which it never does on the home page: focus must show over the mark.
          found.add(`${width} px, this page's entry in the menu`, await focusProblemsOn(page, CURRENT_IN_MENU));
        }
        found.add(`${width} px`, await controlProblems(page, null));
        found.add(`${width} px`, await contrastProblems(page, null));
      }
      expect(found.problems).toEqual([]);
    });
  }
}

for (const lang of LANGS) {
  test(`the layers over a page: menu, search, panel in every size and mode, cookie bar (${lang.label})`, async ({ page, isMobile }) => {
    test.slow();
    const url = localizePath(lang, '/maqom');
    const found = report();
    for (const width of widthsFor(isMobile)) {
      // A first visit: the cookie bar's own controls are in view, and Tab from the top never goes under it.
      await open(page, width, url, { consent: false });
      const bar = page.locator('[data-cookie-bar]');
      await expect(bar).toBeVisible();
      found.add(`${width} px, cookie bar`, await controlProblems(page, '[data-cookie-bar]'));
      found.add(`${width} px, cookie bar`, await contrastProblems(page, '[data-cookie-bar]'));
      found.add(`${width} px, cookie bar, Tab`, await tabWalk(page, 'Tab', 15));

      await open(page, width, url);
      if (width < DESKTOP_MENU) {
        await page.locator('[data-nav-toggle]').click();
        await expect(page.locator('#site-menu')).toBeVisible();
        found.add(`${width} px, menu`, await controlProblems(page, '#site-menu'));
        found.add(`${width} px, menu`, await controlProblems(page, '[data-nav-toggle]'));
        found.add(`${width} px, menu`, await contrastProblems(page, '#site-menu'));
        await page.locator('[data-nav-toggle]').click();
      } else {
        await page.locator('#site-menu summary').first().click();
        found.add(`${width} px, menu group`, await controlProblems(page, '#site-menu details[open]'));
        found.add(`${width} px, menu group`, await contrastProblems(page, '#site-menu details[open]'));
        await page.keyboard.press('Escape');
      }

      await page.locator('button.header-button[aria-haspopup="dialog"]:visible').click();
      await expect(page.locator('dialog[open]')).toBeVisible();
      found.add(`${width} px, search`, await controlProblems(page, 'dialog[open]'));
      found.add(`${width} px, search`, await contrastProblems(page, 'dialog[open]'));
      await page.keyboard.press('Escape');

      // The panel, set with its own buttons to each text size in each colour mode.
      await page.locator('.a11y__button:visible').click();
      const panel = page.locator('#a11y-panel');
      await expect(panel).toBeVisible();
      const modes = panel.locator('.a11y-panel__mode');
      const [smaller, larger] = [panel.locator('.a11y-panel__options button').first(), panel.locator('.a11y-panel__options button').nth(1)];
      for (let mode = 0; mode < (await modes.count()); mode++) {
        await modes.nth(mode).click();
        for (let size = 0; ; size++) {
          const where = `${width} px, panel, mode ${mode + 1}, size ${size + 1}`;
          found.add(where, await controlProblems(page, '#a11y-panel'));
          found.add(where, await contrastProblems(page, null));
          if ((await larger.getAttribute('aria-disabled')) === 'true') break;
          await larger.click();
        }
        while ((await smaller.getAttribute('aria-disabled')) !== 'true') await smaller.click();
      }
      await modes.first().click();
      await page.keyboard.press('Escape');
    }
    expect(found.problems).toEqual([]);
  });

  test(`the lightbox and the 'More' popup (${lang.label})`, async ({ page, isMobile }) => {
    test.slow();
    const found = report();
    for (const width of widthsFor(isMobile)) {
      await open(page, width, localizePath(lang, '/gallery/photo'));
      await page.locator('main a[data-lightbox]').nth(1).click();
      const box = page.locator('.glightbox-container');
      await expect(box).toBeVisible();
      // The photo slides in: look once it has stopped.
      await expect(box.locator('.gslide.current')).toBeInViewport({ ratio: 0.9 });
      found.add(`${width} px, lightbox`, await controlProblems(page, '.glightbox-container'));
      await page.keyboard.press('Escape');
      await expect(box).toHaveCount(0);

      await open(page, width, localizePath(lang, '/the-leadership-of-the-regional-administration'));
      await page.locator('.person-card__more').last().click();
      await expect(page.locator('dialog[open]')).toBeVisible();
      found.add(`${width} px, 'More'`, await controlProblems(page, 'dialog[open]'));
      found.add(`${width} px, 'More'`, await contrastProblems(page, 'dialog[open]'));
      found.add(`${width} px, 'More', Tab`, await tabWalk(page, 'Tab', 10));
      await page.keyboard.press('Escape');
    }
    expect(found.problems).toEqual([]);
  });
}
