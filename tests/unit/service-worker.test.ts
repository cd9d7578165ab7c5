/** The build step that writes /sw.js (issue 14): what it precaches, what it leaves out, and that it is deterministic. */
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { precacheList, writeServiceWorker } from '../../scripts/lib/service-worker.ts';

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

  it('writes the same bytes for the same site, and new ones when a precached file changes, not when a picture does', async () => {
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
