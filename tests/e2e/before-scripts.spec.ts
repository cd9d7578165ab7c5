/**
 * Before the JavaScript arrives: on a slow rural line the HTML paints seconds before
 * the scripts come. Here every script file and the icon sprite are held back until the test lets them go,
 * so the page is exactly what the first flight gives. The header's icons are drawn from the HTML alone; the
 * search dialog and the special-opportunities panel open from it, and the menu toggle opens the menu, at once;
 * the controls that need a script (the survey votes) say they are not ready (aria-disabled, described as not
 * ready yet, dimmed with a dashed edge) and become ready once it has run. On a phone, at 360 px, in Russian
 * and Uzbek Latin.
 */
import type { Locator, Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import sharp from 'sharp';
import { localizePath } from '../../src/i18n/languages.ts';
import { DICTIONARIES, t } from '../../src/i18n/t.ts';
import { axe, expect, surveyVotesReady, test, WCAG_AA } from './fixtures.ts';
import { RU, UZ_LATN } from './routes-helpers.ts';

test.use({ viewport: { width: 360, height: 740 } });

/** Holds back every script file and the sprite; returns what lets them go. */
async function holdScripts(page: Page): Promise<() => void> {
  let release!: () => void;
  const released = new Promise<void>((ok) => (release = ok));
  await page.route(/\/(_astro\/[^?]+\.js|icons\.svg)(\?|$)/, async (route) => {
    await released;
    await route.continue().catch(() => {});
  });
  return release;
}

/** React's runtime, by a string its production build always holds (the element type's symbol). */
const REACT_RUNTIME = 'react.transitional.element';
const HCAPTCHA_STUB = readFileSync(new URL('./hcaptcha-stub.js', import.meta.url), 'utf8');

/** Holds back, for good, every script file that carries React: a line on which React has not yet arrived. */
async function holdReact(page: Page): Promise<string[]> {
  const held: string[] = [];
  await page.route(/\/_astro\/[^?]+\.js(\?|$)/, async (route) => {
    const response = await route.fetch();
    const body = await response.text();
    if (!body.includes(REACT_RUNTIME)) return route.fulfill({ response, body });
    held.push(route.request().url());
    await new Promise(() => {});
  });
  return held;
}

/**
 * Opens `path` and waits until its whole HTML is in, not for DOMContentLoaded, which waits for the
 * held module scripts.
 */
async function openWithoutScripts(page: Page, path: string): Promise<void> {
  await page.goto(path, { waitUntil: 'commit' });
  await page.locator('footer').waitFor({ state: 'attached' });
}

/** Distinct colours in a screenshot of `el`: more than the background's one means something is drawn. */
async function colours(el: Locator): Promise<number> {
  const { data, info } = await sharp(await el.screenshot())
    .raw()
    .toBuffer({ resolveWithObject: true });
  const seen = new Set<string>();
  for (let i = 0; i < data.length; i += info.channels) seen.add(`${data[i]},${data[i + 1]},${data[i + 2]}`);
  return seen.size;
}

for (const lang of [RU, UZ_LATN]) {
  const d = DICTIONARIES[lang.code];

  test(`before any script: header icons drawn, search and special opportunities open, island controls say they are not ready, the menu opens (${lang.label})`, async ({
    page,
    consoleErrors,
  }) => {
    void consoleErrors;
    const release = await holdScripts(page);
    await openWithoutScripts(page, localizePath(lang, '/'));
    // No module has run: every island still holds only its server HTML.
    await expect(page.locator('astro-island:not([ssr])')).toHaveCount(0);

    // The header's icons are in the page itself, drawn, with the sprite still on its way.
    const icons = page.locator('.site-header svg.icon, [data-nav-bar] svg.icon').filter({ visible: true });
    expect(await icons.count()).toBe(3);
    for (const icon of await icons.all()) {
      await expect(icon.locator('use')).toHaveCount(0);
      const area = await icon.locator('path').evaluate((p: SVGPathElement) => p.getBBox().width * p.getBBox().height);
      expect(area).toBeGreaterThan(0);
      expect(await colours(icon)).toBeGreaterThan(1);
    }

    // Search and special opportunities: ready, as plain buttons, with nothing said against them.
    const search = page.getByRole('button', { name: d['header.search'] });
    const panel = page.getByRole('button', { name: d['header.accessibility'] });
    for (const [button, name] of [
      [search, d['header.search']],
      [panel, d['header.accessibility']],
    ] as const) {
      await expect(button).not.toHaveAttribute('aria-disabled');
      await expect(button).toHaveAccessibleName(name);
      await expect(button).toHaveAccessibleDescription('');
      await expect(button).not.toHaveCSS('border-style', 'dashed');
    }
    // The search dialog opens with focus in its field, and Escape gives focus back to the button.
    await search.tap();
    await expect(page.getByRole('dialog', { name: d['search.title'] })).toBeVisible();
    await expect(page.getByLabel(d['search.label'])).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(page.getByRole('dialog', { name: d['search.title'] })).toBeHidden();
    await expect(search).toBeFocused();
    // The panel opens, applies a choice, and closes.
    await panel.tap();
    const panelDialog = page.getByRole('dialog', { name: d['a11y.title'] });
    await expect(panelDialog).toBeVisible();
    await panelDialog.getByRole('button', { name: d['a11y.zoomIn'] }).tap();
    await expect(page.locator('body')).toHaveClass(/zoom-1/);
    await expect(panelDialog.getByRole('status')).toHaveText(t(lang, 'a11y.zoomLevel', { n: 113 }));
    await panelDialog.getByRole('button', { name: d['a11y.zoomOut'] }).tap();
    await expect(page.locator('body')).not.toHaveClass(/zoom-/);
    await page.keyboard.press('Escape');
    await expect(panelDialog).toBeHidden();
    // The survey votes the same, further down.
    const votes = page.locator('.survey__vote');
    expect(await votes.count()).toBeGreaterThan(0);
    for (const vote of await votes.all()) {
      await expect(vote).toHaveAttribute('aria-disabled', 'true');
      await expect(vote).toHaveAccessibleDescription(d['island.loading']);
      await expect(vote).toHaveCSS('border-style', 'dashed');
    }
    // The header as it stands passes axe.
    const header = await axe(page).include('.site-header').include('[data-nav-bar]').withTags(WCAG_AA).analyze();
    expect(header.violations.map((v) => `${v.id}: ${v.nodes[0]?.target.join(' ')}`)).toEqual([]);

    // A tap on the menu toggle opens the menu from the HTML alone, and a second tap closes it.
    const toggle = page.getByRole('button', { name: d['nav.menu'] });
    await toggle.tap();
    await expect(page.locator('#site-menu')).toBeVisible();
    await expect(toggle).toHaveAttribute('aria-expanded', 'true');
    await toggle.tap();
    await expect(page.locator('#site-menu')).toBeHidden();
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await toggle.tap();
    await expect(toggle).toHaveAttribute('aria-expanded', 'true');
    await expect(page.locator('astro-island:not([ssr])')).toHaveCount(0);

    // The scripts arrive. The menu opened before them is the same menu after them: Escape closes it and focus
    // stays on the toggle.
    release();
    // The modules have run once the document is done (they are deferred).
    await page.waitForLoadState('domcontentloaded');
    await toggle.focus();
    await page.keyboard.press('Escape');
    await expect(page.locator('#site-menu')).toBeHidden();
    await expect(toggle).toBeFocused();
    await search.click();
    await expect(page.getByRole('dialog', { name: d['search.title'] })).toBeVisible();
    await page.keyboard.press('Escape');
    await page.locator('#surveys').scrollIntoViewIfNeeded();
    await surveyVotesReady(page);
    for (const vote of await votes.all()) {
      await expect(vote).toBeEnabled();
      await expect(vote).toHaveAttribute('data-ready', 'true');
      await expect(vote).toHaveAccessibleDescription('');
    }
  });

  test(`on an inner page too, the header's icons and menu need no script (${lang.label})`, async ({ page }) => {
    const release = await holdScripts(page);
    await openWithoutScripts(page, localizePath(lang, '/news'));
    const icons = page.locator('.site-header svg.icon, [data-nav-bar] svg.icon').filter({ visible: true });
    expect(await icons.count()).toBe(3);
    for (const icon of await icons.all()) expect(await colours(icon)).toBeGreaterThan(1);
    await page.getByRole('button', { name: d['nav.menu'] }).tap();
    await expect(page.locator('#site-menu')).toBeVisible();
    release();
  });
}

for (const lang of [RU, UZ_LATN]) {
  const d = DICTIONARIES[lang.code];

  test(`the appeal form is sent while React is still on its way (${lang.label})`, async ({ page }) => {
    const held = await holdReact(page);
    await page.route('https://js.hcaptcha.com/**', (route) => route.fulfill({ contentType: 'text/javascript', body: HCAPTCHA_STUB }));
    await page.goto(localizePath(lang, '/murojaat_yuborish'));
    const values = {
      'appeal.fullName': 'Karimov Bahodir Aliyevich',
      'appeal.phone': '+998901234567',
      'appeal.email': 'bahodir.karimov@example.uz',
      'appeal.subject': 'Koʻcha chiroqlari haqida',
      'appeal.message': 'Mahallamizdagi koʻcha chiroqlari bir oydan beri yonmayapti.',
    } as const;
    for (const [label, value] of Object.entries(values)) await page.getByLabel(d[label as keyof typeof values], { exact: true }).fill(value);
    await page.getByRole('button', { name: /Stub captcha/ }).tap();
    const send = page.getByRole('button', { name: d['appeal.submit'] });
    await expect(send).toHaveAttribute('data-ready', 'true');
    await send.tap();
    await expect(page.getByRole('status', { name: d['appeal.sentTitle'] })).toBeVisible();
    expect(held).toEqual([]);
  });
}
