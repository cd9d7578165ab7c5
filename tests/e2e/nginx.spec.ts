/**
 * deploy/nginx.conf run for real: nginx serves this run's build with the
 * production configuration (only the port and the folders changed), and answers
 * as `npm run preview` does: precompressed files, cache rules, content types,
 * security headers, the release's CSP, and each language's not-found page.
 * Needs nginx with the brotli module (Debian: nginx libnginx-mod-http-brotli-static;
 * .ci/run installs them).
 */
import { mkdtempSync, readdirSync, existsSync, readFileSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { expect, test } from '@playwright/test';
import { LANGUAGES, localizePath } from '../../src/i18n/languages.ts';
import { cacheControl } from '../../scripts/serving/cache-rules.ts';
import { loadPolicy, policyHelper } from '../helpers/load-policy.ts';
import { startNginx, type Nginx } from '../helpers/web-servers.ts';

const DIST = resolve(process.env.E2E_DIR ?? '.cache/e2e', 'dist');

let nginx: Nginx | undefined;
let base = '';
/** The port-80 server of the configuration (it only redirects to HTTPS). */
let plainBase = '';
let folder = '';

test.beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'nginx-csp-'));
  const helper = policyHelper(folder);
  loadPolicy(helper, 'qorakul', readFileSync(join(DIST, 'content-security-policy.txt'), 'utf8').trim());
  nginx = await startNginx({ root: DIST, policyDir: helper.dir });
  ({ base, plainBase } = nginx);
});

test.afterAll(async () => {
  await nginx?.close();
  if (folder) rmSync(folder, { recursive: true, force: true });
});

const get = (url: string, encoding = 'br, gzip') => fetch(url, { headers: { 'accept-encoding': encoding }, redirect: 'manual' });

test('a page is sent precompressed (brotli, else gzip, else plain), revalidated, with every security header and the release CSP', async () => {
  const policy = readFileSync(join(DIST, 'content-security-policy.txt'), 'utf8').trim();
  for (const [encoding, expected] of [
    ['br, gzip', 'br'],
    ['gzip', 'gzip'],
    ['identity', null],
  ] as const) {
    const res = await get(`${base}/ru/news`, encoding);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-encoding')).toBe(expected);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    // Browsers ask again on every visit; an edge keeps it minutes and may serve it for a week while this server fails.
    expect(res.headers.get('cache-control')).toBe('public, max-age=0, s-maxage=300, stale-while-revalidate=60, stale-if-error=604800');
    expect(res.headers.get('content-security-policy')).toBe(policy);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
    expect(res.headers.get('permissions-policy')).toContain('camera=()');
    expect(res.headers.get('x-frame-options')).toBe('SAMEORIGIN');
    expect(res.headers.get('cross-origin-opener-policy')).toBe('same-origin');
    expect(res.headers.get('strict-transport-security')).toBe('max-age=31536000; includeSubDomains');
    // No version number for a scanner to match against known vulnerabilities.
    expect(res.headers.get('server')).toBe('nginx');
    expect(await res.text()).toContain('<html lang="ru"');
  }
});

test('a news page, which has a .br only, is gzipped as it is sent to a client without brotli', async () => {
  const id = readdirSync(join(DIST, 'ru', 'news')).find((name) => /^\d+$/.test(name))!;
  const page = join(DIST, 'ru', 'news', id, 'index.html');
  expect(existsSync(`${page}.br`) && !existsSync(`${page}.gz`), 'a .br and no .gz').toBe(true);
  for (const [encoding, expected] of [
    ['br, gzip', 'br'],
    ['gzip', 'gzip'],
    ['identity', null],
  ] as const) {
    const res = await get(`${base}/ru/news/${id}`, encoding);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-encoding'), encoding).toBe(expected);
    expect(res.headers.get('vary')).toContain('Accept-Encoding');
    expect(await res.text()).toBe(readFileSync(page, 'utf8'));
  }
});

test('plain HTTP only redirects to HTTPS, keeping the path and query', async () => {
  const res = await fetch(`${plainBase}/ru/news?pageNumber=2`, { redirect: 'manual' });
  expect(res.status).toBe(301);
  expect(res.headers.get('location')).toBe('https://qorakul.uz/ru/news?pageNumber=2');
  expect(res.headers.get('server')).toBe('nginx');
  // A request naming another host is still sent to the site's own name, never to that host.
  const foreign = await new Promise<{ status?: number; location?: string }>((resolve, reject) => {
    const url = new URL(`${plainBase}/news`);
    request({ host: url.hostname, port: url.port, path: '/news', headers: { host: 'evil.example' } }, (r) => {
      r.resume();
      resolve({ status: r.statusCode, location: r.headers.location });
    })
      .on('error', reject)
      .end();
  });
  expect(foreign).toEqual({ status: 301, location: 'https://qorakul.uz/news' });
});

test('an old ?pageNumber=N list link is the list itself, whose first page reads the number', async () => {
  for (const path of ['/ru/news?pageNumber=3', '/official-lectures?pageNumber=1']) {
    const res = await get(`${base}${path}`);
    expect(res.status, path).toBe(200);
    expect(await res.text(), path).toContain('<page-number-redirect');
  }
});

test('hashed assets are cached for a year, with their type and the security headers', async () => {
  const assets = [...readdirSync(join(DIST, '_astro')), ...readdirSync(join(DIST, '_astro', 'pictures')).map((f) => `pictures/${f}`)];
  for (const ext of ['.css', '.js', '.webp']) {
    const name = assets.find((f) => f.endsWith(ext))!;
    expect(name, `a ${ext} file in the build`).toBeTruthy();
    const res = await get(`${base}/_astro/${name}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(res.headers.get('content-type')).toMatch({ '.css': /^text\/css/, '.js': /javascript/, '.webp': /^image\/webp/ }[ext]!);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('content-security-policy')).toBeTruthy();
  }
});

test("unknown paths get their language's not-found page with status 404, in every language", async () => {
  for (const lang of LANGUAGES) {
    const res = await get(`${base}${localizePath(lang, '/no-such-page')}`);
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('content-security-policy')).toBeTruthy();
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('x-frame-options')).toBe('SAMEORIGIN');
    expect(await res.text()).toContain(`<html lang="${lang.tag}"`);
  }
});

test('other error answers are never cached either, and keep the security headers', async () => {
  const css = readdirSync(join(DIST, '_astro')).find((f) => f.endsWith('.css'))!;
  const refused = await fetch(`${base}/_astro/${css}`, { method: 'POST' });
  expect(refused.status).toBe(405);
  expect(refused.headers.get('cache-control')).toBe('no-store');
  expect(refused.headers.get('x-content-type-options')).toBe('nosniff');
});

test('answers as `npm run preview` does: status, type, encoding and caching of each kind of file', async () => {
  const css = readdirSync(join(DIST, '_astro')).find((f) => f.endsWith('.css'))!;
  const paths = [
    '/',
    '/news',
    '/uz-cyrl/gallery/photo',
    '/en/murojaat_yuborish',
    '/500',
    '/yangiliklar',
    '/ru/fotogalareya',
    `/_astro/${css}`,
    '/favicon.svg',
    '/robots.txt',
    '/en/nowhere',
    '/nowhere',
    // Old list links: a permanent redirect to the static page (page 1 is the list itself).
    '/news?pageNumber=2',
    '/news?pageNumber=1',
    '/ru/news?pageNumber=3',
    '/uz-cyrl/official-lectures?pageNumber=2',
    '/en/official-lectures?pageNumber=1',
    '/news?pageNumber=x',
  ];
  const view = async (res: Response) => ({
    status: res.status,
    location: res.headers.get('location'),
    type: res.headers.get('content-type')?.split(';')[0],
    encoding: res.headers.get('content-encoding'),
    cache: res.headers.get('cache-control'),
  });
  for (const path of paths) {
    expect(await view(await get(`${base}${path}`)), path).toEqual(await view(await get(`${process.env.E2E_BASE_URL}${path}`)));
  }
});

test('has the service worker checked by browsers on every use, as `npm run preview` does', async () => {
  const caching = async (url: string) => (await get(url)).headers.get('cache-control');
  expect(await caching(`${base}/sw.js`)).toMatch(/^public, max-age=0,/);
  expect(await caching(`${base}/sw.js`)).toBe(cacheControl('/sw.js', 'sw.js'));
  expect(await caching(`${process.env.E2E_BASE_URL}/sw.js`)).toBe(cacheControl('/sw.js', 'sw.js'));
});
