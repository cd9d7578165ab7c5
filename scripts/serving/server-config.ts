/**
 * The parts of the web server's configuration that follow from the site's
 * tables (the languages), made from them rather than copied by hand: each
 * language's not-found page in nginx (./nginx-config.ts) and in `public/_redirects`,
 * and the caching rule of each path (./cache-rules.ts).
 * The edge's error page by language (deploy/varnish.vcl), the static hosts'
 * caching rules (public/_headers) and the security headers of all three
 * servers (SECURITY_HEADERS) likewise.
 * `npm run server-config` writes them; a unit test fails when a committed
 * file differs from what the tables give.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { LANGUAGES } from '../../src/i18n/languages.ts';
import { cacheControl } from './cache-rules.ts';

export interface Tables {
  /** URL prefixes of the languages, '' for the unprefixed default. */
  prefixes: readonly string[];
  /** The path of the domain the site is served under ('' at the root; BASE_PATH, src/lib/base-path.ts). */
  basePath: string;
}

/** The tables of a site at the domain's root: the committed files are made from these. */
export const SITE_TABLES: Tables = {
  prefixes: LANGUAGES.map((l) => l.prefix),
  basePath: '',
};

/**
 * The security headers, whoever serves the site: nginx and a static host's _headers send them all on every
 * answer; `npm run preview` sends nosniff on every answer and the others, but for the `httpsOnly` HSTS (it
 * serves plain HTTP, where browsers ignore it), on pages.
 */
export const SECURITY_HEADERS: readonly { name: string; value: string; httpsOnly?: true }[] = [
  { name: 'X-Content-Type-Options', value: 'nosniff' },
  { name: 'Referrer-Policy', value: 'strict-origin-when-cross-origin' },
  { name: 'Permissions-Policy', value: 'camera=(), microphone=(), geolocation=(), interest-cohort=()' },
  { name: 'X-Frame-Options', value: 'SAMEORIGIN' },
  { name: 'Cross-Origin-Opener-Policy', value: 'same-origin' },
  // Browsers remember for a year to use HTTPS only. Add `; preload` only once every subdomain has HTTPS.
  { name: 'Strict-Transport-Security', value: 'max-age=31536000; includeSubDomains', httpsOnly: true },
];

/** For nginx's and Varnish's PCRE, which RegExp.escape's `\x2d`-style escapes would only make harder to read. */
const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const alternatives = (items: readonly string[]) => items.map(escape).join('|');

/** `public/_redirects`: for hosts that read one with query matching (Netlify). */
export function redirectsFile(tables: Tables = SITE_TABLES): string {
  const lines = ['# Made by `npm run server-config` from the language table (scripts/serving/server-config.ts): do not edit.'];
  lines.push(
    '# Old list links /news?pageNumber=N are the list itself: its first page reads the number (old-page-numbers.ts).',
    "# A wrong address gets its language's not-found page with status 404, as nginx and scripts/serve.ts give it",
    "# (such a rule applies only where no file is found); the other languages first, the site's root last.",
  );
  for (const prefix of tables.prefixes.filter(Boolean)) lines.push(`${tables.basePath}/${prefix}/* ${tables.basePath}/${prefix}/404/index.html 404`);
  lines.push(`${tables.basePath}/* ${tables.basePath}/404.html 404`);
  return `${lines.join('\n')}\n`;
}

const BEGIN = (name: string) => `# BEGIN ${name}: made by \`npm run server-config\` from the site's tables; do not edit by hand.`;
const END = (name: string) => `# END ${name}`;

/**
 * The generated block of deploy/varnish.vcl: an origin's failure answered with the visitor's language's error
 * page, of the visitor's district when the edge serves several under their paths (`basePaths`).
 */
export function varnishBlocks(tables: Tables = SITE_TABLES, basePaths: readonly string[] = [tables.basePath]): Record<string, string> {
  const prefixed = alternatives(tables.prefixes.filter(Boolean));
  // The longest first: `/samarqand/chust/ru/x` is the inner site's.
  const paths = basePaths.filter(Boolean).sort((a, b) => b.length - a.length);
  const site = paths.length ? `(${alternatives(paths)})?` : '';
  const errorPage = [
    `    if (resp.status >= 500 && !req.http.X-Edge-Error-Page && req.url !~ "^${site}/((${prefixed})/)?500") {`,
    '        set req.http.X-Edge-Error-Page = "1";',
    paths.length
      ? `        set req.url = regsub(req.url, "^${site}/((${prefixed})/)?.*$", "\\1/\\2500");`
      : `        set req.url = regsub(req.url, "^/((${prefixed})/)?.*$", "/\\1500");`,
    '        return (restart);',
    '    }',
  ].join('\n');
  return { 'language error pages': errorPage };
}

/** The generated blocks of public/_headers: the security headers, and the Cache-Control of hashed assets and of the service worker, as served elsewhere. */
export function headersBlocks(tables: Tables = SITE_TABLES): Record<string, string> {
  const rule = (pattern: string, path: string) => `${tables.basePath}${pattern}\n  Cache-Control: ${cacheControl(path, path.slice(1))}`;
  return {
    'security headers': [`${tables.basePath}/*`, ...SECURITY_HEADERS.map(({ name, value }) => `  ${name}: ${value}`)].join('\n'),
    'cache rules': [rule('/_astro/*', '/_astro/asset.js'), rule('/sw.js', '/sw.js')].join('\n\n'),
  };
}

/**
 * Writes the static hosts' `_redirects` and `_headers` into a built site, for the path it is served under:
 * `public/`'s are the committed ones for the domain's root, and the same bytes when BASE_PATH is empty.
 */
const COMMITTED_HEADERS = fileURLToPath(new URL('../../public/_headers', import.meta.url));

export function writeStaticHostFiles(outDir: string, basePath: string): void {
  const tables = { ...SITE_TABLES, basePath };
  // Written as new files: what Astro copied there may share its bytes with a file of its cache.
  const write = (name: string, text: string) => {
    rmSync(join(outDir, name), { force: true });
    writeFileSync(join(outDir, name), text);
  };
  write('_redirects', redirectsFile(tables));
  write('_headers', withBlocks('public/_headers', readFileSync(COMMITTED_HEADERS, 'utf8'), headersBlocks(tables)));
}

/** The files that hold generated blocks, with the blocks each should hold; `npm run server-config` writes them (deploy/nginx.conf whole: ./nginx-config.ts). */
export const GENERATED_FILES: readonly { file: string; blocks: (tables?: Tables) => Record<string, string> }[] = [
  { file: 'deploy/varnish.vcl', blocks: varnishBlocks },
  { file: 'public/_headers', blocks: headersBlocks },
];

/** `text` (the file `file`) with each generated block replaced by `blocks`. */
export function withBlocks(file: string, text: string, blocks: Record<string, string>): string {
  let out = text;
  for (const [name, body] of Object.entries(blocks)) {
    const begin = out.indexOf(BEGIN(name));
    const end = out.indexOf(END(name));
    if (begin < 0 || end < begin) throw new Error(`${file} has no "${BEGIN(name)}" … "${END(name)}" block`);
    const indent = out.slice(out.lastIndexOf('\n', begin) + 1, begin);
    out = `${out.slice(0, begin)}${BEGIN(name)}\n${body}\n${indent}${out.slice(end)}`;
  }
  return out;
}
