/**
 * WCAG 2.2 AA checks with axe-core on every route template in all four
 * languages, with the modals open and in every colour mode and text size.
 */
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { LANGUAGES, localizePath } from '../../src/i18n/languages.ts';
import { DICTIONARIES } from '../../src/i18n/t.ts';
import { COLOUR_MODES, ZOOM_STEPS } from '../../src/features/accessibility-panel/accessibility.ts';
import { expect, hydrated, test } from './fixtures.ts';

const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

async function violations(page: Page) {
  const results = await new AxeBuilder({ page })
    .withTags(TAGS)
    // The embedded map is another site's document; it is not ours to fix.
    .exclude('iframe.map')
    .analyze();
  return results.violations.map((v) => `${v.id}: ${v.help} (${v.nodes.length}) ${v.nodes[0]?.target.join(' ')}`);
}

const TEMPLATES = [
  '/',
  '/news',
  '/news/page/2',
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
  '/500',
  '/no-such-page',
];

for (const lang of LANGUAGES) {
  test(`every route template passes axe in ${lang.label}`, async ({ page, api }) => {
    test.slow();
    const firstNews = (await api.postList(1, lang.number, 1)).items[0]!.id;
    for (const path of [...TEMPLATES, `/news/${firstNews}`]) {
      await page.goto(localizePath(lang, path));
      expect.soft(await violations(page), `${lang.code} ${path}`).toEqual([]);
    }
  });
}

test('passes with the search modal, the panel, the leader popup and the lightbox open', async ({ page, api }) => {
  const d = DICTIONARIES.ru;
  await page.goto('/ru/');
  await hydrated(page, 'SearchDialog');
  await page.getByRole('button', { name: d['header.search'] }).click();
  await page.getByLabel(d['search.label']).fill((await api.postList(1, 3, 1)).items[0]!.title.split(' ')[1]!);
  await page.keyboard.press('Enter');
  await expect(page.getByRole('dialog').getByRole('link').first()).toBeVisible();
  expect(await violations(page), 'search').toEqual([]);
  await page.keyboard.press('Escape');
  await page.keyboard.press('Escape');

  await page.getByRole('button', { name: d['header.accessibility'] }).click();
  await expect(page.getByRole('dialog', { name: d['a11y.title'] })).toBeVisible();
  expect(await violations(page), 'panel').toEqual([]);

  await page.goto('/ru/information-service');
  await page.getByRole('button', { name: new RegExp(d['person.more']) }).first().click();
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
      await page.addInitScript((s) => localStorage.setItem('qorakul-hokimligi:a11y', s), JSON.stringify({ mode, zoom }));
      await page.goto('/en/news');
      expect.soft(await violations(page), `${mode} ${zoom}`).toEqual([]);
    }
  }
});
