/**
 * How long each kind of file may be kept, by browsers and by the edge (a CDN, or deploy/varnish.vcl), in
 * one table: `npm run preview` (./static-server.ts) answers with it, and `npm run server-config` writes it
 * into deploy/nginx.conf, so the two cannot drift apart.
 *
 * - Hashed files under /_astro/ never change under their name: a year, everywhere.
 * - Pages: a browser asks again on every visit (max-age=0), so a rebuild shows at once; the edge keeps a
 *   page five minutes (s-maxage) and is purged by `rebuild` the moment a page changes (./purge-step.ts), so
 *   most visits never reach the origin. No `must-revalidate`: it would forbid the edge to serve a kept copy
 *   when the origin fails, and `stale-if-error` asks it to do exactly that for a week.
 * - Other files (icons, the feed, the sitemap): a day, purged the same way when they change.
 * - Errors are never kept (`no-store`, by status: see the nginx map and `ERROR_CACHE_CONTROL`).
 */

/** How long the edge may serve a kept copy while the origin is down or answering errors. */
const STALE_IF_ERROR_SECONDS = 7 * 24 * 3600;
/** How long the edge keeps a page before asking the origin again (a 304 when it did not change). */
export const EDGE_PAGE_SECONDS = 300;
/** How long past that the edge may still serve it while fetching it anew (deploy/varnish.vcl's req.grace). */
export const STALE_WHILE_REVALIDATE_SECONDS = 60;

export const ERROR_CACHE_CONTROL = 'no-store';

interface CacheRule {
  /** What the rule covers, for the generated configuration's comments. */
  covers: string;
  /** The rule as an nginx `map $uri` key (a regular expression after `~`); null for the default. */
  nginxUri: string | null;
  matches: (pathname: string, file: string) => boolean;
  value: string;
}

/** In order: the first rule that matches a path gives its Cache-Control. */
const CACHE_RULES: readonly CacheRule[] = [
  {
    covers: 'hashed assets',
    nginxUri: '~^/_astro/',
    matches: (pathname) => pathname.startsWith('/_astro/'),
    value: 'public, max-age=31536000, immutable',
  },
  {
    covers: 'files that are not pages',
    nginxUri: '"~\\.(?!html$)[^./]+$"',
    matches: (_pathname, file) => !file.endsWith('.html'),
    value: `public, max-age=86400, stale-if-error=${STALE_IF_ERROR_SECONDS}`,
  },
  {
    covers: 'pages and the service worker',
    nginxUri: null,
    matches: () => true,
    value: `public, max-age=0, s-maxage=${EDGE_PAGE_SECONDS}, stale-while-revalidate=${STALE_WHILE_REVALIDATE_SECONDS}, stale-if-error=${STALE_IF_ERROR_SECONDS}`,
  },
];

/**
 * The Cache-Control of a successful answer for `pathname`, served from `file`. The service worker takes the
 * page rule: a browser checks it on every use (max-age=0), so a rebuild's worker reaches devices at once.
 */
export function cacheControl(pathname: string, file: string): string {
  if (pathname === '/sw.js') return CACHE_RULES.at(-1)!.value;
  return CACHE_RULES.find((rule) => rule.matches(pathname, file))!.value;
}

/** The nginx map from $uri to the rule (the body of the generated block in deploy/nginx.conf). */
export function nginxCacheMap(): string {
  const page = CACHE_RULES.at(-1)!;
  const keyed: [string, string][] = [['/sw.js', page.value], ...CACHE_RULES.filter((r) => r.nginxUri).map((r): [string, string] => [r.nginxUri!, r.value])];
  const width = Math.max(...keyed.map(([key]) => key.length)) + 1;
  return [
    'map $uri $hokimiyat_cache_by_path {',
    ...keyed.map(([key, value]) => `    ${key.padEnd(width)} "${value}";`),
    `    ${'default'.padEnd(width)} "${page.value}";`,
    '}',
  ].join('\n');
}
