/**
 * WCAG 2.2 AA checks with axe-core on every route template in all four
 * languages (two on the phone, the other two on the desktop: see
 * playwright.config.ts), with the modals open and in every colour mode and
 * text size.
 */
import { LANGUAGES, localizePath } from '../../src/i18n/languages.ts';
import { DICTIONARIES } from '../../src/i18n/t.ts';
import { COLOUR_MODES, ZOOM_STEPS } from '../../src/features/accessibility-panel/accessibility.ts';
import { axe, axeViolations as violations, expect, headerReady, test } from './fixtures.ts';
import { RU, UZ_LATN } from './routes-helpers.ts';
import { STORAGE_KEYS } from '../../src/lib/storage.ts';

const TEMPLATES = [
  '/',
  '/news',
  '/news/page/1',
  '/official-lectures',
  '/announcements-and-tenders',
  '/page/1',
  '/gallery/photo',
  '/gallery/video',
  '/mayors-of-cities-and-districts',
  '/information-about-the-province',
  '/boshqaruv_apparati_tuzilmasi',
  '/answers-to-frequently-asked-questions',
  '/ekoturizm',
  '/social-questionnaire',
  '/murojaat_yuborish',
  '/sayyor_qabullar',
  '/tarixiy_shaxslar',
  '/search?q=tuman',
  '/accessibility',
  '/privacy',
  '/site-map',
  '/500',
  '/no-such-page',
];

// One test per template, each in this screen size's languages: a failure names its page, and no test runs long.
for (const path of [...TEMPLATES, '/news/{first}']) {
  test(`${path} passes axe`, async ({ page, api, axeLanguages }) => {
    for (const lang of LANGUAGES.filter((l) => axeLanguages.includes(l.code))) {
      const firstNews = path.includes('{first}') ? (await api.postList(1, lang.number, 1)).items[0]!.id : 0;
      await page.goto(localizePath(lang, path.replace('{first}', String(firstNews))));
      expect.soft(await violations(page), `${lang.code} ${path}`).toEqual([]);
    }
  });
}

test('passes with the search modal, the panel, the leader popup and the lightbox open', async ({ page, api }) => {
  const d = DICTIONARIES.ru;
  await page.goto('/ru/');
  await page.getByRole('button', { name: d['header.search'] }).click();
  await expect(page.getByRole('dialog', { name: d['search.title'] })).toBeVisible();
  expect(await violations(page), 'search dialog').toEqual([]);
  await page.getByLabel(d['search.label']).fill((await api.postList(1, 3, 1)).items[0]!.title.split(' ')[1]!);
  await page.keyboard.press('Enter');
  await expect(page.locator('[data-search-results]').getByRole('link').first()).toBeVisible();
  expect(await violations(page), 'search page').toEqual([]);
  await page.goto('/ru/');
  await headerReady(page);

  await page.getByRole('button', { name: d['header.accessibility'] }).click();
  await expect(page.getByRole('dialog', { name: d['a11y.title'] })).toBeVisible();
  expect(await violations(page), 'panel').toEqual([]);

  await page.goto('/ru/information-service');
  await page
    .getByRole('button', { name: new RegExp(d['person.more']) })
    .first()
    .click();
  await expect(page.locator('dialog[open]')).toBeVisible();
  expect(await violations(page), 'popup').toEqual([]);

  await page.goto('/ru/gallery/photo');
  await page.locator('a[data-lightbox]').first().click();
  await expect(page.locator('.glightbox-container')).toBeVisible();
  expect(await violations(page), 'lightbox').toEqual([]);
});

test('passes in every colour mode and text size', async ({ page }) => {
  test.slow();
  for (const mode of COLOUR_MODES) {
    for (let zoom = 0; zoom < ZOOM_STEPS.length; zoom++) {
      await page.addInitScript(([key, s]) => localStorage.setItem(key, s), [STORAGE_KEYS.a11y, JSON.stringify({ mode, zoom })] as const);
      await page.goto('/en/news');
      expect.soft(await violations(page), `${mode} ${zoom}`).toEqual([]);
    }
  }
});

for (const lang of [RU, UZ_LATN]) {
  test(`everything is inside a landmark, the test-mode note too, and headings go down one level at a time (${lang.label})`, async ({ page, api }) => {
    // Eight pages, each read by axe: near the default 30 s on a busy 2-core machine.
    test.slow();
    const d = DICTIONARIES[lang.code];
    const firstNews = (await api.postList(1, lang.number, 1)).items[0]!.id;
    // /page/2's text from the API starts with an <h3> right under the page's <h1>.
    for (const path of ['/', '/news', `/news/${firstNews}`, '/page/1', '/page/2', '/tarixiy_shaxslar', '/gallery/photo', '/information-service']) {
      await page.goto(localizePath(lang, path));
      // 'region' and 'heading-order' are axe's best practices, outside the WCAG tags run above.
      const results = await axe(page).withRules(['region', 'heading-order', 'empty-heading']).analyze();
      expect
        .soft(
          results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
          `${lang.code} ${path}`,
        )
        .toEqual([]);
      await expect(page.getByRole('banner').getByRole('note')).toHaveText(d['site.testMode']);
      // In the main content (popups included): one h1 first, then never more than one level down at a time.
      const levels = await page.locator('main').evaluate((main) => [...main.querySelectorAll('h1, h2, h3, h4, h5, h6')].map((h) => Number(h.tagName[1])));
      expect.soft(levels[0], `${lang.code} ${path}`).toBe(1);
      expect
        .soft(
          levels.filter((level, i) => i > 0 && level > levels[i - 1]! + 1),
          `${lang.code} ${path}: ${levels.join(' ')}`,
        )
        .toEqual([]);
    }
  });

  test(`toasts follow the colour mode: text and close button at 4.5:1 or more, and a visible focus ring (${lang.label})`, async ({ page, api }) => {
    const d = DICTIONARIES[lang.code];
    const survey = (await api.surveys(lang.number))[1]!;
    // A vote that cannot reach the server brings a toast.
    await page.route(new RegExp(`^${process.env.E2E_API_URL}/api/survey/answer`), (route) => route.abort('connectionrefused'));
    for (const mode of ['normal', 'contrast', 'dark'] as const) {
      await page.addInitScript(([key, s]) => localStorage.setItem(key, s), [STORAGE_KEYS.a11y, JSON.stringify({ mode, zoom: 0 })] as const);
      await page.goto(localizePath(lang, '/'));
      if (mode !== 'normal') await expect(page.locator('body')).toHaveClass(new RegExp(`mode-${mode}`));
      const card = page.locator('.survey').filter({ hasText: survey.title });
      await card.scrollIntoViewIfNeeded();
      const dislike = card.getByRole('button', { name: new RegExp(d['survey.dislike']) });
      await expect(dislike).toBeEnabled();
      await dislike.focus();
      await page.keyboard.press('Enter');
      const toast = page.locator('.swal2-toast').filter({ hasText: d['survey.failed'] });
      await expect(toast).toBeVisible();
      // Read at once, in one call: the toast closes after 2 s.
      const seen = await toast.evaluate(async (popup) => {
        const rgb = (c: string) => (c.match(/[\d.]+/g) ?? []).slice(0, 3).map(Number);
        const lum = (c: string) =>
          rgb(c)
            .map((v) => ((v /= 255) <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4))
            .reduce((sum, v, i) => sum + v * [0.2126, 0.7152, 0.0722][i]!, 0);
        const ratio = (a: string, b: string) => (Math.max(lum(a), lum(b)) + 0.05) / (Math.min(lum(a), lum(b)) + 0.05);
        const background = getComputedStyle(popup).backgroundColor;
        const text = popup.querySelector<HTMLElement>('.swal2-html-container')!;
        const close = popup.querySelector<HTMLButtonElement>('.swal2-close')!;
        const closeBox = close.getBoundingClientRect();
        close.focus();
        // sweetalert2 fades the ring in over 0.2 s.
        await new Promise((done) => setTimeout(done, 300));
        const ring = getComputedStyle(close);
        // The site's own tokens, as the page's body has them in this mode.
        const token = (name: string) => {
          const probe = document.createElement('span');
          probe.style.color = `var(${name})`;
          document.body.append(probe);
          const value = getComputedStyle(probe).color;
          probe.remove();
          return value;
        };
        return {
          text: ratio(getComputedStyle(text).color, background),
          close: ratio(getComputedStyle(close).color, background),
          closeSize: [closeBox.width, closeBox.height],
          colours: [background, getComputedStyle(text).color, getComputedStyle(popup).borderTopColor],
          tokens: [token('--color-surface'), token('--color-text'), token('--color-border')],
          focusVisible: close.matches(':focus-visible'),
          outline: [ring.outlineStyle, parseFloat(ring.outlineWidth), ring.outlineColor],
          focusToken: token('--color-focus'),
          innerRing: ring.boxShadow,
        };
      });
      expect(seen.text, `${mode}: text`).toBeGreaterThanOrEqual(4.5);
      expect(seen.close, `${mode}: close button`).toBeGreaterThanOrEqual(4.5);
      expect(seen.closeSize[0]).toBeGreaterThanOrEqual(44);
      expect(seen.closeSize[1]).toBeGreaterThanOrEqual(44);
      // Its background, text and edge are the site's colours of this mode (black on white in high contrast).
      expect(seen.colours, mode).toEqual(seen.tokens);
      if (mode === 'contrast') expect(seen.colours).toEqual(['rgb(255, 255, 255)', 'rgb(0, 0, 0)', 'rgb(0, 0, 0)']);
      // Focus on the close button shows the site's two-tone ring.
      expect(seen.focusVisible).toBe(true);
      expect(seen.outline).toEqual(['solid', 3, seen.focusToken]);
      expect(seen.innerRing).toContain(seen.tokens[1]);
    }
  });
}
