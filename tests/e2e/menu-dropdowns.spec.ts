/**
 * On wide screens each group of the main menu opens a dropdown over the page: every dropdown, in every
 * language, at the narrowest and a common desktop width and at normal and largest text, opens wholly inside
 * the screen, whether it is opened by a click or from the keyboard. The desktop project runs it: on phones the
 * menu is an overlay, which the layout matrix checks.
 */
import type { Page } from '@playwright/test';
import { A11Y_STORAGE_KEY, ZOOM_STEPS } from '../../src/features/accessibility-panel/accessibility.ts';
import { localizePath } from '../../src/i18n/languages.ts';
import { STORAGE_KEYS } from '../../src/lib/storage.ts';
import { expect, test } from './fixtures.ts';
import { EN, RU, UZ_CYRL, UZ_LATN } from './routes-helpers.ts';

/** The narrowest width with the desktop menu (src/styles/_breakpoints.scss), and a common laptop's. */
const WIDTHS = [992, 1280];
const LARGEST = ZOOM_STEPS.length - 1;

/** Where each open dropdown lies against the screen: the groups whose list is not wholly in it. */
async function outOfScreen(page: Page, open: (summary: ReturnType<Page['locator']>) => Promise<void>): Promise<string[]> {
  const found: string[] = [];
  const summaries = page.locator('#site-menu .site-menu__group:not(.site-menu__group--top) > details > summary');
  for (let i = 0; i < (await summaries.count()); i++) {
    const summary = summaries.nth(i);
    await open(summary);
    const list = page.locator('#site-menu details[open] .site-menu__items');
    await expect(list).toBeVisible();
    const [box, width] = await Promise.all([list.boundingBox(), page.evaluate(() => document.documentElement.clientWidth)]);
    if (!box || box.x < 0 || box.x + box.width > width) {
      found.push(`"${(await summary.innerText()).trim()}" opens at ${Math.round(box?.x ?? NaN)}…${Math.round((box?.x ?? NaN) + (box?.width ?? NaN))} px of ${width}`);
    }
    await page.keyboard.press('Escape');
    await expect(page.locator('#site-menu details[open]')).toHaveCount(0);
  }
  return found;
}

for (const lang of [UZ_LATN, UZ_CYRL, RU, EN]) {
  for (const zoom of [0, LARGEST]) {
    const size = zoom ? 'largest' : 'normal';
    test(`every dropdown of the menu opens inside the screen, by click and by keyboard, at ${size} text (${lang.label})`, async ({ page }) => {
      const found: string[] = [];
      await page.addInitScript(
        ([a11y, consent, value]) => {
          localStorage.setItem(a11y, value);
          localStorage.setItem(consent, String(Date.now() + 86_400_000));
        },
        [A11Y_STORAGE_KEY, STORAGE_KEYS.cookieConsent, JSON.stringify({ mode: 'normal', zoom })] as const,
      );
      for (const width of WIDTHS) {
        await page.setViewportSize({ width, height: 800 });
        await page.goto(localizePath(lang, '/'));
        const where = `${width} px, ${size} text`;
        found.push(...(await outOfScreen(page, (s) => s.click())).map((p) => `${where}, click: ${p}`));
        found.push(
          ...(
            await outOfScreen(page, async (s) => {
              await s.focus();
              await page.keyboard.press('Enter');
            })
          ).map((p) => `${where}, keyboard: ${p}`),
        );
      }
      expect(found).toEqual([]);
    });
  }
}

test('a dropdown is in its place before the browser can draw it (Oʻzbekcha, largest text, 1280 px)', async ({ page }) => {
  await page.addInitScript(
    ([a11y, consent, value]) => {
      localStorage.setItem(a11y, value);
      localStorage.setItem(consent, String(Date.now() + 86_400_000));
    },
    [A11Y_STORAGE_KEY, STORAGE_KEYS.cookieConsent, JSON.stringify({ mode: 'normal', zoom: LARGEST })] as const,
  );
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(localizePath(UZ_LATN, '/'));
  // Opened and measured in one task and its microtasks: no frame, and no event task, comes between.
  const outside = await page.evaluate(async () => {
    const found: string[] = [];
    const width = document.documentElement.clientWidth;
    for (const summary of document.querySelectorAll<HTMLElement>('#site-menu .site-menu__group:not(.site-menu__group--top) > details > summary')) {
      summary.click();
      await Promise.resolve();
      const { left, right } = summary.parentElement!.querySelector('.site-menu__items')!.getBoundingClientRect();
      if (left < 0 || right > width) found.push(`"${summary.innerText.trim()}" at ${Math.round(left)}…${Math.round(right)} px of ${width}`);
      summary.click();
      await Promise.resolve();
    }
    return found;
  });
  expect(outside).toEqual([]);
});
