/**
 * The leadership directories: card lists whose 'More' button opens a popup, closed by its close icon.
 * Every expectation is read from the sample API through the `api` fixture, never hard-coded, and
 * every UI string from the dictionaries.
 */
import type { EmployeeCategory } from '../../src/api/types.ts';
import { localizePath, type Language } from '../../src/i18n/languages.ts';
import { DICTIONARIES } from '../../src/i18n/t.ts';
import { expect, test } from './fixtures.ts';
import { UZ_LATN, UZ_CYRL, RU, EN, textOf, content } from './routes-helpers.ts';

/** Each directory in two languages; the popup is tried in the first, so each language opens it once. */
const DIRECTORIES: { path: string; category: EmployeeCategory; langs: readonly [Language, Language] }[] = [
  { path: '/mayors-of-cities-and-districts', category: 1, langs: [UZ_LATN, RU] },
  { path: '/the-leadership-of-the-regional-administration', category: 2, langs: [RU, UZ_CYRL] },
  { path: '/information-service', category: 3, langs: [UZ_CYRL, EN] },
  { path: '/the-leadership-of-the-regional-administration', category: 2, langs: [EN, UZ_LATN] },
];

test.describe('directories and their leader popup', () => {
  for (const dir of DIRECTORIES) {
    test(`${dir.path}: cards from the API; 'More' opens the popup in ${dir.langs[0].label}`, async ({ page, api, consoleErrors }) => {
      for (const lang of dir.langs) {
        const people = await api.employees(dir.category, lang.number);
        expect(people.length).toBeGreaterThan(0);
        await page.goto(localizePath(lang, dir.path));
        const cards = content(page).locator('article');
        await expect(cards).toHaveCount(people.length);
        await expect(cards.getByRole('heading', { level: 2 })).toHaveText(people.map((p) => p.name));
        await expect(cards.locator('.person-card__text > .person-card__position')).toHaveText(people.map((p) => p.position));
      }

      const lang = dir.langs[0];
      const dict = DICTIONARIES[lang.code];
      const person = (await api.employees(dir.category, lang.number)).at(-1)!;
      await page.goto(localizePath(lang, dir.path));
      const more = content(page)
        .locator('article')
        .last()
        .getByRole('button', { name: new RegExp(`^${RegExp.escape(dict['person.more'])}`) });
      const dialog = page.getByRole('dialog', { name: person.name });
      await expect(dialog).toBeHidden();

      // 'More' opens the popup with the biography and the duties.
      await more.click();
      await expect(dialog).toBeVisible();
      await expect(dialog.getByRole('heading', { name: dict['person.biography'] })).toBeVisible();
      await expect(dialog.getByRole('heading', { name: dict['person.duties'] })).toBeVisible();
      await expect(dialog).toContainText(textOf(person.biographyHtml).slice(0, 40));
      await expect(dialog).toContainText(textOf(person.dutiesHtml).slice(0, 40));
      // Escape closes it and gives the focus back to 'More'.
      await page.keyboard.press('Escape');
      await expect(dialog).toBeHidden();
      await expect(more).toBeFocused();

      // The close button closes it too.
      await more.click();
      await expect(dialog).toBeVisible();
      await dialog.getByRole('button', { name: dict['person.close'] }).click();
      await expect(dialog).toBeHidden();
      await expect(more).toBeFocused();
      expect(consoleErrors).toEqual([]);
    });
  }
});
