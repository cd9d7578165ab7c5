/**
 * The build step that writes /sw.js: what it precaches, what it leaves out, that it is
 * deterministic, and the list of the site's pages it gives the worker, by which a saved copy of a page
 * the site no longer has is dropped.
 */
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { pagePaths, pagesAmong, precacheList, writeServiceWorker } from './build-service-worker.ts';
import { PICTURE_SITE_DIR } from '../../content/pictures/settings.ts';
import { hasPage, pagePath, removedPages, sitePages } from './site-pages.ts';

let root = '';
const put = async (path: string, body: string) => {
  await mkdir(dirname(join(root, path)), { recursive: true });
  await writeFile(join(root, path), body);
};

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'sw-'));
  await put('_astro/page.B1x2y3.js', 'console.log(1)');
  await put('_astro/page.B1x2y3.js.br', 'compressed');
  await put('_astro/BaseLayout.C4d5e6.css', 'body{}');
  await put('_astro/photo.D7f8g9.webp', 'picture');
  // The drawn pictures' folder is not walked: whatever it holds is no script or style of the site.
  await put(`${PICTURE_SITE_DIR}/77-400.webp`, 'picture');
  await put(`${PICTURE_SITE_DIR}/notes.js`, 'not a script of the site');
  await put('icons.svg', '<svg></svg>');
  await put('favicon.svg', '<svg></svg>');
  await put('illustrations/map.svg', '<svg></svg>');
  await put('news/5/index.html', '<html>news</html>');
  for (const prefix of ['', 'uz-cyrl/', 'ru/', 'en/']) await put(`${prefix}offline/index.html`, `<html>offline ${prefix}</html>`);
});
afterEach(() => rm(root, { recursive: true, force: true }));

describe('the service worker build step', () => {
  it('precaches the hashed scripts and styles, the icon sprite, the favicon and the four offline pages, and nothing else', async () => {
    const list = await precacheList(root);
    expect(list.map((e) => e.url)).toEqual([
      '/_astro/BaseLayout.C4d5e6.css',
      '/_astro/page.B1x2y3.js',
      '/en/offline',
      '/favicon.svg',
      '/icons.svg',
      '/offline',
      '/ru/offline',
      '/uz-cyrl/offline',
    ]);
    // Hashed names are their own revision; the others are revised by their content.
    expect(list.filter((e) => e.url.startsWith('/_astro/')).every((e) => !e.revision)).toBe(true);
    expect(list.filter((e) => !e.url.startsWith('/_astro/')).every((e) => /^[0-9a-f]{32}$/.test(e.revision ?? ''))).toBe(true);
  });

  it('writes the same bytes for the same site, and new ones when a precached file changes, not when a picture or a page does', async () => {
    const written = async () => readFile(await writeServiceWorker(root, true), 'utf8');
    const first = await written();
    expect(await written()).toBe(first);
    expect(first).toContain('/_astro/page.B1x2y3.js');
    expect(first).not.toContain('photo.D7f8g9.webp');
    expect(first).not.toContain('news/5');

    await put('_astro/photo.D7f8g9.webp', 'another picture');
    await put('news/5/index.html', '<html>news, edited</html>');
    expect(await written()).toBe(first);

    await put('ru/offline/index.html', '<html>offline, edited</html>');
    expect(await written()).not.toBe(first);
  });

  it("gives the worker the site's pages: a page added or removed is a new worker, made from this build's files alone", async () => {
    const written = async (dir = root) => readFile(await writeServiceWorker(dir, true), 'utf8');
    const first = await written();
    expect(first).toContain('"/news":[5]');
    await put('news/6/index.html', '<html>news 6</html>');
    const added = await written();
    expect(added).toContain('"/news":[[5,6]]');
    await rm(join(root, 'news/5'), { recursive: true });
    expect(await written()).toContain('"/news":[6]');
    // The same site built elsewhere, its files made in another order (a cold build): the same bytes.
    const other = root;
    root = await mkdtemp(join(tmpdir(), 'sw-'));
    for (const prefix of ['en/', 'ru/', 'uz-cyrl/', '']) await put(`${prefix}offline/index.html`, `<html>offline ${prefix}</html>`);
    for (const f of ['news/6/index.html', 'favicon.svg', 'icons.svg', '_astro/BaseLayout.C4d5e6.css', '_astro/page.B1x2y3.js', 'illustrations/map.svg']) {
      await put(f, await readFile(join(other, f), 'utf8'));
    }
    expect(await written(root)).toBe(await written(other));
    await rm(other, { recursive: true, force: true });
  });

  it('lists every page of a built site by its site path: folders with index.html, and pages written as name.html', async () => {
    await put('404.html', 'not found');
    await put('index.html', 'home');
    await put('ru/404/index.html', 'не найдено');
    expect((await pagePaths(root)).sort()).toEqual(['/', '/404', '/en/offline', '/news/5', '/offline', '/ru/404', '/ru/offline', '/uz-cyrl/offline']);
  });

  it("given the site's files by the build's last pass, writes the worker a listing of the folder gives", async () => {
    await put('404.html', 'not found');
    await put('ru/404/index.html', 'не найдено');
    const files = (await readdir(root, { recursive: true, withFileTypes: true })).filter((e) => e.isFile()).map((e) => `/${relative(root, join(e.parentPath, e.name))}`);
    expect(pagesAmong(files).sort()).toEqual((await pagePaths(root)).sort());
    const listed = await readFile(await writeServiceWorker(root, true), 'utf8');
    expect(await readFile(await writeServiceWorker(root, true, files), 'utf8')).toBe(listed);
  });

  it('fails the build when an offline page is missing', async () => {
    await rm(join(root, 'en/offline'), { recursive: true });
    await expect(precacheList(root)).rejects.toThrow('/en/offline');
  });

  it('turned off, writes a worker that empties the caches and unregisters itself, with no precache list', async () => {
    const off = await readFile(await writeServiceWorker(root, false), 'utf8');
    expect(off).toContain('unregister');
    expect(off).toContain('caches.delete');
    expect(off).not.toContain('/_astro/');
    expect(off.length).toBeLessThan(1000);
  });
});

describe("the worker's list of pages", () => {
  const paths = ['/', '/news', '/news/1', '/news/2', '/news/3', '/news/7', '/news/page/2', '/ru/news/5', '/ru/page/o‘zbek', '/ru/page/007', '/en/about'];
  const pages = sitePages(paths);

  it('keeps folders, names, and numbers as ranges, the same for the same pages in any order', () => {
    expect(pages).toEqual({
      '': ['', 'news'],
      '/en': ['about'],
      '/news': [[1, 3], 7],
      '/news/page': [2],
      '/ru/news': [5],
      '/ru/page': ['007', 'o‘zbek'],
    });
    expect(sitePages([...paths].reverse())).toEqual(pages);
    expect(JSON.stringify(sitePages([...paths].reverse()))).toBe(JSON.stringify(pages));
  });

  it('knows each of its pages, and no other', () => {
    for (const p of paths) expect(hasPage(pages, p), p).toBe(true);
    for (const p of ['/news/4', '/news/8', '/news/0', '/ru/news/6', '/ru/page/7', '/ru/page/o', '/en', '/en/about/more', '/de/news/1', '/__proto__', '/news/01']) {
      expect(hasPage(pages, p), p).toBe(false);
    }
  });

  it('reads an address as the folders are named: decoded, with or without the trailing slash', () => {
    expect(pagePath('/ru/news/5/')).toBe('/ru/news/5');
    expect(pagePath('/')).toBe('/');
    expect(pagePath('/ru/page/o%E2%80%98zbek')).toBe('/ru/page/o‘zbek');
    expect(pagePath('/bad/%E2%80')).toBeNull();
  });

  it('picks, of the saved addresses, the pages the release no longer has; a malformed one is left alone', () => {
    const saved = ['/', '/ru/news/5/', '/news/4', '/news/2?utm=x', '/ru/page/o%E2%80%98zbek', '/news/page/9', '/bad/%E2%80'].map((p) => `https://qorakul.uz${p}`);
    expect(removedPages(saved, pages)).toEqual(['https://qorakul.uz/news/4', 'https://qorakul.uz/news/page/9']);
  });
});
