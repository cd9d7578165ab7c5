/**
 * A site served under a path of a shared domain (BASE_PATH): every address it writes is under the path,
 * every address it reads is taken apart under it, and the servers that serve it keep two such sites apart.
 */
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { purgePaths } from '../../scripts/pipeline/purge/purge-step.ts';
import { headersBlocks, redirectsFile, SITE_TABLES } from '../../scripts/serving/server-config.ts';
import { serveDist } from '../../scripts/serving/static-server.ts';
import { readConfig } from '../../src/config.ts';
import { BasePathError, parseBasePath } from '../../src/lib/base-path.ts';

const saved = { ...process.env };
afterEach(() => {
  process.env = { ...saved };
  vi.resetModules();
});

/** The modules that read BASE_PATH when they load, loaded again with it set. */
async function underPath(basePath: string) {
  process.env.BASE_PATH = basePath;
  vi.resetModules();
  return {
    base: await import('../../src/lib/base-path.ts'),
    languages: await import('../../src/i18n/languages.ts'),
    detail: await import('../../src/features/just-published/detail-shape.ts'),
    sitePages: await import('../../src/features/offline/site-pages.ts'),
    nearest: await import('../../src/features/nearest-list-page/nearest-list-page.ts'),
  };
}

describe('BASE_PATH', () => {
  it('takes a path as an operator may write it, and refuses one the site cannot live under', () => {
    expect(parseBasePath(undefined)).toBe('');
    expect(parseBasePath('/')).toBe('');
    expect(parseBasePath(' chust/ ')).toBe('/chust');
    expect(parseBasePath('/samarqand/chust')).toBe('/samarqand/chust');
    for (const bad of ['/chust/../etc', '/ch ust', '/chust?x=1', '/%2e%2e', '/-chust', '/a/b/c/d/e']) expect(() => parseBasePath(bad), bad).toThrow(BasePathError);
  });

  it('SITE_URL may name the same path, and no other', () => {
    process.env.BASE_PATH = '/chust';
    process.env.SITE_URL = 'https://gov.example/chust/';
    expect(readConfig()).toMatchObject({ siteUrl: 'https://gov.example', basePath: '/chust' });
    process.env.SITE_URL = 'https://gov.example/qorakul';
    expect(() => readConfig()).toThrow(/SITE_URL "https:\/\/gov\.example\/qorakul" has the path \/qorakul, but BASE_PATH is "\/chust"/);
    process.env.SITE_URL = 'https://gov.example';
    process.env.BASE_PATH = '/ru/chust';
    expect(() => readConfig()).toThrow('BASE_PATH /ru/chust begins with the language prefix /ru');
  });

  it('puts every address the site writes under the path, and reads addresses under it', async () => {
    const { base, languages, detail, sitePages, nearest } = await underPath('/chust');
    const [uz, , ru] = languages.LANGUAGES;
    expect(languages.localizePath(uz, '/')).toBe('/chust/');
    expect(languages.localizePath(ru, '/')).toBe('/chust/ru/');
    expect(languages.localizePath(ru, '/news/5')).toBe('/chust/ru/news/5');
    expect(languages.splitLocalizedPath('/chust/ru/news/5')).toEqual({ lang: ru, path: '/news/5' });
    expect(languages.splitLocalizedPath('/chust')).toEqual({ lang: uz, path: '/' });
    expect(base.withinSite('/chust-other/news')).toBeNull();
    expect(base.editorSiteLink('/news/5')).toBe('/chust/news/5');
    expect(base.editorSiteLink('/chust/news/5')).toBe('/chust/news/5');
    expect(base.editorSiteLink('//example.uz/x')).toBe('//example.uz/x');
    expect(base.editorSiteLink('#part')).toBe('#part');
    expect(detail.detailShape('/chust/ru/news/12')).toEqual({ kind: 'post', id: 12 });
    expect(detail.detailShape('/ru/news/12')).toBeNull();
    expect(nearest.nearestListPage('/chust/ru/news/page/999', { news: 4 })).toBe('/chust/ru/news');
    expect(nearest.nearestListPage('/chust/ru/news/page/0', { news: 4 })).toBe('/chust/ru/news/page/1');
    const pages = sitePages.sitePages(['/', '/ru/news/5']);
    expect(sitePages.removedPages(['https://gov.example/chust/ru/news/5', 'https://gov.example/chust/ru/news/6', 'https://gov.example/qorakul/ru/news/6'], pages)).toEqual([
      'https://gov.example/chust/ru/news/6',
    ]);
  });

  it("at the domain's root, addresses are as they always were", async () => {
    const { languages, base } = await underPath('');
    expect(languages.localizePath(languages.LANGUAGES[3], '/news/5')).toBe('/en/news/5');
    expect(base.editorSiteLink('/news/5')).toBe('/news/5');
  });

  it('purges the addresses a citizen reaches, under the path', () => {
    expect(purgePaths(['index.html', 'ru/news/5/index.html.br', '_astro/a.js'], '/chust')).toEqual(['/chust', '/chust/', '/chust/ru/news/5', '/chust/ru/news/5/']);
    expect(purgePaths(['index.html'], '')).toEqual(['/']);
  });

  it("writes the static hosts' redirects and headers under the path", () => {
    const tables = { ...SITE_TABLES, basePath: '/chust' };
    expect(redirectsFile(tables)).toContain('/chust/ru/* /chust/ru/404/index.html 404');
    expect(headersBlocks(tables)['security headers']).toMatch(/^\/chust\/\*\n/);
    expect(headersBlocks(tables)['cache rules']).toContain('/chust/_astro/*\n');
  });
});

describe('two sites on one origin, each under its path', () => {
  let server: Server;
  let url: string;
  beforeAll(async () => {
    const root = mkdtempSync(join(tmpdir(), 'two-sites-'));
    for (const name of ['qorakul', 'chust']) {
      mkdirSync(join(root, name, 'ru', '404'), { recursive: true });
      mkdirSync(join(root, name, 'news', 'page', '2'), { recursive: true });
      writeFileSync(join(root, name, 'index.html'), `<title>${name}</title>`);
      writeFileSync(join(root, name, '404.html'), `${name} not found`);
      writeFileSync(join(root, name, 'ru', '404', 'index.html'), `${name} ru not found`);
      writeFileSync(join(root, name, 'news', 'page', '2', 'index.html'), `${name} news 2`);
      writeFileSync(join(root, name, 'news', 'index.html'), `${name} news`);
    }
    ({ server, url } = await serveDist({
      sites: [
        { root: join(root, 'qorakul'), basePath: '/qorakul' },
        { root: join(root, 'chust'), basePath: '/chust' },
      ],
      port: 0,
    }));
  });
  afterAll(() => new Promise<void>((ok) => server.close(() => ok())));

  it('answers each path from its own site, with its own not-found pages; nothing outside them', async () => {
    expect(await (await fetch(`${url}/chust/`)).text()).toBe('<title>chust</title>');
    expect(await (await fetch(`${url}/qorakul`)).text()).toBe('<title>qorakul</title>');
    const missing = await fetch(`${url}/chust/ru/no-such-page`);
    expect([missing.status, await missing.text()]).toEqual([404, 'chust ru not found']);
    expect(await (await fetch(`${url}/qorakul/no-such-page`)).text()).toBe('qorakul not found');
    expect((await fetch(`${url}/`)).status).toBe(404);
    expect((await fetch(`${url}/chustx/`)).status).toBe(404);
  });

  it('serves an old list link as the list itself, under the same path', async () => {
    const oldLink = await fetch(`${url}/chust/news?pageNumber=2`, { redirect: 'manual' });
    expect([oldLink.status, await oldLink.text()]).toEqual([200, 'chust news']);
  });
});
