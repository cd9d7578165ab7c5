/** src/lib/page-context.ts: what every component reads about its page, from the page's URL. */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { NavGroup } from '../../src/api/types.ts';
import { LANGUAGES } from '../../src/i18n/languages.ts';
import { pageContext } from '../../src/lib/page-context.ts';
import { SNAPSHOT_FILE } from '../../src/content/snapshot.ts';

const [uzLatn, , ru] = LANGUAGES;
const menu = (title: string): NavGroup[] => [{ title, isTop: false, items: [] }];

beforeAll(() => {
  const dir = mkdtempSync(join(tmpdir(), 'page-context-'));
  const languages = Object.fromEntries(LANGUAGES.map((l) => [l.code, { menus: menu(`menu ${l.code}`), listPages: {}, settledLatest: {} }]));
  writeFileSync(join(dir, SNAPSHOT_FILE), JSON.stringify({ pulledAt: '', apiBase: '', languages }));
  process.env.CONTENT_DIR = dir;
});

const astro = (url: string) => ({ url: new URL(url, 'http://localhost:4321'), locals: {} });

describe('pageContext', () => {
  it('reads the language and the language-neutral path from the URL, with or without the trailing slash', () => {
    expect(pageContext(astro('/ru/news/5/'))).toMatchObject({ lang: ru, path: '/news/5' });
    expect(pageContext(astro('/news/page/2'))).toMatchObject({ lang: uzLatn, path: '/news/page/2' });
    expect(pageContext(astro('/ru/'))).toMatchObject({ lang: ru, path: '/' });
    expect(pageContext(astro('/'))).toMatchObject({ lang: uzLatn, path: '/' });
  });

  it('gives the menu and the strings of the page language', () => {
    const { menus, t, messages } = pageContext(astro('/ru/address'));
    expect(menus).toEqual(menu('menu ru'));
    expect(t('notFound.title')).toBe('Страница не найдена');
    expect(messages(['notFound.title'])).toEqual({ 'notFound.title': 'Страница не найдена' });
  });

  it('is built once per page: every component of a render gets the same context', () => {
    const page = astro('/en/news');
    expect(pageContext(page)).toBe(pageContext(page));
    expect(pageContext(page)).not.toBe(pageContext(astro('/en/news')));
  });
});
