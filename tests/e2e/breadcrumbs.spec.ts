/**
 * Breadcrumbs on inner pages: the home page, the menu group the page belongs to, and on a detail page the list it
 * comes from, each list a link that leads there; the home page has none. Read from the sample API's menus.
 */
import { POST_TYPES } from '../../src/api/types.ts';
import { localizePath } from '../../src/i18n/languages.ts';
import { DICTIONARIES } from '../../src/i18n/t.ts';
import { postPath } from '../../src/lib/paths.ts';
import { SECTIONS } from '../../src/lib/sections.ts';
import { navTargetIs } from '../../src/routes.ts';
import { expect, test } from './fixtures.ts';
import { RU, UZ_LATN } from './routes-helpers.ts';

for (const lang of [UZ_LATN, RU]) {
  const d = DICTIONARIES[lang.code];

  test(`a news item's breadcrumbs lead home and to the news list; an information page names its menu group; the home page has none (${lang.label})`, async ({ page, api }) => {
    const post = (await api.postList(POST_TYPES[SECTIONS.news.list], lang.number)).items[0]!;
    await page.goto(localizePath(lang, postPath(SECTIONS.news, post.id)));
    const trail = page.getByRole('navigation', { name: d['breadcrumbs.label'] });
    await expect(trail.getByRole('listitem')).toHaveText([d['header.home'], ...(await groupOf(postPath(SECTIONS.news, post.id))), d['news.title']]);
    await expect(trail.getByRole('link', { name: d['header.home'] })).toHaveAttribute('href', localizePath(lang, '/'));
    await trail.getByRole('link', { name: d['news.title'] }).click();
    await expect(page).toHaveURL(new RegExp(`${localizePath(lang, '/news')}$`));
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(d['news.title']);

    await page.goto(localizePath(lang, '/ekologiya'));
    const group = await groupOf('/ekologiya');
    expect(group).toHaveLength(1);
    await expect(trail.getByRole('listitem')).toHaveText([d['header.home'], ...group]);
    // The group is a name: it has no page of its own to lead to.
    await expect(trail.getByRole('link')).toHaveCount(1);

    await page.goto(localizePath(lang, '/'));
    await expect(trail).toHaveCount(0);

    async function groupOf(path: string): Promise<string[]> {
      const groups = await api.menus(lang.number);
      const found = groups.find((g) => g.items.some((i) => navTargetIs(i.target, path)));
      return found ? [found.title] : [];
    }
  });
}
