/**
 * Language and content as a citizen reads them ("Language and
 * orthography" and "Wrong or misleading content"), in at least two languages each.
 */
import { SAMPLE_CONTACT } from '../../src/constants.ts';
import { district } from '../../src/district/district.ts';
import { LANGUAGES, localizePath } from '../../src/i18n/languages.ts';
import { DICTIONARIES, t } from '../../src/i18n/t.ts';
import { formatDate } from '../../src/lib/text.ts';
import { expect, test } from './fixtures.ts';

const [UZ_LATN, UZ_CYRL, RU, EN] = LANGUAGES;
const content = (page: import('@playwright/test').Page) => page.locator('.inner__content');

test('Uzbek Latin pages write oʻ, gʻ and ʼ, never an apostrophe inside a word', async ({ page, consoleErrors }) => {
  for (const path of ['/', '/news', '/information-about-the-province', '/answers-to-frequently-asked-questions']) {
    await page.goto(path);
    const text = await page.locator('body').innerText();
    expect(text.match(/[A-Za-z]['‘’`][A-Za-z]/g), path).toBeNull();
    expect(text, path).toContain('Qorakoʻl');
  }
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  expect(consoleErrors).toEqual([]);
});

test('Uzbek dates read "2026-yil 26-oktabr" and "2026-йил 26-октябрь"', async ({ page, api, consoleErrors }) => {
  for (const [lang, pattern] of [
    [UZ_LATN, /^\d{4}-yil \d{1,2}-[a-z]+$/],
    [UZ_CYRL, /^\d{4}-йил \d{1,2}-[а-яёўқғҳь]+$/],
  ] as const) {
    const post = (await api.postList(1, lang.number, 1)).items.find((p) => p.date)!;
    await page.goto(localizePath(lang, `/news/${post.id}`));
    const time = page.locator('main time').first();
    await expect(time).toHaveText(formatDate(post.date, lang)!);
    expect(await time.innerText()).toMatch(pattern);
  }
  expect(consoleErrors).toEqual([]);
});

test('sample names are in the page’s script, and Russian pages show no Latin names', async ({ page, consoleErrors }) => {
  for (const lang of [RU, UZ_CYRL]) {
    await page.goto(localizePath(lang, '/boshqaruv_apparati_tuzilmasi'));
    const names = content(page).locator('tbody td:nth-child(2)');
    await expect(names).toHaveCount(6);
    for (const name of await names.allInnerTexts()) expect(name).toMatch(/^[\p{Script=Cyrillic}\s.-]+$/u);
    await page.goto(localizePath(lang, '/travel-agencies'));
    await expect(content(page).locator('.sample-cards li').first()).toContainText(t(lang, 'sample.agencyName'));
    expect(await content(page).locator('.sample-cards li').first().innerText()).not.toMatch(/Qorako|Rahimov/);
  }
  expect(consoleErrors).toEqual([]);
});

test('sample cards and staff tables are marked as samples and never show the administration’s contacts', async ({ page, consoleErrors }) => {
  for (const lang of [UZ_LATN, RU]) {
    for (const path of ['/hotels', '/travel-agencies', '/boshqaruv_apparati_tuzilmasi']) {
      await page.goto(localizePath(lang, path));
      const main = content(page);
      await expect(main.getByText(t(lang, 'sample.mark'), { exact: true }).first()).toBeVisible();
      const text = await main.innerText();
      expect(text, path).toContain(SAMPLE_CONTACT.phone);
      const { contact, server } = district();
      expect(text, path).not.toContain(contact.helpline);
      expect(text, path).not.toContain(contact.email);
      for (const name of server.names) expect(text, path).not.toContain(name);
    }
  }
  expect(consoleErrors).toEqual([]);
});

test('/information-about-the-province says it is about Bukhara Region, in every language', async ({ page, api, consoleErrors }) => {
  const REGION = { 'uz-latn': 'Buxoro viloyati', 'uz-cyrl': 'Бухоро вилояти', ru: 'Бухарской области', en: 'Bukhara Region' } as const;
  for (const lang of LANGUAGES) {
    await page.goto(localizePath(lang, '/information-about-the-province'));
    await expect(page.getByRole('heading', { level: 1 })).toContainText(REGION[lang.code]);
    await expect(content(page)).toContainText(t(lang, 'province.intro'));
    // The menu item that leads here says so too.
    const item = (await api.menus(lang.number)).flatMap((g) => g.items).find((i) => i.target.kind === 'route' && i.target.path === '/tuman_haqida');
    expect(item?.title).toContain(REGION[lang.code]);
  }
  expect(consoleErrors).toEqual([]);
});

test('/ochiq_malumotlar cites PF-6247, in every language', async ({ page, consoleErrors }) => {
  for (const lang of LANGUAGES) {
    await page.goto(localizePath(lang, '/ochiq_malumotlar'));
    await expect(content(page)).toContainText(t(lang, 'openData.basis'));
    await expect(content(page)).toContainText(/(PF|ПФ|УП)-6247/);
  }
  expect(consoleErrors).toEqual([]);
});

test('English names the district Qorakul everywhere', async ({ page, api, consoleErrors }) => {
  const post = (await api.postList(1, EN.number, 1)).items.find((p) => /Qorakul/.test(p.title)) ?? (await api.postList(1, EN.number, 1)).items[0]!;
  for (const path of ['/en/', '/en/news', `/en/news/${post.id}`, '/en/ekoturizm']) {
    await page.goto(path);
    const text = await page.locator('body').innerText();
    expect(text, path).not.toMatch(/Qorako|Karakul(?! Breeding| sheep)/);
    expect(text, path).toContain('Qorakul');
  }
  expect(consoleErrors).toEqual([]);
});

test('the survey buttons say what their counts count, and no label breaks inside a word', async ({ page, consoleErrors }) => {
  for (const lang of [UZ_LATN, RU, EN]) {
    const dict = DICTIONARIES[lang.code];
    await page.goto(localizePath(lang, '/'));
    const card = page.locator('.survey').first();
    await card.scrollIntoViewIfNeeded();
    const buttons = card.getByRole('button');
    await expect(buttons.nth(0)).toContainText(dict['survey.like']);
    await expect(buttons.nth(1)).toContainText(dict['survey.dislike']);
    // A label on one line is as tall as one line of its text: no word was split.
    for (const n of [0, 1]) {
      const lines = await buttons.nth(n).evaluate((b) => {
        const range = document.createRange();
        const label = b.querySelector('.survey__label')!;
        range.selectNodeContents(label);
        return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
      });
      expect(lines, `${lang.code} button ${n}`).toBe(1);
    }
  }
  expect(consoleErrors).toEqual([]);
});

test('a menu slug answers with a small localised page that moves on to the canonical route', async ({ page, request, consoleErrors }) => {
  for (const [lang, slug, route] of [
    [UZ_LATN, '/yangiliklar', '/news'],
    [RU, '/fotogalareya', '/gallery/photo'],
    [EN, '/manzil', '/address'],
  ] as const) {
    const res = await request.get(localizePath(lang, slug), { maxRedirects: 0 });
    expect(res.status()).toBe(200);
    const html = await res.text();
    const target = localizePath(lang, route);
    expect(html).toContain(`<html lang="${lang.tag}"`);
    expect(html).toContain(`<meta http-equiv="refresh" content="0; url=${target}"`);
    expect(html).toMatch(new RegExp(`<link rel="canonical" href="[^"]*${target.replace(/\//g, '\\/')}"`));
    expect(html).toContain('<meta name="robots" content="noindex"');
    const [before] = t(lang, 'redirect.text').split('{link}');
    expect(html).toContain(before!.trim());
    expect(html).not.toContain('Redirecting');
    await page.goto(localizePath(lang, slug));
    await expect(page).toHaveURL(new RegExp(`${target}$`));
  }
  // The Uzbek Latin sentence, as the issue asks for it.
  expect(t(UZ_LATN, 'redirect.text')).toBe('Bu sahifa {link} manziliga koʻchdi.');
  expect(consoleErrors).toEqual([]);
});
