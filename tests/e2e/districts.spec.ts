/**
 * Two districts on one origin, each under its own path of a shared domain (BASE_PATH), as state bodies'
 * sites are served under one national domain: built from the same sample API, served by one server, and
 * opened in one browser. What one district's visitor leaves on the device (the language chosen, a vote,
 * an appeal draft, saved pages and the service worker) never shows on the other's site. And nginx, with the
 * configuration `npm run server-config` makes from the two districts' settings files, serves both so.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import type { Server } from 'node:http';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { nginxConfig, servedDistricts } from '../../scripts/serving/nginx-config.ts';
import { serveDist } from '../../scripts/serving/static-server.ts';
import { loadPolicy, policyHelper } from '../helpers/load-policy.ts';
import { startNginx } from '../helpers/web-servers.ts';
import { DICTIONARIES } from '../../src/i18n/t.ts';
import { expect, appealFormReady, surveyVotesReady, test } from './fixtures.ts';
import { chooseLanguage } from './routes-helpers.ts';

const run = promisify(execFile);
const WORK = `${process.env.E2E_DIR ?? '.cache/e2e'}/districts`;
const FIXTURES = 'tests/fixtures/districts';
const CHUST = JSON.parse(readFileSync(join(FIXTURES, 'chust', 'district.json'), 'utf8')) as { texts: Record<string, Record<string, string>> };
const UZ = DICTIONARIES['uz-latn'];

/** Builds one district under `basePath` against the suite's sample API, into its own folders. */
async function buildDistrict(name: string, basePath: string, districtsDir?: string): Promise<string> {
  const dir = `${WORK}/${name}`;
  await run(process.execPath, ['scripts/build.ts'], {
    env: {
      ...process.env,
      SITE_DISTRICT: name,
      ...(districtsDir ? { DISTRICTS_DIR: districtsDir } : {}),
      BASE_PATH: basePath,
      API_BASE: process.env.E2E_API_URL!,
      SITE_URL: 'http://127.0.0.1',
      // Every folder of its own, as a server of several districts keeps them (README "Running several districts").
      DATA_DIR: dir,
      ASTRO_TELEMETRY_DISABLED: '1',
    },
    maxBuffer: 64 * 1024 * 1024,
  });
  return `${dir}/dist`;
}

let server: Server;
let origin: string;
const sites: Record<string, string> = {};

test.describe.configure({ mode: 'serial' });
test.use({ serviceWorkers: 'allow' });

test.beforeAll(async () => {
  test.setTimeout(600_000);
  await rm(WORK, { recursive: true, force: true });
  // One after the other: the machine has two cores, and the rest of the suite runs meanwhile.
  const qorakul = (sites.qorakul = await buildDistrict('qorakul', '/qorakul'));
  const chust = (sites.chust = await buildDistrict('chust', '/chust', FIXTURES));
  const served = await serveDist({
    sites: [
      { root: qorakul, basePath: '/qorakul' },
      { root: chust, basePath: '/chust' },
    ],
    port: 0,
  });
  server = served.server;
  origin = served.url;
});

test.afterAll(async () => {
  await new Promise<void>((ok) => (server ? server.close(() => ok()) : ok()));
  await rm(WORK, { recursive: true, force: true });
});

test('each district is its own site under its path, with its own name', async ({ page, consoleErrors }) => {
  await page.goto(`${origin}/chust/ru/`);
  await expect(page).toHaveTitle(new RegExp(CHUST.texts.ru!['site.name']!));
  await chooseLanguage(page, DICTIONARIES.ru, 'English');
  await expect(page).toHaveURL(`${origin}/chust/en/`);
  await page.goto(`${origin}/qorakul/`);
  await expect(page).toHaveTitle(new RegExp(UZ['site.name']));
  expect((await page.request.get(`${origin}/`)).status()).toBe(404);
  expect(consoleErrors).toEqual([]);
});

test('the language chosen on one district is not the other’s', async ({ page }) => {
  await page.goto(`${origin}/qorakul/`);
  await chooseLanguage(page, UZ, 'Русский');
  await expect(page).toHaveURL(`${origin}/qorakul/ru/`);
  // Back on the unprefixed page, the choice leads to Russian before the page paints.
  await page.goto(`${origin}/qorakul/news`);
  await expect(page).toHaveURL(`${origin}/qorakul/ru/news`);
  // The other district's visitor never chose: its pages stay in its default language.
  await page.goto(`${origin}/chust/news`);
  await expect(page).toHaveURL(`${origin}/chust/news`);
  await expect(page.locator('html')).toHaveAttribute('lang', 'uz-Latn');
});

test('a vote cast on one district leaves the other’s survey open', async ({ page }) => {
  await page.goto(`${origin}/qorakul/`);
  const card = page.locator('.survey').first();
  await card.scrollIntoViewIfNeeded();
  const like = card.getByRole('button', { name: new RegExp(UZ['survey.like']) });
  await like.click();
  await expect(like).toHaveAttribute('aria-pressed', 'true');
  await expect(like).toBeDisabled();
  await page.goto(`${origin}/chust/`);
  const other = page.locator('.survey').first();
  await other.scrollIntoViewIfNeeded();
  await surveyVotesReady(page);
  await expect(other.getByRole('button', { name: new RegExp(UZ['survey.like']) })).toBeEnabled();
  await expect(other.getByRole('button', { name: new RegExp(UZ['survey.like']) })).not.toHaveAttribute('aria-pressed', 'true');
});

test('an appeal draft written on one district is not restored on the other', async ({ page }) => {
  const message = 'Mahallamizdagi koʻcha chiroqlari bir oydan beri yonmayapti.';
  await page.goto(`${origin}/qorakul/murojaat_yuborish`);
  await appealFormReady(page);
  await page.getByLabel(UZ['appeal.message'], { exact: true }).fill(message);
  await page.reload();
  await expect(page.getByText(UZ['appeal.draftRestored'])).toBeVisible();
  await expect(page.getByLabel(UZ['appeal.message'], { exact: true })).toHaveValue(message);
  await page.goto(`${origin}/chust/murojaat_yuborish`);
  await appealFormReady(page);
  await expect(page.getByLabel(UZ['appeal.message'], { exact: true })).toHaveValue('');
  await expect(page.getByText(UZ['appeal.draftRestored'])).toHaveCount(0);
});

test('each district has its own service worker and saved pages', async ({ page, context }) => {
  const openAndSave = async (path: string, cache: string) => {
    await page.goto(`${origin}${path}`);
    await expect.poll(() => page.evaluate(() => Boolean(navigator.serviceWorker.controller)), { timeout: 15_000 }).toBe(true);
    await expect.poll(() => page.evaluate(async ([name, href]) => Boolean(await (await caches.open(name!)).match(href!)), [cache, page.url()])).toBe(true);
  };
  await openAndSave('/qorakul/ru/news', 'qorakul-pages');
  await openAndSave('/chust/ru/', 'chust-pages');
  const scopes = await page.evaluate(async () => (await navigator.serviceWorker.getRegistrations()).map((r) => new URL(r.scope).pathname).sort());
  expect(scopes).toEqual(['/chust/', '/qorakul/']);
  await expect.poll(() => page.evaluate(async () => (await caches.keys()).filter((k) => k.endsWith('-pages')).sort())).toEqual(['chust-pages', 'qorakul-pages']);

  // Offline, each district's offline page lists only the pages saved from it.
  await context.setOffline(true);
  await page.goto(`${origin}/chust/ru/offline`);
  const savedLinks = () =>
    page
      .getByRole('main')
      .getByRole('listitem')
      .getByRole('link')
      .evaluateAll((as) => as.map((a) => a.getAttribute('href')));
  await expect.poll(savedLinks).toContain('/chust/ru/');
  expect((await savedLinks()).filter((href) => !href?.startsWith('/chust/'))).toEqual([]);
  await page.goto(`${origin}/qorakul/ru/news`);
  await expect(page.locator('[data-saved-copy]')).toBeVisible();
  await context.setOffline(false);
});

test("nginx, configured from the two districts' settings files, serves each under its path as preview does", async () => {
  const policy = (name: string) => readFileSync(join(sites[name]!, 'content-security-policy.txt'), 'utf8').trim();
  const helper = policyHelper(join(process.cwd(), WORK));
  const files = ['qorakul', 'chust'].map((name) => {
    const releases = join(process.cwd(), WORK, name, 'releases');
    mkdirSync(releases, { recursive: true });
    symlinkSync(join(process.cwd(), sites[name]!), join(releases, 'current'));
    loadPolicy(helper, name, policy(name));
    const file = join(WORK, `${name}.env`);
    const own = name === 'chust' ? [`DISTRICTS_DIR=${FIXTURES}`] : [];
    const port = name === 'chust' ? 8791 : 8790;
    writeFileSync(file, [`SITE_DISTRICT=${name}`, ...own, 'SITE_URL=https://gov.example', `BASE_PATH=/${name}`, `RELEASES_DIR=${releases}`, `WEBHOOK_PORT=${port}`, ''].join('\n'));
    return file;
  });
  const nginx = await startNginx({ config: nginxConfig(servedDistricts(files, process.cwd())), policyDir: helper.dir });
  const get = (path: string) => fetch(`${nginx.base}${path}`, { redirect: 'manual', headers: { 'accept-encoding': 'br' } });
  try {
    for (const name of ['qorakul', 'chust']) {
      const page = await get(`/${name}/ru/news`);
      expect(page.status).toBe(200);
      expect(page.headers.get('content-encoding')).toBe('br');
      expect(page.headers.get('content-security-policy')).toBe(policy(name));
      expect(page.headers.get('cache-control')).toBe('public, max-age=0, s-maxage=300, stale-while-revalidate=60, stale-if-error=604800');
      expect(page.headers.get('x-frame-options')).toBe('SAMEORIGIN');
      // The cache rules see the file's path in its release: hashed assets are kept a year.
      const asset = readdirSync(join(sites[name]!, '_astro')).find((f) => f.endsWith('.css'))!;
      expect((await get(`/${name}/_astro/${asset}`)).headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      const missing = await get(`/${name}/ru/no-such-page`);
      expect(missing.status).toBe(404);
      expect(missing.headers.get('cache-control')).toBe('no-store');
      const title = name === 'chust' ? CHUST.texts.ru!['site.name']! : DICTIONARIES.ru['site.name'];
      expect(await missing.text()).toContain(title);
      const oldLink = await get(`/${name}/ru/news?pageNumber=2`);
      expect(oldLink.status).toBe(200);
      expect(await oldLink.text()).toContain(`data-base="/${name}/ru/news/page/"`);
      const bare = await get(`/${name}`);
      expect([bare.status, bare.headers.get('location')]).toEqual([301, `/${name}/`]);
    }
    expect((await get('/')).status).toBe(404);
    expect((await get('/ru/news')).status).toBe(404);
  } finally {
    await nginx.close();
  }
});
