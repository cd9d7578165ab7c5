/**
 * The photo and video galleries (§2) and the photo lightbox (§8, §9).
 * Every expectation is read from the sample API through the `api` fixture, never hard-coded, and
 * every UI string from the dictionaries.
 */
import { LANGUAGES, localizePath } from '../../src/i18n/languages.ts';
import { DICTIONARIES, t } from '../../src/i18n/t.ts';
import { expect, test } from './fixtures.ts';
import { UZ_CYRL, dateIn, content, linkAttributes, NEW_TAB } from './routes-helpers.ts';

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
