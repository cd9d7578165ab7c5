/** Keyboard-only use: skip link, menus, the photo lightbox, and the error screen of a render crash (docs/rules.md, Error screen). */
import { LANGUAGES, localizePath } from '../../src/i18n/languages.ts';
import { DICTIONARIES } from '../../src/i18n/t.ts';
import { expect, test } from './fixtures.ts';

for (const lang of [LANGUAGES[0], LANGUAGES[3]]) {
  const d = DICTIONARIES[lang.code];

  test(`the first Tab shows the skip link, which moves focus to the content (${lang.label})`, async ({ page }) => {
    await page.goto(localizePath(lang, '/news'));
    await page.keyboard.press('Tab');
    const skip = page.getByRole('link', { name: d['skipLink'] });
    await expect(skip).toBeFocused();
    await expect(skip).toBeInViewport();
    await page.keyboard.press('Enter');
    await expect(page.locator('main')).toBeFocused();
  });

  test(`a menu group opens with the keyboard and Escape closes it, returning focus (${lang.label})`, async ({ page, isMobile }) => {
    await page.goto(localizePath(lang, '/'));
    if (isMobile) {
      // One name, "Menu", whose state says whether the menu is open.
      const toggle = page.locator('button[aria-controls="site-menu"]');
      await expect(toggle).toHaveAccessibleName(d['nav.menu']);
      await expect(toggle).toHaveAttribute('aria-expanded', 'false');
      await toggle.focus();
      await page.keyboard.press('Enter');
      await expect(page.locator('#site-menu')).toBeVisible();
      await expect(toggle).toHaveAttribute('aria-expanded', 'true');
      await expect(toggle).toHaveAccessibleName(d['nav.menu']);
      await page.keyboard.press('Escape');
      await expect(toggle).toHaveAttribute('aria-expanded', 'false');
      await expect(toggle).toBeFocused();
      return;
    }
    const summary = page.locator('#site-menu summary').first();
    await summary.focus();
    await page.keyboard.press('Enter');
    const firstLink = page.locator('#site-menu details[open] a').first();
    await expect(firstLink).toBeVisible();
    await page.keyboard.press('Tab');
    await expect(firstLink).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(page.locator('#site-menu details[open]')).toHaveCount(0);
    await expect(summary).toBeFocused();
  });

  test(`a photo opens in the lightbox from the keyboard, focus stays inside, and Escape returns it to the photo (${lang.label})`, async ({ page }) => {
    await page.goto(localizePath(lang, '/gallery/photo'));
    const photo = page.locator('main a[data-lightbox]').nth(1);
    await photo.focus();
    await page.keyboard.press('Enter');
    const box = page.locator('.glightbox-container');
    await expect(box).toBeVisible();
    // Tabbing walks the lightbox's own buttons and never reaches the page behind it.
    for (let i = 0; i < 5; i++) {
      await page.keyboard.press('Tab');
      expect(await page.evaluate(() => document.activeElement?.closest('.glightbox-container') !== null)).toBe(true);
    }
    await page.keyboard.press('Escape');
    await expect(box).toHaveCount(0);
    await expect(photo).toBeFocused();
  });

  test(`the error screen offers to reload (${lang.label})`, async ({ page }) => {
    await page.goto(localizePath(lang, '/500'));
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(d['error.title']);
    const reload = page.getByRole('button', { name: d['error.reload'] });
    await reload.focus();
    const navigation = page.waitForEvent('framenavigated');
    await page.keyboard.press('Enter');
    await navigation;
    await expect(page).toHaveURL(new RegExp(`${localizePath(lang, '/500')}$`));
  });
}
