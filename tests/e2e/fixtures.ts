/**
 * The test fixture: every page may reach only this machine; anything else
 * (hCaptcha, video sites, portals) is answered by a stub or refused, so no
 * test touches the internet. Console errors fail the test.
 */
import AxeBuilder from '@axe-core/playwright';
import { test as base, expect, type Page } from '@playwright/test';
import { createApiClient } from '../../src/api/client.ts';
import { LANGUAGES, type Language } from '../../src/i18n/languages.ts';

/** Set per project in playwright.config.ts. */
export type ProjectOptions = {
  /** The languages axe reads every route template in, at this project's screen size. */
  axeLanguages: Language['code'][];
};

export const test = base.extend<ProjectOptions & { consoleErrors: string[]; api: ReturnType<typeof createApiClient> }>({
  axeLanguages: [LANGUAGES.map((l) => l.code), { option: true }],
  context: async ({ context }, use) => {
    await context.route(/^https?:\/\/(?!127\.0\.0\.1|localhost)/, (route) =>
      route.fulfill({ status: 200, contentType: 'text/html', body: '<!doctype html><title>External stub</title><h1>External stub</h1>' }),
    );
    await use(context);
  },
  consoleErrors: async ({ page }, use) => {
    const errors: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(m.text());
    });
    page.on('pageerror', (e) => errors.push(e.message));
    await use(errors);
    expect(errors, 'console errors').toEqual([]);
  },
  api: async ({}, use) => {
    await use(createApiClient({ baseUrl: process.env.E2E_API_URL!, retries: 0 }));
  },
});

export { expect };

/** Waits until the special-opportunities panel's inline script has run, which it does as the page is read (the browser opens the panel and the search dialog by itself). */
export async function headerReady(page: Page): Promise<void> {
  await page.locator('#a11y-panel[data-ready="true"]').waitFor({ state: 'attached' });
}

/** Waits until the appeal form sends (src/features/appeal/appeal-form.ts has run). */
export async function appealFormReady(page: Page): Promise<void> {
  await page.locator('appeal-form .appeal-form__send[data-ready="true"]').waitFor({ state: 'attached' });
}

/** Waits until the survey buttons vote (src/features/surveys/survey-votes.ts has run). */
export async function surveyVotesReady(page: Page): Promise<void> {
  await page.locator('survey-votes .survey__vote[data-ready="true"]').first().waitFor({ state: 'attached' });
}

/**
 * Axe on `page`, run in the page and its same-origin frames. By default it also reads other sites' frames, and
 * opens a page of its own after each run to put the frames' results together: half of each run's time (2 s
 * against 1 s a page here). The site's only frames, the map's and the videos', are other sites' documents,
 * loaded only when a citizen asks for them, and not ours to fix.
 */
export const axe = (page: Page) => new AxeBuilder({ page }).setLegacyMode(true);

/** The WCAG 2.2 AA rules. */
export const WCAG_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

/** WCAG 2.2 AA problems in the page, one line each; the embedded map is another site's document, not ours to fix. */
export async function axeViolations(page: Page): Promise<string[]> {
  const results = await axe(page).withTags(WCAG_AA).exclude('iframe.map').analyze();
  return results.violations.map((v) => `${v.id}: ${v.help} (${v.nodes.length}) ${v.nodes[0]?.target.join(' ')}`);
}

/**
 * That `locator` is its page's focused element. Not `toBeFocused()`: that also asks `document.hasFocus()`, which with
 * two test workers depends on which page headless Chromium counts as its window's, and failed under load.
 */
export async function expectPageFocus(locator: import('@playwright/test').Locator): Promise<void> {
  await expect.poll(() => locator.evaluate((el) => el.ownerDocument.activeElement === el)).toBe(true);
}
