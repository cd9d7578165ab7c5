/**
 * The photo and video galleries and the photo lightbox (docs/rules.md, Lightbox): its thumbnails, slideshow and
 * the message for a photo that cannot be loaded.
 * Every expectation is read from the sample API through the `api` fixture, never hard-coded, and
 * every UI string from the dictionaries.
 */
import { LANGUAGES, localizePath } from '../../src/i18n/languages.ts';
import { DICTIONARIES, t } from '../../src/i18n/t.ts';
import { expect, test } from './fixtures.ts';
import { RU, UZ_CYRL, UZ_LATN, dateIn, content, linkAttributes, NEW_TAB } from './routes-helpers.ts';

test.describe('galleries', () => {
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

  for (const lang of [RU, UZ_LATN]) {
    test(`the lightbox is a dialog named by its photo: focus moves in, Tab goes round inside, Escape gives focus back to the photo (${lang.label})`, async ({
      page,
      api,
      isMobile,
      consoleErrors,
    }) => {
      const d = DICTIONARIES[lang.code];
      const groups = await api.photoGroups(lang.number);
      const index = groups.findIndex((g) => g.photos.length >= 3);
      const group = groups[index]!;
      await page.goto(localizePath(lang, '/gallery/photo'));
      const photos = content(page).locator('section.photo-group').nth(index).locator('a[data-lightbox]');
      const total = await photos.count();
      const named = (n: number) => page.getByRole('dialog', { name: t(lang, 'lightbox.name', { n, total, title: group.title }), exact: true });

      // Opened from the keyboard on the second photo: a modal dialog named by that photo, focus on its close button.
      await photos.nth(1).focus();
      await page.keyboard.press('Enter');
      const dialog = named(2);
      await expect(dialog).toBeVisible();
      await expect(dialog).toHaveAttribute('aria-modal', 'true');
      const close = dialog.getByRole('button', { name: d['person.close'], exact: true });
      await expect(close).toBeFocused();
      // And in sight, which photo of how many; the arrow key turns it.
      const counter = page.locator('.glightbox-container .glb-counter');
      await expect(counter).toHaveText(t(lang, 'lightbox.counter', { n: 2, total }));
      await expect(counter).toBeInViewport();
      await page.keyboard.press('ArrowRight');
      await expect(counter).toHaveText(t(lang, 'lightbox.counter', { n: 3, total }));
      await page.keyboard.press('ArrowLeft');
      await expect(named(2)).toBeVisible();
      await expect(close).toBeFocused();

      // 'Previous' and 'next' can be seen and tapped: inside the screen, at least 44×44 px, on a phone too.
      const widths = isMobile ? [360, 320, 412] : [1280];
      for (const width of widths) {
        await page.setViewportSize({ width, height: isMobile ? 740 : 800 });
        for (const name of [d['carousel.previous'], d['carousel.next'], d['person.close']]) {
          const box = (await dialog.getByRole('button', { name, exact: true }).boundingBox())!;
          expect(box, `${name} at ${width} px`).toBeTruthy();
          expect(box.width, `${name} at ${width} px`).toBeGreaterThanOrEqual(44);
          expect(box.height, `${name} at ${width} px`).toBeGreaterThanOrEqual(44);
          expect(box.x, `${name} at ${width} px`).toBeGreaterThanOrEqual(0);
          expect(box.y, `${name} at ${width} px`).toBeGreaterThanOrEqual(0);
          expect(box.x + box.width, `${name} at ${width} px`).toBeLessThanOrEqual(width);
        }
      }
      await page.setViewportSize({ width: isMobile ? 360 : 1280, height: isMobile ? 740 : 800 });

      // Tab goes round the controls inside, each in sight; Shift+Tab goes back the same way.
      const focused = () =>
        page.evaluate(() => {
          const el = document.activeElement as HTMLElement;
          const r = el.getBoundingClientRect();
          return {
            inside: el.closest('[role="dialog"]') !== null,
            seen: r.width > 0 && r.left >= 0 && r.top >= 0 && r.right <= innerWidth && r.bottom <= innerHeight,
            name: el.getAttribute('aria-label') ?? el.textContent,
          };
        });
      const forward: string[] = [];
      for (let i = 0; i < total + 6; i++) {
        await page.keyboard.press('Tab');
        const at = await focused();
        expect(at.inside, `Tab ${i + 1}: ${at.name}`).toBe(true);
        expect(at.seen, `Tab ${i + 1}: ${at.name}`).toBe(true);
        forward.push(at.name!);
      }
      // Round: after the last control comes the close button again, then the same controls in the same order.
      expect(forward[total + 3]).toBe(d['person.close']);
      expect(forward.slice(-2)).toEqual(forward.slice(0, 2));
      expect(forward).toContain(d['carousel.previous']);
      expect(forward).toContain(d['carousel.next']);
      expect(forward).toContain(d['lightbox.play']);
      const back: string[] = [];
      for (let i = 0; i < 3; i++) {
        await page.keyboard.press('Shift+Tab');
        const at = await focused();
        expect(at.inside).toBe(true);
        back.push(at.name!);
      }
      expect(back).toEqual(forward.slice(-4, -1).reverse());

      // The name follows the photo: 'next' by touch or click, and the arrow keys.
      await dialog.getByRole('button', { name: d['carousel.next'], exact: true }).click();
      await expect(named(3)).toBeVisible();
      await page.keyboard.press('ArrowLeft');
      await expect(named(2)).toBeVisible();
      await page.keyboard.press('ArrowLeft');
      await expect(named(1)).toBeVisible();
      // On the first photo there is no 'previous', for a screen reader either, and Tab passes it by.
      await expect(named(1).locator('.gprev')).toHaveAttribute('aria-disabled', 'true');
      await named(1).getByRole('button', { name: d['person.close'], exact: true }).focus();
      await page.keyboard.press('Tab');
      await expect(named(1).getByRole('button', { name: d['carousel.next'], exact: true })).toBeFocused();

      // Escape closes it and gives focus back to the photo that opened it.
      await page.keyboard.press('Escape');
      await expect(page.locator('.glightbox-container')).toHaveCount(0);
      await expect(photos.nth(1)).toBeFocused();
      await expect(page.getByRole('dialog')).toHaveCount(0);
      expect(consoleErrors).toEqual([]);
    });
  }

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

test.describe('lightbox', () => {
  for (const lang of [UZ_LATN, RU]) {
    test(`shows thumbnails and a slideshow button, and a localised message for a photo that cannot be loaded (${lang.label})`, async ({ page }) => {
      const d = DICTIONARIES[lang.code];
      await page.goto(localizePath(lang, '/gallery/photo'));
      const photos = page.locator('main section.photo-group').first().locator('a[data-lightbox]');
      const count = await photos.count();
      expect(count).toBeGreaterThanOrEqual(2);
      // The second photo's large picture is missing on the server.
      const broken = new URL((await photos.nth(1).getAttribute('href'))!, page.url()).href;
      await page.route(
        (url) => url.href === broken,
        (route) => route.fulfill({ status: 404, body: '' }),
      );

      await photos.first().click();
      const box = page.locator('.glightbox-container');
      await expect(box).toBeVisible();
      const thumbs = box.getByRole('list', { name: d['lightbox.thumbnails'] }).getByRole('button');
      await expect(thumbs).toHaveCount(count);
      await expect(thumbs.first()).toHaveAttribute('aria-current', 'true');
      await expect(box.getByRole('button', { name: d['carousel.next'] })).toBeVisible();
      const play = box.getByRole('button', { name: d['lightbox.play'] });
      await expect(play).toBeVisible();
      await play.click();
      await expect(box.getByRole('button', { name: d['lightbox.pause'] })).toBeVisible();
      await box.getByRole('button', { name: d['lightbox.pause'] }).click();

      // The broken photo, chosen by its thumbnail: the message, not an endless spinner.
      await thumbs.nth(1).click();
      await expect(thumbs.nth(1)).toHaveAttribute('aria-current', 'true');
      await expect(box.locator('.gslide.current').getByRole('alert')).toHaveText(d['lightbox.notFound']);
      await page.keyboard.press('Escape');
      await expect(box).toHaveCount(0);

      // Opened directly on the broken photo, too.
      await photos.nth(1).click();
      await expect(page.locator('.glightbox-container .gslide.current').getByRole('alert')).toHaveText(d['lightbox.notFound']);
      await expect(page.locator('.glightbox-container .gloader')).toBeHidden();
    });
  }

  test('the slideshow turns a photo every 3 seconds', async ({ page }) => {
    await page.goto('/gallery/photo');
    await page.locator('main a[data-lightbox]').first().click();
    const thumbs = page.locator('.glb-thumbs button');
    await expect(thumbs.first()).toHaveAttribute('aria-current', 'true');
    await page.getByRole('button', { name: DICTIONARIES['uz-latn']['lightbox.play'] }).click();
    await page.waitForTimeout(2500);
    await expect(thumbs.first()).toHaveAttribute('aria-current', 'true');
    await expect(thumbs.nth(1)).toHaveAttribute('aria-current', 'true', { timeout: 1500 });
  });
});
