/**
 * The pages a citizen looks for at the foot of an official site: every page's footer leads to the leadership,
 * the FAQ, the site map, the accessibility statement and the privacy notice, gives the reception hours itself,
 * and its "Address" and "Helpline" lead to the address page and to every helpline number. The statement and the notice carry the district's
 * contacts; the site map lists every menu; the appeal form links to the privacy notice.
 */
import { district } from '../../src/district/district.ts';
import { localizePath } from '../../src/i18n/languages.ts';
import { ACCESSIBILITY_STATEMENT } from '../../src/i18n/long-texts/accessibility-statement.ts';
import { PRIVACY_NOTICE } from '../../src/i18n/long-texts/privacy-notice.ts';
import { DICTIONARIES } from '../../src/i18n/t.ts';
import { expect, test } from './fixtures.ts';
import { EN, RU, UZ_CYRL, UZ_LATN } from './routes-helpers.ts';

const { contact } = district();

for (const lang of [RU, UZ_LATN]) {
  const d = DICTIONARIES[lang.code];
  test(`the footer of a news page leads to the pages citizens look for, each opening with its title (${lang.label})`, async ({ page, api }) => {
    const news = (await api.postList(1, lang.number, 1)).items[0]!;
    const from = localizePath(lang, `/news/${news.id}`);
    await page.goto(from);
    const footer = page.getByRole('contentinfo');
    await expect(footer).toContainText(d['address.reception']);
    await expect(footer).toContainText(d['trust.hoursValue']);
    const nav = footer.getByRole('navigation', { name: d['footer.pages'] });
    const titles = [
      [d['footer.leadership'], d['leadership.title']],
      [d['footer.faq'], d['info.faq']],
      [d['footer.siteMap'], d['footer.siteMap']],
      [d['footer.accessibility'], ACCESSIBILITY_STATEMENT[lang.code].title],
      [d['footer.privacy'], PRIVACY_NOTICE[lang.code].title],
    ] as const;
    await expect(nav.getByRole('link')).toHaveCount(titles.length);
    for (const [link, title] of titles) {
      await page.goto(from);
      await nav.getByRole('link', { name: link, exact: true }).click();
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(title);
    }
    for (const [link, to] of [
      [d['footer.address'], '/address'],
      [d['footer.helpline'], '/ishonch_va_yagona_telefon_raqamlari'],
    ] as const) {
      await page.goto(from);
      await footer.getByRole('link', { name: link, exact: true }).click();
      await expect(page).toHaveURL(new RegExp(`${RegExp.escape(localizePath(lang, to))}$`));
    }
  });
}

for (const lang of [EN, UZ_CYRL]) {
  const d = DICTIONARIES[lang.code];
  test(`the accessibility statement and the privacy notice give the district's own contacts (${lang.label})`, async ({ page }) => {
    for (const path of ['/accessibility', '/privacy']) {
      await page.goto(localizePath(lang, path));
      const main = page.getByRole('main');
      await expect(main).toContainText(contact.helpline);
      await expect(main).toContainText(contact.email);
      await expect(main).toContainText(d['site.name']);
      expect(await main.textContent()).not.toMatch(/[{}]/);
    }
  });

  test(`the site map lists every menu and its items, and the pages no menu lists (${lang.label})`, async ({ page, api }) => {
    const menus = await api.menus(lang.number);
    await page.goto(localizePath(lang, '/site-map'));
    const main = page.getByRole('main');
    for (const group of menus) {
      await expect(main.getByRole('heading', { level: 2, name: group.title, exact: true })).toBeVisible();
      // An external link's name ends with "(opens in a new window)".
      for (const item of group.items) await expect(main.getByRole('link', { name: item.title }).first()).toBeVisible();
    }
    for (const name of [d['footer.accessibility'], d['footer.privacy'], d['search.title'], d['appeal.title']]) {
      await expect(main.getByRole('link', { name, exact: true })).toBeVisible();
    }
  });

  test(`the appeal form links to the privacy notice (${lang.label})`, async ({ page }) => {
    await page.goto(localizePath(lang, '/murojaat_yuborish'));
    await page.getByRole('link', { name: d['appeal.privacyLink'] }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(PRIVACY_NOTICE[lang.code].title);
  });
}
