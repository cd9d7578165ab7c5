/**
 * `npm run bench:web`: what a citizen on a slow phone connection gets. Builds the
 * site against the sample API (the npm start demo setup), serves it as
 * production does, and runs Lighthouse (mobile, simulated slow 4G) in Debian's
 * Chromium on the home, news list, news detail, photo gallery and appeal pages
 * in all four languages. Prints one table: the four category scores, LCP, CLS,
 * total blocking time, first-flight bytes, JavaScript bytes and total bytes,
 * and below it the element that was the LCP of each page slower than 2 s.
 * `-- --pages "photo gallery,home"` measures only those page types.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { parseArgs, promisify } from 'node:util';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { readMachineSettings, SAMPLE_API_URL } from '../src/config.ts';
import { LANGUAGES, localizePath } from '../src/i18n/languages.ts';
import { brotliSize, renderBlocking } from './pipeline/finish/budgets.ts';
import { startSampleApi } from './sample-api/server.ts';
import { serveDist } from './serving/static-server.ts';

const WORK = '.cache/bench-web';
const { values: args } = parseArgs({ options: { pages: { type: 'string' } } });
const only = args.pages?.split(',').map((p) => p.trim());
const run = promisify(execFile);

await rm(WORK, { recursive: true, force: true });
// On the default address, as `npm start` runs it, so the build is the offline demo (no hCaptcha to reach).
const { hostname, port } = new URL(SAMPLE_API_URL);
const api = await startSampleApi({ host: hostname, port: Number(port), dataDir: `${WORK}/api`, log: () => {} });
const outDir = `${WORK}/dist`;
console.log('Building the site…');
await run(process.execPath, ['scripts/build.ts'], {
  env: { ...process.env, OUT_DIR: outDir, CONTENT_DIR: `${WORK}/content`, API_BASE: SAMPLE_API_URL },
  maxBuffer: 64 * 1024 * 1024,
});
const site = await serveDist({ root: outDir, port: 0 });
const chrome = await chromeLauncher.launch({
  chromePath: readMachineSettings().chromiumPath,
  chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
});

const newsIndex = readFileSync(join(outDir, 'news/index.html'), 'utf8');
const firstNews = /href="\/news\/(\d+)"/.exec(newsIndex)?.[1];
const PAGES = [
  ['home', '/'],
  ['news list', '/news'],
  ['news detail', `/news/${firstNews}`],
  ['photo gallery', '/gallery/photo'],
  ['appeal', '/murojaat_yuborish'],
] as const;
const pages = PAGES.filter(([name]) => !only || only.includes(name));
const slowLcp: string[] = [];

type Row = Record<string, string | number>;
const rows: Row[] = [];
try {
  for (const lang of LANGUAGES) {
    for (const [name, path] of pages) {
      const url = `${site.url}${localizePath(lang, path)}`;
      const result = await lighthouse(url, {
        port: chrome.port,
        output: 'json',
        logLevel: 'error',
        onlyCategories: ['performance', 'accessibility', 'best-practices', 'seo'],
      });
      const lhr = result!.lhr;
      const audit = (id: string) => lhr.audits[id]?.numericValue ?? NaN;
      const requests = (lhr.audits['network-requests']?.details as { items?: { resourceType?: string; transferSize?: number }[] } | undefined)?.items ?? [];
      const js = requests.filter((r) => r.resourceType === 'Script').reduce((n, r) => n + (r.transferSize ?? 0), 0);
      const file = join(localizePath(lang, path).slice(1), 'index.html');
      const html = readFileSync(join(outDir, file), 'utf8');
      const firstFlight = brotliSize(outDir, file) + renderBlocking(html).stylesheets.reduce((n, css) => n + brotliSize(outDir, css), 0);
      if (audit('largest-contentful-paint') > 2000) {
        const element = lhr.audits['largest-contentful-paint-element']?.details as { items?: { items?: { node?: { snippet?: string } }[] }[] } | undefined;
        slowLcp.push(`${lang.code} ${name}: ${element?.items?.[0]?.items?.[0]?.node?.snippet ?? 'unknown element'}`);
      }
      const score = (c: string) => Math.round((lhr.categories[c]?.score ?? 0) * 100);
      rows.push({
        page: `${lang.code} ${name}`,
        perf: score('performance'),
        a11y: score('accessibility'),
        bp: score('best-practices'),
        seo: score('seo'),
        'LCP s': (audit('largest-contentful-paint') / 1000).toFixed(2),
        CLS: audit('cumulative-layout-shift').toFixed(3),
        'TBT ms': Math.round(audit('total-blocking-time')),
        'first flight KB': (firstFlight / 1024).toFixed(1),
        'JS KB': (js / 1024).toFixed(1),
        'total KB': (audit('total-byte-weight') / 1024).toFixed(1),
      });
      process.stdout.write('.');
    }
  }
} finally {
  chrome.kill();
  site.server.close();
  await api.close();
}
const columns = Object.keys(rows[0] ?? {});
const lighthouseVersion = (JSON.parse(readFileSync('node_modules/lighthouse/package.json', 'utf8')) as { version: string }).version;
console.log(`\n\nbench:web — Lighthouse ${lighthouseVersion} mobile, simulated slow 4G, ${new Date().toISOString().slice(0, 10)}\n`);
console.log(`| ${columns.join(' | ')} |\n|${columns.map(() => '---').join('|')}|`);
for (const r of rows) console.log(`| ${columns.map((c) => r[c]).join(' | ')} |`);
if (slowLcp.length) console.log(`\nLCP element where LCP > 2 s:\n${slowLcp.join('\n')}`);
