/**
 * Privacy: nothing is asked of another site before the citizen asks for it. Every request the
 * browser makes is recorded; OpenStreetMap is reached only after "Show the map", hCaptcha only once an
 * appeal is started. Both are answered by stubs (never the internet), and the cookie notice names them.
 */
import { readFileSync } from 'node:fs';
import type { BrowserContext, Page } from '@playwright/test';
import { LANGUAGES, localizePath } from '../../src/i18n/languages.ts';
import { DICTIONARIES, type Dictionary } from '../../src/i18n/t.ts';
import { CAPTCHA_LOAD_TIMEOUT_MS } from '../../src/features/appeal/appeal.ts';
import { axeViolations, expect, expectPageFocus, appealFormReady, test } from './fixtures.ts';
import { STORAGE_KEYS } from '../../src/lib/storage.ts';

const HCAPTCHA_STUB = readFileSync(new URL('./hcaptcha-stub.js', import.meta.url), 'utf8');
const [UZ, , RU] = LANGUAGES;
const THIRD_PARTY = /^https?:\/\/(?:[^/]*\.)?(?:openstreetmap\.org|hcaptcha\.com)(?:[:/]|$)/i;
const OSM_FRAME = /^https:\/\/www\.openstreetmap\.org\/export\/embed\.html\?/;
const OSM_LINK = 'https://www.openstreetmap.org/?mlat=39.4990&mlon=63.8530#map=13/39.4990/63.8530';
const HCAPTCHA_SCRIPT = /^https:\/\/js\.hcaptcha\.com\/1\/api\.js\?/;

/** Every request of every page and frame in the context, in order. */
function recordRequests(context: BrowserContext): string[] {
  const urls: string[] = [];
  context.on('request', (r) => urls.push(r.url()));
  return urls;
}
const thirdParty = (urls: string[]) => urls.filter((u) => THIRD_PARTY.test(u));

async function stubOpenStreetMap(page: Page) {
  await page.route(/^https:\/\/(?:[^/]*\.)?openstreetmap\.org\//, (route) =>
    route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>Map stub</title><p>OpenStreetMap stub</p>' }),
  );
}

/** What a reader does on a page: scroll it all the way down, then wait until the network is quiet. */
async function readToTheEnd(page: Page) {
  await page.evaluate(() => scrollTo(0, document.documentElement.scrollHeight));
  await page.waitForLoadState('networkidle');
}

test.describe('the map', () => {
  for (const [lang, path] of [
    [RU, '/'],
    [UZ, '/'],
    [UZ, '/address'],
    [RU, '/address'],
  ] as const) {
    test(`${path}: no request to OpenStreetMap until "Show the map"; then its frame, focused (${lang.label})`, async ({ page, context, consoleErrors }) => {
      const d = DICTIONARIES[lang.code];
      const requests = recordRequests(context);
      await stubOpenStreetMap(page);
      // The site's Content-Security-Policy (npm run preview sends it) must let the frame in once asked for.
      await page.addInitScript(() => {
        (window as unknown as { cspViolations: string[] }).cspViolations = [];
        document.addEventListener('securitypolicyviolation', (e) =>
          (window as unknown as { cspViolations: string[] }).cspViolations.push(`${e.violatedDirective} ${e.blockedURI}`),
        );
      });
      await page.goto(localizePath(lang, path));
      const map = page.locator('map-embed');
      await map.scrollIntoViewIfNeeded();
      await readToTheEnd(page);
      expect(thirdParty(requests)).toEqual([]);

      // The placeholder, from the site's own HTML: the address (on /address, where the page has just given it,
      // not again: the page says it once), what the button loads, and the link.
      await expect(map.locator('iframe')).toHaveCount(0);
      if (path === '/') await expect(map).toContainText(d['footer.addressText']);
      else {
        await expect(map).not.toContainText(d['footer.addressText']);
        await expect(page.getByRole('main').getByText(d['footer.addressText'], { exact: true })).toHaveCount(1);
      }
      await expect(map).toContainText(d['map.note']);
      const link = map.getByRole('link', { name: d['map.open'] });
      await expect(link).toHaveAttribute('href', OSM_LINK);
      await expect(link).toHaveAttribute('target', '_blank');
      await expect(link).toHaveAttribute('rel', 'noopener noreferrer');
      await expect(link).toHaveAccessibleName(`${d['map.open']} ${d['nav.external']}`);

      const show = map.getByRole('button', { name: d['map.show'] });
      await expect(show).toBeEnabled();
      if (path === '/address') {
        // By keyboard.
        await show.focus();
        await page.keyboard.press('Enter');
      } else {
        if (test.info().project.use.hasTouch) await show.tap();
        else await show.click();
      }
      const frame = map.locator('iframe');
      await expect(frame).toHaveAttribute('title', d['map.title']);
      await expectPageFocus(frame);
      await expect(show).toHaveCount(0);
      await expect(page.frameLocator('map-embed iframe').getByText('OpenStreetMap stub')).toBeVisible();
      // Only the frame was asked for, and nothing of hCaptcha; the link stays beside the map.
      expect(thirdParty(requests).length).toBeGreaterThan(0);
      expect(thirdParty(requests).every((u) => OSM_FRAME.test(u))).toBe(true);
      await expect(link).toBeVisible();
      expect(await page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations)).toEqual([]);
      if (path === '/address') expect(await axeViolations(page)).toEqual([]);
      expect(consoleErrors).toEqual([]);
    });
  }

  for (const lang of [RU, UZ]) {
    test(`the placeholder passes axe (${lang.label})`, async ({ page }) => {
      await page.goto(localizePath(lang, '/address'));
      await expect(page.getByRole('button', { name: DICTIONARIES[lang.code]['map.show'] })).toBeEnabled();
      expect(await axeViolations(page)).toEqual([]);
    });
  }

  test('at 320 px nothing overflows, before and after the map is shown (Russian and Uzbek)', async ({ page }) => {
    await stubOpenStreetMap(page);
    await page.setViewportSize({ width: 320, height: 700 });
    for (const [lang, path] of [
      [RU, '/address'],
      [UZ, '/'],
    ] as const) {
      await page.goto(localizePath(lang, path));
      const map = page.locator('map-embed');
      await map.scrollIntoViewIfNeeded();
      const overflow = () => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(await overflow(), `${path} ${lang.code}`).toBeLessThanOrEqual(0);
      const box = await map.boundingBox();
      expect(box!.x + box!.width).toBeLessThanOrEqual(320);
      await map.getByRole('button', { name: DICTIONARIES[lang.code]['map.show'] }).click();
      await expect(map.locator('iframe')).toBeVisible();
      expect(await overflow(), `${path} ${lang.code} with the map`).toBeLessThanOrEqual(0);
    }
  });
});

test.describe('the map without JavaScript', () => {
  test.use({ javaScriptEnabled: false });
  for (const lang of [UZ, RU]) {
    test(`the link works and no button promises what cannot happen (${lang.label})`, async ({ page, context }) => {
      const d = DICTIONARIES[lang.code];
      const requests = recordRequests(context);
      await page.goto(localizePath(lang, '/address'));
      const map = page.locator('map-embed');
      await expect(map).toContainText(d['map.note']);
      await expect(map.getByRole('button', { name: d['map.show'] })).toBeHidden();
      await expect(map.getByRole('link', { name: d['map.open'] })).toHaveAttribute('href', OSM_LINK);
      await expect(map.locator('iframe')).toHaveCount(0);
      await page.waitForLoadState('networkidle');
      expect(thirdParty(requests)).toEqual([]);
    });
  }
});

test.describe('hCaptcha on the appeal form', () => {
  const LABELS = { fullName: 'appeal.fullName', phone: 'appeal.phone', email: 'appeal.email', subject: 'appeal.subject', message: 'appeal.message' } as const;
  type Field = keyof typeof LABELS;
  const VALID: Record<Field, string> = {
    fullName: 'Karimov Bahodir Aliyevich',
    phone: '+998901234567',
    email: 'bahodir.karimov@example.uz',
    subject: 'Koʻcha chiroqlari haqida',
    message: 'Mahallamizdagi koʻcha chiroqlari bir oydan beri yonmayapti.',
  };
  const field = (page: Page, d: Dictionary, f: Field) => page.getByLabel(d[LABELS[f]], { exact: true });
  const stubCaptcha = (page: Page) => page.getByRole('button', { name: /Stub captcha/ });
  /** The appeals the browser sent, by their form bodies. */
  function recordAppeals(page: Page): URLSearchParams[] {
    const sent: URLSearchParams[] = [];
    page.on('request', (r) => {
      if (r.method() === 'POST' && r.url().endsWith('/api/apply')) sent.push(new URLSearchParams(r.postData() ?? ''));
    });
    return sent;
  }
  async function openForm(page: Page, lang: (typeof LANGUAGES)[number]) {
    await page.goto(localizePath(lang, '/murojaat_yuborish'));
    await appealFormReady(page);
    await readToTheEnd(page);
  }

  for (const [lang, received] of [
    [RU, 'Ваше обращение принято'],
    [UZ, 'Murojaatingiz qabul qilindi'],
  ] as const) {
    test(`not loaded with the page; loaded when the form is started; no appeal leaves without its token (${lang.label})`, async ({ page, context, consoleErrors }) => {
      const d = DICTIONARIES[lang.code];
      const requests = recordRequests(context);
      const appeals = recordAppeals(page);
      await page.route('https://js.hcaptcha.com/**', (route) => route.fulfill({ contentType: 'text/javascript', body: HCAPTCHA_STUB }));
      await page.goto(localizePath(lang, '/murojaat_yuborish'));
      // The cookie notice says in one line that nothing tracks, and under "What is kept" names both services and
      // when each loads (before scrolling accepts it).
      const notice = page.getByRole('region', { name: d['cookie.region'] });
      await expect(notice).toContainText(d['cookie.text']);
      await notice.getByText(d['cookie.details']).click();
      await expect(notice.getByText(d['cookie.services'])).toBeVisible();
      await expect(notice).toContainText('OpenStreetMap');
      await expect(notice).toContainText('hCaptcha');
      await expect(notice).toContainText(d['cookie.stored']);
      await expect(notice).toContainText(d['cookie.services']);
      await openForm(page, lang);
      expect(thirdParty(requests)).toEqual([]);
      // The form says what the check is and what pressing its button loads.
      await expect(page.getByText(d['appeal.captchaAbout'])).toBeVisible();
      await expect(page.getByRole('button', { name: d['appeal.captchaLoad'] })).toBeVisible();
      expect(await axeViolations(page)).toEqual([]);

      // The first focus in a field starts the appeal: hCaptcha loads (here, the stub) while the citizen types.
      await field(page, d, 'fullName').focus();
      await expect(stubCaptcha(page)).toBeVisible();
      expect(thirdParty(requests)).toEqual([expect.stringMatching(HCAPTCHA_SCRIPT)]);
      await expect(field(page, d, 'fullName')).toBeFocused();
      for (const [f, value] of Object.entries(VALID)) await field(page, d, f as Field).fill(value);

      // Sending without the token: refused, said under the check, and focus goes to the check.
      const submit = page.getByRole('button', { name: d['appeal.submit'] });
      await expect(submit).toBeEnabled();
      await submit.click();
      await expect(page.getByText(d['appeal.captchaMissing'])).toBeVisible();
      await expect(stubCaptcha(page)).toBeFocused();
      expect(appeals).toEqual([]);
      expect(await axeViolations(page)).toEqual([]);

      // With the (stub) token it is sent, carrying it.
      await stubCaptcha(page).click();
      await expect(page.getByText(d['appeal.captchaMissing'])).toHaveCount(0);
      await expect(submit).toBeEnabled();
      await submit.click();
      await expect(page.getByRole('status', { name: d['appeal.sentTitle'] })).toContainText(received);
      expect(appeals.map((a) => a.get('h-captcha-response'))).toEqual(['stub-captcha-token']);
      expect(thirdParty(requests).every((u) => HCAPTCHA_SCRIPT.test(u))).toBe(true);
      expect(consoleErrors).toEqual([]);
    });
  }

  for (const lang of [UZ, RU]) {
    test(`a restored draft loads nothing until the citizen presses the button; then focus goes to the check (${lang.label})`, async ({ page, context }) => {
      const d = DICTIONARIES[lang.code];
      const requests = recordRequests(context);
      await page.route('https://js.hcaptcha.com/**', (route) => route.fulfill({ contentType: 'text/javascript', body: HCAPTCHA_STUB }));
      await page.goto(localizePath(lang, '/murojaat_yuborish'));
      await page.evaluate(([key, draft]) => localStorage.setItem(key, JSON.stringify({ ...draft, savedAt: Date.now() })), [STORAGE_KEYS.appealDraft, VALID] as const);
      await openForm(page, lang);
      await expect(field(page, d, 'message')).toHaveValue(VALID.message);
      expect(thirdParty(requests)).toEqual([]);
      await page.getByRole('button', { name: d['appeal.captchaLoad'] }).click();
      await expect(stubCaptcha(page)).toBeFocused();
      expect(thirdParty(requests)).toEqual([expect.stringMatching(HCAPTCHA_SCRIPT)]);
    });
  }

  for (const lang of [RU, UZ]) {
    test(`a connection lost while hCaptcha loads is said, keeps what was typed, and can be tried again (${lang.label})`, async ({ page }) => {
      const d = DICTIONARIES[lang.code];
      const appeals = recordAppeals(page);
      await page.route('https://js.hcaptcha.com/**', (route) => route.abort('internetdisconnected'));
      await openForm(page, lang);
      await field(page, d, 'fullName').fill(VALID.fullName);
      const failed = page.getByRole('status').filter({ hasText: d['appeal.captchaError'] });
      // hCaptcha's loader tries three times, a second apart, before it gives up.
      await expect(failed).toBeVisible({ timeout: 10_000 });
      for (const [f, value] of Object.entries(VALID)) await field(page, d, f as Field).fill(value);
      const retry = page.getByRole('button', { name: d['appeal.captchaRetry'] });
      await expect(retry).toHaveAccessibleDescription(d['appeal.captchaError']);
      expect(await axeViolations(page)).toEqual([]);
      await page.getByRole('button', { name: d['appeal.submit'] }).click({ force: true });
      await expect(page.getByText(d['appeal.captchaMissing'])).toBeVisible();
      await expect(retry).toBeFocused();
      expect(appeals).toEqual([]);

      // The connection is back: "try again" loads it, and the appeal goes with everything typed.
      await page.unrouteAll();
      await page.route('https://js.hcaptcha.com/**', (route) => route.fulfill({ contentType: 'text/javascript', body: HCAPTCHA_STUB }));
      await retry.click();
      await expect(stubCaptcha(page)).toBeFocused();
      await expect(failed).toHaveCount(0);
      await stubCaptcha(page).click();
      await page.getByRole('button', { name: d['appeal.submit'] }).click();
      await expect(page.getByRole('status', { name: d['appeal.sentTitle'] })).toBeVisible();
      expect(appeals.map((a) => a.get('Title'))).toEqual([VALID.message]);
    });
  }

  test('a load that never answers is given up after a while, and the browser coming online tries again (Uzbek)', async ({ page, context }) => {
    const d = DICTIONARIES[UZ.code];
    let hanging: import('@playwright/test').Route | undefined;
    await page.route('https://js.hcaptcha.com/**', (route) => {
      hanging = route;
    });
    await page.clock.install();
    await openForm(page, UZ);
    await field(page, d, 'message').fill(VALID.message);
    await expect(page.getByRole('status').filter({ hasText: d['appeal.captchaLoading'] })).toBeVisible();
    await page.clock.fastForward(CAPTCHA_LOAD_TIMEOUT_MS);
    await expect(page.getByRole('status').filter({ hasText: d['appeal.captchaError'] })).toBeVisible();
    await expect(field(page, d, 'message')).toHaveValue(VALID.message);
    // The script arrives at last; the browser says it is online again: the check shows without a click.
    await hanging!.fulfill({ contentType: 'text/javascript', body: HCAPTCHA_STUB });
    await context.setOffline(true);
    await context.setOffline(false);
    await expect(stubCaptcha(page)).toBeVisible();
    await expect(field(page, d, 'message')).toBeFocused();
  });
});
