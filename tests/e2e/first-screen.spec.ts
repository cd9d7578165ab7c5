/**
 * What a phone shows first, at the normal and the largest text size, in four languages: how much of the screen the
 * header and menu bar take, the appeal button above a first visit's cookie bar, the bar's four controls in one row,
 * words that stay whole, icons that grow with the text, no text under 16 px, and the colour modes. On a wide screen: the hero's text
 * starts where the page's content does, and every group of the top strip shows that it opens.
 */
import type { Page } from '@playwright/test';
import { localizePath, type Language } from '../../src/i18n/languages.ts';
import { DICTIONARIES } from '../../src/i18n/t.ts';
import { STORAGE_KEYS } from '../../src/lib/storage.ts';
import { ZOOM_STEPS } from '../../src/features/accessibility-panel/accessibility.ts';
import { expect, test } from './fixtures.ts';
import { smallText, splitWords } from './layout-audit.ts';
import { EN, RU, UZ_CYRL, UZ_LATN } from './routes-helpers.ts';

const LANGS = [UZ_LATN, UZ_CYRL, RU, EN];
const PHONE = { width: 360, height: 740 };
const LARGEST = ZOOM_STEPS.length - 1;
const LARGEST_SCALE = ZOOM_STEPS[LARGEST]!;
/** The share of a phone's screen that the header and the menu bar may take before the page's own content. */
const HEADER_SHARE = { normal: 0.25, largest: 0.35 };
/** How tall the home page may be on a phone at the normal text size. */
const HOME_MAX_PX = 10_000;
/** Text that must never break inside a word: headings, the controls' names, the menu and the footer's links. */
const WHOLE_WORDS = 'h1, h2, h3, button, summary, label, .brand, .site-footer a, .tile__label';

async function open(page: Page, lang: Language, path: string, { zoom = 0, consent = true } = {}) {
  await page.setViewportSize(PHONE);
  await page.addInitScript(
    ([keys, zoom, consent]) => {
      localStorage.setItem(keys.a11y, JSON.stringify({ mode: 'normal', zoom }));
      if (consent) localStorage.setItem(keys.cookieConsent, String(Date.now() + 86_400_000));
    },
    [STORAGE_KEYS, zoom, consent] as const,
  );
  await page.goto(localizePath(lang, path));
}

const mainTop = (page: Page) => page.locator('main').evaluate((main) => main.getBoundingClientRect().top);

for (const lang of LANGS) {
  const d = DICTIONARIES[lang.code];

  test(`a first visit on a phone: the header takes a quarter of the screen at most, the appeal button stands above the cookie bar, the page is not endless (${lang.label})`, async ({
    page,
  }) => {
    await open(page, lang, '/', { consent: false });
    await expect(page.locator('[data-cookie-bar]')).toBeVisible();
    expect(await mainTop(page)).toBeLessThanOrEqual(PHONE.height * HEADER_SHARE.normal);
    const button = page.locator('.hero').getByRole('link', { name: d['home.heroButton'] });
    await expect(button).toBeInViewport({ ratio: 1 });
    // What a tap at its middle reaches is the button itself, not the bar over it.
    const covered = await button.evaluate((a) => {
      const r = a.getBoundingClientRect();
      return !a.contains(document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2));
    });
    expect(covered).toBe(false);
    // The whole home page: under 10,000 px, where six full cards, every video and the same news twice made it 13,000.
    expect(await page.evaluate(() => document.documentElement.scrollHeight)).toBeLessThan(HOME_MAX_PX);
  });

  test(`the largest text on a phone: a header of a third of the screen, the bar's four controls in one row, whole words, larger icons (${lang.label})`, async ({ page }) => {
    await open(page, lang, '/');
    const normalIcon = await page.locator('[data-nav-bar] .icon').first().boundingBox();
    await open(page, lang, '/', { zoom: LARGEST });
    await expect(page.locator('body')).toHaveClass(new RegExp(`zoom-${LARGEST}`));
    expect(await mainTop(page)).toBeLessThanOrEqual(PHONE.height * HEADER_SHARE.largest);
    const largeIcon = await page.locator('[data-nav-bar] .icon').first().boundingBox();
    expect(largeIcon!.width / normalIcon!.width).toBeGreaterThanOrEqual(LARGEST_SCALE - 0.05);

    const bar = page.locator('[data-nav-bar]');
    const controls = [
      bar.getByRole('button', { name: d['nav.menu'] }),
      bar.getByRole('button', { name: d['header.search'] }),
      bar.getByRole('button', { name: d['header.accessibility'] }),
      bar.getByRole('button', { name: new RegExp(`^${d['header.language']}:`) }),
    ];
    const tops = await Promise.all(controls.map(async (c) => Math.round((await c.boundingBox())!.y)));
    expect(new Set(tops).size, `tops ${tops.join(', ')}`).toBe(1);

    for (const path of ['/', '/news', '/murojaat_yuborish', '/the-leadership-of-the-regional-administration']) {
      await page.goto(localizePath(lang, path));
      expect(await splitWords(page, WHOLE_WORDS), path).toEqual([]);
    }
  });

  test(`the colour modes: high contrast is black and white, and light on dark is a mode of its own (${lang.label})`, async ({ page }) => {
    await open(page, lang, '/news');
    await page.getByRole('button', { name: d['header.accessibility'] }).click();
    const panel = page.getByRole('dialog', { name: d['a11y.title'] });
    const colours = () =>
      page.evaluate(() => {
        const of = (selector: string) => getComputedStyle(document.querySelector(selector)!);
        return { header: of('.site-header').backgroundColor, page: of('body').backgroundColor, text: of('body').color, link: of('main a').color };
      });
    await panel.getByRole('button', { name: d['a11y.contrast'] }).click();
    expect(await colours()).toEqual({ header: 'rgb(0, 0, 0)', page: 'rgb(255, 255, 255)', text: 'rgb(0, 0, 0)', link: 'rgb(0, 0, 0)' });
    await panel.getByRole('button', { name: d['a11y.dark'] }).click();
    await expect(page.locator('body')).toHaveClass(/mode-dark/);
    // A dark ground under light text (their contrast in every mode and size is the layout matrix's).
    const dark = await colours();
    const lightness = (rgb: string) => (rgb.match(/\d+/g) ?? []).slice(0, 3).reduce((sum, v) => sum + Number(v), 0) / 3;
    expect(lightness(dark.page)).toBeLessThan(40);
    expect(lightness(dark.text)).toBeGreaterThan(200);
    expect(lightness(dark.header)).toBeLessThan(80);
  });

  test(`a first visit at the largest text on a phone: the cookie bar's words stay whole (${lang.label})`, async ({ page }) => {
    for (const width of [320, PHONE.width]) {
      await open(page, lang, '/', { zoom: LARGEST, consent: false });
      await page.setViewportSize({ width, height: PHONE.height });
      await expect(page.locator('[data-cookie-bar]')).toBeVisible();
      expect(await splitWords(page, '[data-cookie-bar] :is(p, summary, button)'), `${width} px`).toEqual([]);
    }
  });

  test(`no text smaller than 16 px on a phone (${lang.label})`, async ({ page }) => {
    for (const path of ['/', '/news', '/murojaat_yuborish']) {
      await open(page, lang, path);
      expect(await smallText(page, 16), path).toEqual([]);
    }
  });

  test(`a wide screen: the hero's text starts where the content does; every group of the top strip shows that it opens (${lang.label})`, async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(localizePath(lang, '/'));
    const heroX = (await page.locator('.hero h1').boundingBox())!.x;
    const contentX = (await page.locator('#latest-news').boundingBox())!.x;
    expect(Math.abs(heroX - contentX)).toBeLessThanOrEqual(1);
    const groups = page.locator('.top-strip summary');
    expect(await groups.count()).toBeGreaterThan(0);
    const arrows = await groups.evaluateAll((summaries) => summaries.map((s) => getComputedStyle(s, '::after').content));
    expect(arrows.every((content) => content !== 'none' && content !== 'normal')).toBe(true);
    expect(await smallText(page, 16)).toEqual([]);
    // At the largest text, the header's names and the menu's still break only between words.
    await page.addInitScript(([key, zoom]) => localStorage.setItem(key, JSON.stringify({ mode: 'normal', zoom })), [STORAGE_KEYS.a11y, LARGEST] as const);
    await page.reload();
    await expect(page.locator('body')).toHaveClass(new RegExp(`zoom-${LARGEST}`));
    expect(await splitWords(page, `.site-header :is(${WHOLE_WORDS}), .site-header a`)).toEqual([]);
  });
}
