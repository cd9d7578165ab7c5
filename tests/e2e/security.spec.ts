/**
 * Every page type under the Content-Security-Policy the build computed (served
 * as production serves it): no violation is reported, and scripts are never
 * allowed inline by a blanket 'unsafe-inline'.
 */
import { readFileSync } from 'node:fs';
import { LANGUAGES, localizePath } from '../../src/i18n/languages.ts';
import { DICTIONARIES } from '../../src/i18n/t.ts';
import { expect, headerReady, test } from './fixtures.ts';

const HCAPTCHA_STUB = readFileSync(new URL('./hcaptcha-stub.js', import.meta.url), 'utf8');
const PAGES = ['/', '/news', '/news/page/1', '/gallery/photo', '/mayors-of-cities-and-districts', '/ekoturizm', '/murojaat_yuborish', '/page/2', '/no-such-page'];

test('every page type loads under the CSP with no violation', async ({ page, api }) => {
  test.slow();
  await page.route('https://js.hcaptcha.com/**', (route) => route.fulfill({ contentType: 'text/javascript', body: HCAPTCHA_STUB }));
  await page.addInitScript(() => {
    (window as unknown as { cspViolations: string[] }).cspViolations = [];
    document.addEventListener('securitypolicyviolation', (e) => (window as unknown as { cspViolations: string[] }).cspViolations.push(`${e.violatedDirective} ${e.blockedURI}`));
  });
  const news = (await api.postList(1, 3, 1)).items[0]!.id;
  for (const lang of [LANGUAGES[0], LANGUAGES[2]]) {
    for (const path of [...PAGES, `/news/${news}`]) {
      const res = await page.goto(localizePath(lang, path));
      const csp = res?.headers()['content-security-policy'] ?? '';
      expect(csp, path).toContain("script-src 'self'");
      expect(csp.split(';').find((d) => d.trim().startsWith('script-src'))).not.toContain('unsafe-inline');
      // Let the islands hydrate.
      await headerReady(page);
      expect(await page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations), `${lang.code} ${path}`).toEqual([]);
    }
  }
  // The interactive parts under the policy too: a toast and the lightbox load their code on first use.
  await page.goto('/ru/gallery/photo');
  await page.locator('a[data-lightbox]').first().click();
  await expect(page.locator('.glightbox-container')).toBeVisible();
  await page.goto('/ru/');
  await page.getByRole('button', { name: DICTIONARIES.ru['header.search'] }).click();
  await page.getByRole('dialog').getByRole('searchbox').fill('каракуль');
  await page.keyboard.press('Enter');
  await expect(page.locator('[data-search-results]').getByRole('link').first()).toBeVisible();
  expect(await page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations)).toEqual([]);
});
