/**
 * `npm run bench:ready`: what a citizen on a slow rural line sees before the JavaScript has arrived.
 * Builds the site against the sample API (or takes a built one with `--dist`),
 * serves it as production does, and loads each page in Debian's Chromium through Playwright with a
 * cold cache, 400 kbps each way, a 400 ms round trip and a CPU 4× slower (DevTools throttling, applied
 * live, not simulated), at 360 px on a touch screen. Per page and language, the median of three runs:
 * when the first text paints, when the header's icons paint, when each control does what it promises (the
 * search dialog opens, the special-opportunities panel applies a choice, the survey buttons vote, the appeal form
 * can be sent), the gap
 * from the text to the last of the header's controls, and whether a tap on the menu toggle as soon as it
 * shows opened the menu. The language links are links, and work with the text.
 *
 * A mode of its own rather than of bench:web: Lighthouse simulates its throttling after a fast load,
 * which gives paint times but no live page to tap, and hydration has no Lighthouse metric.
 *
 * Then the search without the API: in a page already loaded (its scripts and styles cached), the search page is
 * opened with a query while the API refuses connections ("down") or never answers ("silent"), and the bench
 * prints when the site's own index answered, counted from the navigation, and the requests and bytes (as sent,
 * compressed) of the index that the answer read.
 *
 * `-- --dist DIR` measures a site already built; `--langs ru,uz-latn` (default), `--pages "home,appeal"`,
 * `--runs 3`.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { parseArgs, promisify } from 'node:util';
import { chromium, type Browser, type Page } from '@playwright/test';
import { readMachineSettings } from '../src/config.ts';
import { LANGUAGES, localizePath, type Language } from '../src/i18n/languages.ts';
import { startSampleApi } from './sample-api/server.ts';
import { serveDist } from './serving/static-server.ts';

/** The slow rural line: 400 kbps down and up, 400 ms round trip, a CPU 4× slower. */
const CONDITIONS = { kbps: 400, rttMs: 400, cpuSlowdown: 4 } as const;
const WORK = '.cache/bench-ready';
const RUN_TIMEOUT_MS = 60_000;
/** An address of this machine: nothing else may be reached. */
const ON_THIS_MACHINE = /^https?:\/\/(?:127\.0\.0\.1|localhost)[:/]/;

/**
 * The controls that need more than HTML, each with what matches once it does what it promises: the browser
 * opens the search dialog from its button once the dialog is in the page; the panel's inline script marks it ready;
 * the votes' script marks their buttons ready; the appeal form's script marks its send button ready.
 */
const CONTROLS = {
  search: { ready: '#search-dialog', on: 'id="search-dialog"' },
  panel: { ready: '#a11y-panel[data-ready="true"]', on: 'id="a11y-panel"' },
  votes: { ready: 'survey-votes .survey__vote[data-ready="true"]', on: '<survey-votes' },
  appeal: { ready: 'appeal-form .appeal-form__send[data-ready="true"]', on: '<appeal-form' },
} as const;
type Control = keyof typeof CONTROLS;
/** The header's: the gap is from the text to the last of these. */
const HEADER_CONTROLS: Control[] = ['search', 'panel'];

/** What one load measured, in ms from navigation start (null: never happened within the run). */
export interface RunResult {
  fcp: number | null;
  icons: number | null;
  ready: Record<Control, number | null>;
  /** When the menu toggle was tapped, and whether (and when) the menu opened. */
  tapAt: number | null;
  menuOpenedAt: number | null;
}

/**
 * Runs in the page before anything else: every frame, notes when the header's icons are drawn (an
 * icon of the sprite draws nothing until /icons.svg has arrived: its <use> has no box until then),
 * when each control's ready selector first matches, and when the menu is open. Serialised into the
 * page, so it imports nothing.
 */
function instrument(controls: Record<string, string>): void {
  const seen: Record<string, number | null> = { icons: null, menuOpenedAt: null, tapAt: null };
  for (const c of Object.keys(controls)) seen[c] = null;
  (window as unknown as { __ready: typeof seen }).__ready = seen;
  addEventListener(
    'pointerdown',
    (e) => {
      if ((e.target as Element).closest?.('[data-nav-toggle]')) seen.tapAt ??= performance.now();
    },
    true,
  );
  const drawn = (svg: SVGSVGElement) => {
    const r = svg.getBoundingClientRect();
    if (!r.width || !r.height || !svg.checkVisibility()) return false;
    const shape = svg.querySelector<SVGGraphicsElement>('use, path');
    if (!shape) return false;
    const box = shape.getBBox();
    return box.width > 0 && box.height > 0;
  };
  const frame = (now: number) => {
    const icons = [...document.querySelectorAll<SVGSVGElement>('.site-header svg.icon, [data-nav-bar] svg.icon')].filter((s) => s.checkVisibility());
    if (seen.icons === null && document.querySelector('[data-nav-bar]') && icons.length && icons.every(drawn)) seen.icons = now;
    for (const [control, ready] of Object.entries(controls)) {
      if (seen[control] === null && document.querySelector(ready)) seen[control] = now;
    }
    if (seen.menuOpenedAt === null && document.querySelector('[data-nav-toggle][aria-expanded="true"]')) seen.menuOpenedAt = now;
    requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
}

/** A fresh context (nothing cached) on a phone-sized touch screen, throttled as the slow line is. */
async function throttledPage(browser: Browser, { routed = true } = {}): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true, serviceWorkers: 'block' });
  // Nothing leaves this machine (a page that stays on it, as the search page does, may do without: Playwright's
  // routing turns the HTTP cache off).
  if (routed)
    await context.route(
      (url) => !ON_THIS_MACHINE.test(url.href),
      (route) => route.abort(),
    );
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  const bytesPerSecond = (CONDITIONS.kbps * 1000) / 8;
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: CONDITIONS.rttMs,
    downloadThroughput: bytesPerSecond,
    uploadThroughput: bytesPerSecond,
  });
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: CONDITIONS.cpuSlowdown });
  return page;
}

/** Which controls a page has, each with its ready selector: the votes only where the surveys are. */
function controlsOn(html: string): Partial<Record<Control, string>> {
  return Object.fromEntries(Object.entries(CONTROLS).flatMap(([control, c]) => (html.includes(c.on) ? [[control, c.ready]] : [])));
}

/** Taps the menu toggle as soon as it shows, without waiting for anything else. */
async function tapMenuEarly(page: Page): Promise<void> {
  const toggle = page.locator('[data-nav-toggle]');
  await toggle.waitFor({ state: 'visible', timeout: RUN_TIMEOUT_MS });
  // Only the tap itself: no wait for the button to look enabled, as a thumb does not wait either.
  await toggle.tap({ force: true });
}

/** One cold load of `url`: waits until every island control on it is ready (or the run times out). */
async function measure(browser: Browser, url: string, controls: Partial<Record<Control, string>>): Promise<RunResult> {
  const page = await throttledPage(browser);
  try {
    await page.addInitScript(instrument, controls);
    await page.goto(url, { waitUntil: 'commit' });
    await tapMenuEarly(page);
    await page
      .waitForFunction((names) => names.every((n) => (window as unknown as { __ready: Record<string, number | null> }).__ready[n] !== null), Object.keys(controls), {
        timeout: RUN_TIMEOUT_MS,
        polling: 250,
      })
      .catch(() => {});
    // The tap is long done; the menu had every chance to open, before or after the scripts came.
    return await page.evaluate(() => {
      const seen = (window as unknown as { __ready: Record<string, number | null> }).__ready;
      const fcp = performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? null;
      const icons = seen.icons ?? null;
      return {
        fcp,
        // Nothing is painted before the first paint: an icon in the HTML is drawn with it.
        icons: icons === null ? null : Math.max(icons, fcp ?? 0),
        // Nothing works before it is painted: a control ready in the HTML is ready with the text.
        ready: Object.fromEntries(['search', 'panel', 'votes', 'appeal'].map((c) => [c, seen[c] == null ? null : Math.max(seen[c]!, fcp ?? 0)])) as RunResult['ready'],
        tapAt: seen.tapAt ?? null,
        menuOpenedAt: seen.menuOpenedAt ?? null,
      };
    });
  } finally {
    await page.context().close();
  }
}

function median(values: (number | null)[]): number | null {
  const v = values.filter((x): x is number => x !== null).sort((a, b) => a - b);
  if (v.length < values.length / 2 || !v.length) return null;
  return v.length % 2 ? v[(v.length - 1) / 2]! : (v[v.length / 2 - 1]! + v[v.length / 2]!) / 2;
}

const seconds = (ms: number | null) => (ms === null ? '—' : (ms / 1000).toFixed(2));

/** From the text to the last of the header's controls on the page, in one run. */
function headerGap(r: RunResult, controls: Control[]): number | null {
  const times = HEADER_CONTROLS.filter((c) => controls.includes(c)).map((c) => r.ready[c]);
  if (r.fcp === null || !times.length || times.some((t) => t === null)) return null;
  return Math.max(...(times as number[])) - r.fcp;
}

/** One row of the table: medians of the runs of one page in one language. */
function summarise(page: string, runs: RunResult[], controls: Control[]): Record<string, string> {
  const column = (pick: (r: RunResult) => number | null) => seconds(median(runs.map(pick)));
  const opened = runs.filter((r) => r.menuOpenedAt !== null).length;
  return {
    page,
    'text (FCP) s': column((r) => r.fcp),
    'header icons s': column((r) => r.icons),
    'search ready s': controls.includes('search') ? column((r) => r.ready.search) : '—',
    'panel ready s': controls.includes('panel') ? column((r) => r.ready.panel) : '—',
    'votes ready s': controls.includes('votes') ? column((r) => r.ready.votes) : '—',
    'appeal form ready s': controls.includes('appeal') ? column((r) => r.ready.appeal) : '—',
    'header gap s': column((r) => headerGap(r, controls)),
    'menu tapped s': column((r) => r.tapAt),
    'early tap opened menu': `${opened}/${runs.length}`,
    'menu opened s': column((r) => r.menuOpenedAt),
  };
}

function markdownTable(rows: Record<string, string>[]): string {
  const columns = Object.keys(rows[0] ?? {});
  return [`| ${columns.join(' | ')} |`, `|${columns.map(() => '---').join('|')}|`, ...rows.map((r) => `| ${columns.map((c) => r[c]).join(' | ')} |`)].join('\n');
}

/** Builds the site against a sample API of its own, as bench:web does; the API keeps answering the islands. */
async function buildSite(): Promise<{ dist: string; close: () => Promise<void> }> {
  await rm(WORK, { recursive: true, force: true });
  const api = await startSampleApi({ host: '127.0.0.1', port: 0, dataDir: `${WORK}/api`, log: () => {} });
  const dist = `${WORK}/dist`;
  console.log('Building the site…');
  await promisify(execFile)(process.execPath, ['scripts/build.ts'], {
    env: { ...process.env, OUT_DIR: dist, CONTENT_DIR: `${WORK}/content`, PICTURE_DIR: `${WORK}/pictures`, DOCUMENT_DIR: `${WORK}/documents`, API_BASE: api.url },
    maxBuffer: 64 * 1024 * 1024,
  });
  return { dist, close: () => api.close() };
}

function pagesOf(dist: string): [string, string][] {
  const firstNews = /href="\/news\/(\d+)"/.exec(readFileSync(join(dist, 'news/index.html'), 'utf8'))?.[1];
  return [
    ['home', '/'],
    ['news list', '/news'],
    ['news detail', `/news/${firstNews}`],
    ['appeal', '/murojaat_yuborish'],
  ];
}

async function main(): Promise<void> {
  const { values: args } = parseArgs({
    options: { dist: { type: 'string' }, langs: { type: 'string', default: 'ru,uz-latn' }, pages: { type: 'string' }, runs: { type: 'string', default: '3' } },
  });
  const langs = args.langs.split(',').map((code) => LANGUAGES.find((l) => l.code === code.trim()) ?? fail(`unknown language ${code}`));
  const only = args.pages?.split(',').map((p) => p.trim());
  const built = args.dist ? { dist: args.dist, close: async () => {} } : await buildSite();
  const site = await serveDist({ root: built.dist, port: 0 });
  const browser = await chromium.launch({
    executablePath: readMachineSettings().chromiumPath,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update'],
  });
  const rows: Record<string, string>[] = [];
  const searchRows: Record<string, string>[] = [];
  try {
    if (!only || only.includes('search')) {
      for (const lang of langs) for (const api of ['down', 'silent'] as const) searchRows.push(await benchSearch(browser, site.url, lang, api, Number(args.runs)));
    }
    for (const lang of langs) {
      for (const [name, path] of pagesOf(built.dist).filter(([n]) => !only || only.includes(n))) {
        rows.push(await benchPage(browser, site.url, lang, name, path, built.dist, Number(args.runs)));
        process.stdout.write('.');
      }
    }
  } finally {
    await browser.close();
    site.server.closeAllConnections();
    site.server.close();
    await built.close();
  }
  const when = new Date().toISOString().slice(0, 16).replace('T', ' ');
  console.log(
    `\n\nbench:ready — Chromium ${browser.version()}, 360 px touch, cold cache, ${CONDITIONS.kbps} kbps each way, ` +
      `${CONDITIONS.rttMs} ms RTT, CPU ÷${CONDITIONS.cpuSlowdown}; median of ${args.runs} runs; ${when} UTC\n`,
  );
  if (rows.length) console.log(markdownTable(rows));
  if (searchRows.length) console.log(`\nSearch without the API (the site's own index), the same line, page assets cached:\n\n${markdownTable(searchRows)}`);
}

/** A word each language's sample content has, as a citizen would type it. */
const SEARCH_WORD: Record<Language['code'], string> = { 'uz-latn': "qorako'l maktab", 'uz-cyrl': 'мактаб', ru: 'школа', en: 'school' };

/** One search answered by the index: ms from navigation to the results, and the index's requests and bytes. */
async function searchOnce(browser: Browser, origin: string, lang: Language, api: 'down' | 'silent'): Promise<{ ms: number | null; requests: number; bytes: number }> {
  const page = await throttledPage(browser, { routed: false });
  try {
    // Through DevTools, not Playwright's routing, which turns the HTTP cache off: the page's assets must come
    // from the cache, as after the dialog's Enter. Anything not of this machine fails; a search request fails
    // ("down") or is held unanswered ("silent").
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Fetch.enable', { patterns: [{ urlPattern: '*' }] });
    cdp.on('Fetch.requestPaused', ({ requestId, request }) => {
      const local = ON_THIS_MACHINE.test(request.url);
      if (local && !request.url.includes('/api/search')) void cdp.send('Fetch.continueRequest', { requestId });
      else if (!local || api === 'down') void cdp.send('Fetch.failRequest', { requestId, errorReason: 'ConnectionRefused' });
    });
    // The page the search starts from: its scripts and styles are then in the cache, as when Enter is pressed in the dialog.
    await page.goto(origin + localizePath(lang, '/search'), { waitUntil: 'load' });
    const read: Promise<number>[] = [];
    page.on('requestfinished', (request) => {
      if (request.url().includes('/search-index/')) read.push(request.sizes().then((s) => s.responseBodySize + s.responseHeadersSize));
    });
    await page.goto(`${origin}${localizePath(lang, '/search')}?q=${encodeURIComponent(SEARCH_WORD[lang.code])}`, { waitUntil: 'commit' });
    const ms = await page
      .locator('.search-page__note')
      .waitFor({ timeout: RUN_TIMEOUT_MS })
      .then(() => page.evaluate(() => performance.now()))
      .catch(() => null);
    const sizes = await Promise.all(read);
    return { ms, requests: sizes.length, bytes: sizes.reduce((a, b) => a + b, 0) };
  } finally {
    await page.context().close();
  }
}

async function benchSearch(browser: Browser, origin: string, lang: Language, api: 'down' | 'silent', runs: number): Promise<Record<string, string>> {
  const results = [];
  for (let i = 0; i < runs; i++) results.push(await searchOnce(browser, origin, lang, api));
  process.stdout.write('.');
  return {
    search: `${lang.code} "${SEARCH_WORD[lang.code]}", API ${api}`,
    'answered s': seconds(median(results.map((r) => r.ms))),
    'index requests': String(median(results.map((r) => r.requests))),
    'index bytes': String(median(results.map((r) => r.bytes))),
  };
}

async function benchPage(browser: Browser, origin: string, lang: Language, name: string, path: string, dist: string, runs: number): Promise<Record<string, string>> {
  const localized = localizePath(lang, path);
  const controls = controlsOn(readFileSync(join(dist, localized, 'index.html'), 'utf8'));
  const results: RunResult[] = [];
  for (let i = 0; i < runs; i++) results.push(await measure(browser, origin + localized, controls));
  return summarise(`${lang.code} ${name}`, results, Object.keys(controls) as Control[]);
}

function fail(message: string): never {
  console.error(message);
  process.exit(2);
}

if (import.meta.main) await main();
