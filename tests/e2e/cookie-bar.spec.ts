/**
 * The cookie bar with the keyboard and on small screens: it comes right after the skip
 * link in the Tab order, keeps to about a third of a short screen (a page zoomed 400 %), is gone while a
 * modal is open, and never hides the control that has focus, nor does the sticky menu bar (WCAG 2.4.11).
 */
import type { Page } from '@playwright/test';
import { localizePath } from '../../src/i18n/languages.ts';
import { DICTIONARIES } from '../../src/i18n/t.ts';
import { expect, test } from './fixtures.ts';
import { focusUnderBars } from './layout-audit.ts';
import { RU, UZ_LATN } from './routes-helpers.ts';

const region = (page: Page, lang: typeof RU | typeof UZ_LATN) => page.getByRole('region', { name: DICTIONARIES[lang.code]['cookie.region'] });

const barShown = (page: Page) => page.locator('[data-cookie-bar]').evaluate((b) => b.checkVisibility());

for (const lang of [RU, UZ_LATN]) {
  const d = DICTIONARIES[lang.code];

  test(`Tab reaches the cookie bar's button right after the skip link (${lang.label})`, async ({ page }) => {
    await page.goto(localizePath(lang, '/news'));
    const accept = region(page, lang).getByRole('button', { name: d['cookie.accept'] });
    await expect(accept).toBeVisible();
    await page.keyboard.press('Tab');
    await expect(page.getByRole('link', { name: d['skipLink'] })).toBeFocused();
    let stops = 1;
    while (stops < 3 && !(await accept.evaluate((b) => b === document.activeElement))) {
      await page.keyboard.press('Tab');
      stops++;
    }
    await expect(accept, 'the button within the first three Tab stops').toBeFocused();
    // Dismissed from the keyboard, the next Tab goes on into the page.
    await page.keyboard.press('Enter');
    await expect(region(page, lang)).toBeHidden();
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.closest('header, [data-nav-bar]') !== null)).toBe(true);
  });

  test(`on a short screen (320 × 200, a page zoomed 400 %) the bar keeps to a third of it, and says all on demand (${lang.label})`, async ({ page }) => {
    await page.setViewportSize({ width: 320, height: 200 });
    for (const path of ['/', '/news']) {
      await page.goto(localizePath(lang, path));
      const bar = region(page, lang);
      await expect(bar).toBeVisible();
      const box = (await bar.boundingBox())!;
      expect(box.height, `${path}: the bar's height at 200 px`).toBeLessThanOrEqual(0.4 * 200);
      expect(box.y + box.height).toBeCloseTo(200, 0);
      // The whole text is in the bar (the screen shows its first line); its button is in sight.
      await expect(bar).toContainText(d['cookie.text']);
      await expect(bar.getByRole('button', { name: d['cookie.accept'] })).toBeInViewport({ ratio: 1 });
      // The page keeps the bar's height free at its bottom for focus.
      const padding = await page.evaluate(() => parseFloat(getComputedStyle(document.documentElement).scrollPaddingBottom));
      expect(padding).toBeGreaterThanOrEqual(box.height);
    }
    // The details open inside the bar, which then scrolls within half the screen.
    const bar = region(page, lang);
    await bar.getByText(d['cookie.details']).click();
    await expect(bar.getByText(d['cookie.stored'])).toBeAttached();
    expect((await bar.boundingBox())!.height).toBeLessThanOrEqual(0.5 * 200 + 1);
    await bar.getByText(d['cookie.services']).scrollIntoViewIfNeeded();
    await expect(bar.getByText(d['cookie.services'])).toBeInViewport();
    // Nor does the menu bar stick at the top of so short a screen.
    await page.evaluate(() => scrollTo(0, 1000));
    await expect.poll(() => page.evaluate(() => scrollY)).toBeGreaterThan(900);
    await expect(page.locator('[data-nav-bar]')).not.toHaveClass(/is-stuck/);
  });

  test(`while the search dialog is open the bar is gone, not reachable behind its backdrop (${lang.label})`, async ({ page, isMobile }) => {
    await page.goto(localizePath(lang, '/news'));
    const bar = region(page, lang);
    await expect(bar).toBeVisible();
    await page.getByRole('button', { name: d['header.search'] }).click();
    const dialog = page.getByRole('dialog');
    await expect(dialog).toBeVisible();
    await expect(bar).toBeHidden();
    for (let i = 0; i < 6; i++) {
      await page.keyboard.press('Tab');
      expect(await page.evaluate(() => document.activeElement?.closest('[data-cookie-bar]') === null)).toBe(true);
    }
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await expect(bar).toBeVisible();
    // The phone menu's overlay as well.
    if (isMobile) {
      await page.getByRole('button', { name: d['nav.menu'] }).click();
      await expect(bar).toBeHidden();
      await page.getByRole('button', { name: d['nav.menu'] }).click();
      await expect(bar).toBeVisible();
    }
  });

  test(`while the lightbox is open the bar is gone (${lang.label})`, async ({ page }) => {
    await page.goto(localizePath(lang, '/gallery/photo'));
    const bar = region(page, lang);
    await expect(bar).toBeVisible();
    await page.locator('main a[data-lightbox]').first().click();
    await expect(page.locator('.glightbox-container')).toBeVisible();
    await expect(bar).toBeHidden();
    await page.keyboard.press('Escape');
    await expect(page.locator('.glightbox-container')).toHaveCount(0);
    await expect(bar).toBeVisible();
  });
}

for (const lang of [RU, UZ_LATN]) {
  for (const { width, height } of [
    { width: 360, height: 640 },
    { width: 320, height: 200 },
  ]) {
    test(`at ${width} × ${height}, Tab never focuses a control under the cookie bar or the sticky bar (${lang.label})`, async ({ page }) => {
      await page.setViewportSize({ width, height });
      await page.goto(localizePath(lang, '/news'));
      await expect(region(page, lang)).toBeVisible();
      const hidden: string[] = [];
      let withBar = 0;
      // Forward from the top, while the bar is there (scrolling a quarter of the page accepts it).
      for (let i = 0; i < 60 && (await barShown(page)); i++) {
        await page.keyboard.press('Tab');
        const h = await focusUnderBars(page);
        if (h) hidden.push(`Tab ${i + 1}: ${h}`);
        withBar++;
      }
      expect(withBar, 'Tab stops walked with the bar shown').toBeGreaterThanOrEqual(10);
      // Backward from the end, with the menu bar stuck at the top.
      await page.locator('footer a').last().focus();
      for (let i = 0; i < 40; i++) {
        await page.keyboard.press('Shift+Tab');
        const h = await focusUnderBars(page);
        if (h) hidden.push(`Shift+Tab ${i + 1}: ${h}`);
      }
      expect(hidden).toEqual([]);
    });
  }
}
