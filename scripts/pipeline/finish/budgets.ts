/**
 * The byte budgets of a built site, measured on the brotli files it is served with: `npm run
 * check:budgets` and the end-to-end setup fail on them; `rebuild` reports them (content can exceed them,
 * and no editor's text may stop publishing for everyone).
 *
 * - First flight: the HTML plus every render-blocking stylesheet of a news
 *   detail, a news list and an information page fits in one TCP initial
 *   congestion window (10 segments of 1,460 bytes); the home page in two.
 * - No render-blocking script: every external script is a module or deferred.
 * - JavaScript a page loads at all (module scripts, island components and
 *   renderers, and what they import statically; not what they load on first
 *   use) stays within 90 KB.
 * - The home page's first visit (HTML, stylesheets, JavaScript and the
 *   pictures it loads at once) stays within 400 KB.
 * - No page is over 256 KB as sent: some 5 s on a 400 kbps line.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { APPEAL_PATH } from '../../../src/constants.ts';
import { siteAddress, withinSite } from '../../../src/lib/base-path.ts';
import { LANGUAGES } from '../../../src/i18n/languages.ts';
import { infoPagePath } from '../../../src/lib/info-pages.ts';
import { SECTIONS } from '../../../src/lib/sections.ts';
import { listFiles } from '../../lib/files.ts';

const INITIAL_WINDOW = 10 * 1460;
const BUDGETS = {
  firstFlight: INITIAL_WINDOW,
  homeFirstFlight: 2 * INITIAL_WINDOW,
  javascript: 90 * 1024,
  homeFirstVisit: 400 * 1024,
  page: 256 * 1024,
} as const;

const NEWS = SECTIONS.news.slug;
/** The information page measured: the ecology page, with text, pictures and the side menu. */
const INFORMATION_PAGE = infoPagePath('ecology');

/** The page of each kind whose budget is checked, in every language. */
const PAGES = [
  { kind: 'home', path: 'index.html', budget: BUDGETS.homeFirstFlight },
  { kind: 'news list', path: `${NEWS}/index.html`, budget: BUDGETS.firstFlight },
  { kind: 'news detail', path: `${NEWS}/{firstNews}/index.html`, budget: BUDGETS.firstFlight },
  { kind: 'information page', path: `${INFORMATION_PAGE.slice(1)}/index.html`, budget: BUDGETS.firstFlight },
  { kind: 'appeal form', path: `${APPEAL_PATH.slice(1)}/index.html`, budget: BUDGETS.firstFlight },
] as const;
const PREFIXES = LANGUAGES.map((l) => (l.prefix ? `${l.prefix}/` : ''));

export function brotliSize(root: string, path: string): number {
  const file = join(root, path);
  return statSync(existsSync(`${file}.br`) ? `${file}.br` : file).size;
}

/** Static imports of a built chunk: `import"./a.js"`, `from"./b.js"` (dynamic `import("…")` is left out). */
function staticImports(code: string): string[] {
  return [...code.matchAll(/(?:\bfrom\s*|\bimport\s*)["'](\.{1,2}\/[^"']+\.js)["']/g)].map((m) => m[1]!);
}

/** The site path of the file an address in a page names: `/chust/_astro/a.js` → `/_astro/a.js` under a base path. */
const fileOf = (address: string) => withinSite(address) ?? address;

function pageJavascript(root: string, html: string): { files: string[]; bytes: number } {
  const entries = new Set<string>();
  for (const m of html.matchAll(/<script[^>]*\bsrc="(\/[^"]+\.js)"/g)) entries.add(fileOf(m[1]!));
  for (const m of html.matchAll(/\b(?:component-url|renderer-url)="(\/[^"]+\.js)"/g)) entries.add(fileOf(m[1]!));
  const seen = new Set<string>();
  const visit = (url: string) => {
    if (seen.has(url)) return;
    seen.add(url);
    const code = readFileSync(join(root, url), 'utf8');
    for (const rel of staticImports(code)) visit(new URL(rel, `http://x${url}`).pathname);
  };
  for (const e of entries) visit(e);
  const files = [...seen].sort();
  return { files, bytes: files.reduce((n, f) => n + brotliSize(root, f), 0) };
}

export function renderBlocking(html: string): { stylesheets: string[]; scripts: string[] } {
  const head = html.slice(0, html.indexOf('</head>') + 1 || undefined);
  // A print stylesheet (media="print") is fetched without holding the first paint.
  const stylesheets = [...head.matchAll(/<link[^>]*rel="stylesheet"[^>]*href="(\/[^"]+)"[^>]*>/g)].filter((m) => !/\bmedia="print"/.test(m[0])).map((m) => fileOf(m[1]!));
  const scripts = [...html.matchAll(/<script([^>]*)\bsrc="([^"]+)"/g)].filter(([, attrs]) => !/type="module"|\bdefer\b|\basync\b/.test(attrs!)).map((m) => m[2]!);
  return { stylesheets, scripts };
}

/** The pictures a page loads at once (not lazy): the file each <img> names. */
function eagerImages(html: string): string[] {
  return [...html.matchAll(/<img\b[^>]*>/g)]
    .map((m) => m[0])
    .filter((tag) => !/\bloading="lazy"/.test(tag))
    .map((tag) => /\bsrc="(\/[^"]+)"/.exec(tag)?.[1])
    .filter((src): src is string => Boolean(src))
    .map(fileOf);
}

export interface BudgetRow {
  page: string;
  kind: string;
  firstFlight: number;
  budget: number;
  javascript: number;
  blockingScripts: string[];
}

/** A page over its budget as sent, as the report says it; a later check reads it back (`checkBudgets`' `since`). */
const pageOverBudget = (path: string, size: number) => `${path.slice(1)}: ${Math.round(size / 1024)} KB as sent, over ${BUDGETS.page / 1024} KB`;
const PAGE_OVER_BUDGET = new RegExp(`^(.+): \\d+ KB as sent, over ${BUDGETS.page / 1024} KB$`);

/** The most a page may weigh as sent. */
export const PAGE_BUDGET = BUDGETS.page;

/**
 * What the previous release's check found (its report's `overBudget`) under which page budget, and the files
 * added, changed or removed since it. Under another budget (or none known) every page is measured.
 */
export interface SincePrevious {
  failures: readonly string[];
  pageBudget: number | undefined;
  changed: ReadonlySet<string>;
}

/**
 * The budgets of the page of each kind in every language (a kind the site has no page of, such as an
 * information page the administration removed, is left out), and of every page's size. `since`: a page
 * whose files have not changed since the previous release has the size it had, so its verdict there stands
 * without a look at it, and only the pages changed are measured (a stat of every page took 0.36 s of each
 * rebuild at 10,000 news a language, and being handed the list of every file 0.26 s more: its parse with the build's
 * report, 176 ms, and its walk here, 88 ms);
 * without it (or under another budget) the folder is listed and every page measured.
 */
export async function checkBudgets(rootDir: string, since?: SincePrevious): Promise<{ rows: BudgetRow[]; failures: string[] }> {
  const root = resolve(rootDir);
  const rows: BudgetRow[] = [];
  const failures: string[] = [];
  const newsIndex = existsSync(join(root, NEWS, 'index.html')) ? readFileSync(join(root, NEWS, 'index.html'), 'utf8') : '';
  const firstNews = new RegExp(`href="${RegExp.escape(siteAddress(`/${NEWS}/`))}(\\d+)"`).exec(newsIndex)?.[1] ?? '0';
  for (const prefix of PREFIXES) {
    for (const p of PAGES) {
      const page = prefix + p.path.replace('{firstNews}', firstNews);
      if (!existsSync(join(root, page))) continue;
      const html = readFileSync(join(root, page), 'utf8');
      const blocking = renderBlocking(html);
      const firstFlight = brotliSize(root, page) + blocking.stylesheets.reduce((n, css) => n + brotliSize(root, css), 0);
      const js = pageJavascript(root, html);
      rows.push({ page, kind: p.kind, firstFlight, budget: p.budget, javascript: js.bytes, blockingScripts: blocking.scripts });
      if (firstFlight > p.budget) failures.push(`${page}: first flight ${firstFlight} B over ${p.budget} B`);
      if (js.bytes > BUDGETS.javascript) failures.push(`${page}: JavaScript ${js.bytes} B over ${BUDGETS.javascript} B`);
      if (blocking.scripts.length) failures.push(`${page}: render-blocking script ${blocking.scripts.join(', ')}`);
      if (p.kind === 'home') {
        const images = eagerImages(html).reduce((n, img) => n + brotliSize(root, img), 0);
        const firstVisit = firstFlight + js.bytes + images;
        if (firstVisit > BUDGETS.homeFirstVisit) failures.push(`${page}: first visit ${firstVisit} B over ${BUDGETS.homeFirstVisit} B`);
      }
    }
  }
  const carried = since?.pageBudget === BUDGETS.page ? since : undefined;
  // Each page's verdict as sent (its .br where it has one), in the order of the pages' paths.
  const sizeFailures = new Map<string, string>();
  const measure = (path: string) => {
    // One after another: a stat takes microseconds, and each awaited one cost more again in a hop through libuv's
    // threads. Site paths are joined by hand: at 10,000 posts a language the 90,000 files' path.join cost more than their stats.
    const size = (statSync(`${root}${path}.br`, { throwIfNoEntry: false }) ?? statSync(root + path)).size;
    if (size > BUDGETS.page) sizeFailures.set(path, pageOverBudget(path, size));
  };
  if (carried) {
    // The page and its compressed copy as they were: a copy added, changed or gone changes what is sent.
    const changedPages = new Set([...carried.changed].map((path) => path.replace(/\.br$/, '')).filter((path) => path.endsWith('.html')));
    for (const failure of carried.failures) {
      const page = PAGE_OVER_BUDGET.exec(failure)?.[1];
      if (page !== undefined && !changedPages.has(`/${page}`) && existsSync(join(root, page))) sizeFailures.set(`/${page}`, failure);
    }
    for (const path of changedPages) if (existsSync(root + path)) measure(path);
  } else {
    for (const file of listFiles(root)) if (file.endsWith('.html')) measure(`/${relative(root, file)}`);
  }
  for (const path of [...sizeFailures.keys()].sort()) failures.push(sizeFailures.get(path)!);
  return { rows, failures };
}
