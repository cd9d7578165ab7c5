/**
 * Offline reading: the service worker keeps the pages a visitor opened and shows them,
 * marked as saved copies, when the connection is gone; a page never opened gets the offline page of
 * its language, which lists what this device has saved; a visitor online always gets the
 * release the server has, page and worker alike; and a page the site takes down is not kept.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { swapLink } from '../../scripts/pipeline/publish/releases.ts';
import { writeServiceWorker } from '../../src/features/offline/build-service-worker.ts';
import { serveDist } from '../../scripts/serving/static-server.ts';
import { OFFLINE_CACHES } from '../../src/features/offline/offline-caches.ts';
import { formatSavedAt, SAVED_AT_ATTRIBUTE } from '../../src/features/offline/saved-copy.ts';
import { LANGUAGES, localizePath } from '../../src/i18n/languages.ts';
import { t } from '../../src/i18n/t.ts';
import { expect, test } from './fixtures.ts';

test.use({ serviceWorkers: 'allow' });

const DIST = `${process.env.E2E_DIR ?? '.cache/e2e'}/dist`;
const [UZ, CYRL, RU, EN] = LANGUAGES;

/**
 * Offline, what the device has not kept fails to load, and says so in the console: allowed only for
 * pictures not seen online (the first page's loaded before the worker existed) and for other origins
 * (the API). A script, a style, the icon sprite or the favicon failing would fail the test.
 */
function recordOfflineFailures(page: Page, errors: string[]): () => void {
  const failed: string[] = [];
  page.on('requestfailed', (request) => {
    const url = new URL(request.url());
    if (url.origin === new URL(page.url()).origin && request.resourceType() !== 'image') failed.push(request.url());
  });
  return () => {
    expect(failed, 'same-origin files that failed offline').toEqual([]);
    for (let i = errors.length - 1; i >= 0; i--) if (/^Failed to load resource: net::ERR_(FAILED|INTERNET_DISCONNECTED)$/.test(errors[i]!)) errors.splice(i, 1);
  };
}

/** Opens `url` and waits until the worker controls the page and has saved it. */
async function openAndSave(page: Page, url: string): Promise<void> {
  await page.goto(url);
  await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
  await expect.poll(() => page.evaluate(() => Boolean(navigator.serviceWorker.controller))).toBe(true);
  await expect.poll(() => page.evaluate(async ([name, href]) => Boolean(await (await caches.open(name!)).match(href!)), [OFFLINE_CACHES.pages.name, page.url()])).toBe(true);
}

test.describe('offline', () => {
  for (const lang of [UZ, RU]) {
    test(`a page opened before opens offline as a saved copy, saying from when (${lang.label})`, async ({ page, context, consoleErrors }) => {
      const path = localizePath(lang, '/news');
      await openAndSave(page, path);
      const heading = await page.getByRole('heading', { level: 1 }).textContent();
      const before = Date.now();
      await expect(page.locator('[data-saved-copy]')).toBeHidden();

      const checkFailures = recordOfflineFailures(page, consoleErrors);
      await context.setOffline(true);
      await page.reload();
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(heading!);
      const savedAt = (await page.locator('html').getAttribute(SAVED_AT_ATTRIBUTE))!;
      expect(Math.abs(Date.parse(savedAt) - before)).toBeLessThan(60_000);
      const note = page.getByRole('status').filter({ hasText: formatSavedAt(savedAt, lang)! });
      await expect(note).toHaveText(t(lang, 'offline.savedCopy', { when: formatSavedAt(savedAt, lang)! }));
      await expect(note).toBeVisible();
      checkFailures();
    });
  }

  for (const lang of [EN, CYRL]) {
    test(`a page never opened shows the offline page, listing the saved pages (${lang.label})`, async ({ page, context, consoleErrors }) => {
      await openAndSave(page, localizePath(lang, '/'));
      const home = page.url();
      const homeTitle = await page.locator('meta[property="og:title"]').getAttribute('content');

      const checkFailures = recordOfflineFailures(page, consoleErrors);
      await context.setOffline(true);
      await page.goto(localizePath(lang, '/gallery/photo'));
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(t(lang, 'offline.title'));
      await expect(page.locator('html')).toHaveAttribute('lang', lang.tag);
      await expect(page.getByText(t(lang, 'offline.text'))).toBeVisible();
      const saved = page.getByRole('main').getByRole('listitem');
      await expect(saved).toHaveCount(1);
      await expect(saved.getByRole('link', { name: homeTitle! })).toHaveAttribute('href', new URL(home).pathname);
      await expect(page.getByText(t(lang, 'offline.savedNone'))).toBeHidden();

      // The saved page opens from the list, as a saved copy.
      await saved.getByRole('link').click();
      await expect(page.locator('[data-saved-copy]')).toBeVisible();
      checkFailures();
    });
  }

  test('never keeps the API, another origin or the worker itself', async ({ page }) => {
    await openAndSave(page, '/');
    const kept = await page.evaluate(async () => {
      const urls: string[] = [];
      for (const name of await caches.keys()) for (const request of await (await caches.open(name)).keys()) urls.push(request.url);
      return urls;
    });
    expect(kept.length).toBeGreaterThan(5);
    expect(kept.filter((u) => new URL(u).origin !== new URL(page.url()).origin || new URL(u).pathname === '/sw.js')).toEqual([]);
    expect(kept.some((u) => u.startsWith(process.env.E2E_API_URL!))).toBe(false);
  });
});

test('after a rebuild publishes, the next navigation shows the new page and the worker updates', async ({ page }) => {
  // A release of our own, served as production serves `current`: the shared build stays as it is.
  const dir = mkdtempSync(join(tmpdir(), 'offline-releases-'));
  execFileSync('cp', ['-al', DIST, join(dir, 'r1')]);
  const current = join(dir, 'current');
  await swapLink(current, join(dir, 'r1'));
  const site = await serveDist({ root: current, port: 0 });
  try {
    const page1 = `${site.url}${localizePath(RU, '/news')}`;
    await openAndSave(page, page1);
    const heading = (await page.getByRole('heading', { level: 1 }).textContent())!.trim();

    // The next release: the page's heading changed, and one more stylesheet, so the asset set did too.
    const r2 = join(dir, 'r2');
    execFileSync('cp', ['-al', join(dir, 'r1'), r2]);
    const file = join(r2, 'ru/news/index.html');
    const html = readFileSync(file, 'utf8');
    for (const f of [file, `${file}.br`, `${file}.gz`, join(r2, 'sw.js'), join(r2, 'sw.js.br'), join(r2, 'sw.js.gz')]) rmSync(f, { force: true });
    writeFileSync(file, html.replace(/(<h1[^>]*>[^<]*)/, '$1 (2)'));
    writeFileSync(join(r2, '_astro/added.T3st0001.css'), 'body{}');
    await writeServiceWorker(r2, true);
    await swapLink(current, r2);

    await page.goto(page1);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(`${heading} (2)`);
    await expect(page.locator('[data-saved-copy]')).toBeHidden();
    // The new worker took over and precached the new release's assets.
    await expect.poll(() => page.evaluate(async () => Boolean(await caches.match('/_astro/added.T3st0001.css'))), { timeout: 15_000 }).toBe(true);
  } finally {
    site.server.closeAllConnections();
    await new Promise<void>((ok) => site.server.close(() => ok()));
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a page the site takes down leaves the device: when the next release takes over, and when the server says 404', async ({ page, context }) => {
  const dir = mkdtempSync(join(tmpdir(), 'offline-releases-'));
  execFileSync('cp', ['-al', DIST, join(dir, 'r1')]);
  const current = join(dir, 'current');
  await swapLink(current, join(dir, 'r1'));
  const site = await serveDist({ root: current, port: 0 });
  const saved = (path: string) => page.evaluate(async ([name, href]) => Boolean(await (await caches.open(name!)).match(href!)), [OFFLINE_CACHES.pages.name, `${site.url}${path}`]);
  try {
    const [removed, gone] = readdirSync(join(DIST, 'ru/news'))
      .filter((name) => /^\d+$/.test(name))
      .slice(0, 2)
      .map((id) => localizePath(RU, `/news/${id}`));
    for (const path of [removed!, gone!]) await openAndSave(page, `${site.url}${path}`);
    await openAndSave(page, `${site.url}${localizePath(RU, '/news')}`);

    // The next release has neither post. Its worker's list lacks the first; the second goes after the
    // worker is written, so only the server knows: the 404 must do it. (Files of r2 are links to r1's:
    // removed, never written through.)
    const r2 = join(dir, 'r2');
    execFileSync('cp', ['-al', join(dir, 'r1'), r2]);
    rmSync(join(r2, removed!.slice(1)), { recursive: true });
    for (const f of ['sw.js', 'sw.js.br', 'sw.js.gz']) rmSync(join(r2, f), { force: true });
    await writeServiceWorker(r2, true);
    rmSync(join(r2, gone!.slice(1)), { recursive: true });
    await swapLink(current, r2);

    // The next navigation brings the new worker, which drops the page its release does not have, and only that one.
    await page.goto(`${site.url}${localizePath(RU, '/news')}`);
    await expect.poll(() => saved(removed!), { timeout: 15_000 }).toBe(false);
    expect(await saved(gone!)).toBe(true);

    // The server says the other is gone: the visitor gets the not-found page, not the saved copy, and the copy goes.
    // (The sample API still has the post, which that page then asks for and shows: "Just published", README.)
    const answer = await page.goto(`${site.url}${gone}`);
    expect(answer?.status()).toBe(404);
    expect(await answer!.text()).toContain(t(RU, 'notFound.title'));
    await expect(page.locator('html')).not.toHaveAttribute(SAVED_AT_ATTRIBUTE);
    await expect(page.locator('[data-saved-copy]')).toBeHidden();
    await expect.poll(() => saved(gone!)).toBe(false);

    // Offline, neither is shown: each gets the offline page, whose list of saved pages has neither.
    await context.setOffline(true);
    for (const path of [removed!, gone!]) {
      await page.goto(`${site.url}${path}`);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(t(RU, 'offline.title'));
      const links = () =>
        page
          .getByRole('main')
          .getByRole('listitem')
          .getByRole('link')
          .evaluateAll((as) => as.map((a) => a.getAttribute('href')));
      // The page reads its list from the device's cache after it loads, and adds every item at once.
      await expect.poll(links).toContain(localizePath(RU, '/news'));
      expect(await links()).not.toContain(removed);
      expect(await links()).not.toContain(gone);
    }
  } finally {
    await context.setOffline(false);
    site.server.closeAllConnections();
    await new Promise<void>((ok) => site.server.close(() => ok()));
    rmSync(dir, { recursive: true, force: true });
  }
});

test.describe('search offline', () => {
  test('a search made online answers again offline, from the parts of the index it read (Oʻzbekcha)', async ({ page, context }) => {
    await openAndSave(page, localizePath(UZ, '/search'));
    const indexRead: string[] = [];
    page.on('request', (request) => void (/\/search-index\//.test(request.url()) && indexRead.push(request.url())));
    await page.goto(`${localizePath(UZ, '/search')}?q=maktab`);
    const results = page.locator('[data-search-results]');
    await expect(results.getByRole('link').first()).toBeVisible();
    await expect(results.getByText(t(UZ, 'search.fromIndex'))).toHaveCount(0);
    // The worker has kept every part of the index the page read beside the API: the word's part and, after
    // it, the part of the documents it found (the API's answer may come first).
    await expect
      .poll(() =>
        page.evaluate(
          async ({ name, read }) => {
            const kept = new Set((await (await caches.open(name)).keys()).map((r) => r.url));
            return read.some((url) => /\/w\d+\.json$/.test(url)) && read.some((url) => /\/d\d+\.json$/.test(url)) && read.every((url) => kept.has(url));
          },
          { name: OFFLINE_CACHES.search.name, read: indexRead },
        ),
      )
      .toBe(true);

    await context.setOffline(true);
    // Another address of the search page (another query) opens too: the page is kept once, whatever its query.
    await page.goto(`${localizePath(UZ, '/search')}?q=${encodeURIComponent('мактаб')}`);
    await expect(results.getByText(t(UZ, 'search.fromIndex'))).toBeVisible();
    await expect(results.getByRole('link', { name: /maktab/i }).first()).toBeVisible();
  });
});
