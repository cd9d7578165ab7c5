/**
 * Where on its domain the site is served: BASE_PATH (README "Environment"), '' at the domain's root,
 * `/chust` when state bodies share one domain and each has a path of it. Every address the site
 * writes (links, assets, pictures, feeds, the service worker and its scope) is made through
 * `siteAddress`, and every address the site reads (the page it is on, a request the worker sees) goes
 * through `withinSite`, so nothing assumes the domain's root.
 *
 * Browser code cannot read the environment: Astro's Vite and the service worker's esbuild replace
 * `globalThis.__SITE_BASE_PATH__` at build time (astro.config.mjs, src/features/offline/build-service-worker.ts), as
 * they do the district's short name (src/district/key.ts).
 */
declare global {
  var __SITE_BASE_PATH__: string | undefined;
}

/** One or more path segments of letters, digits, `-`, `_` and `.`, each beginning with a letter or digit. */
const BASE_PATH_PATTERN = /^(?:\/[a-z0-9][a-z0-9._-]{0,62}){1,4}$/i;

export class BasePathError extends Error {}

/** BASE_PATH as an operator may write it (`chust`, `/chust/`, `/`) made into '' or `/chust`; anything else is refused. */
export function parseBasePath(value: string | undefined): string {
  const trimmed = (value ?? '').trim().replace(/^\/*/, '/').replace(/\/+$/, '');
  if (trimmed === '' || trimmed === '/') return '';
  if (!BASE_PATH_PATTERN.test(trimmed) || trimmed.split('/').some((s) => s === '.' || s === '..')) {
    throw new BasePathError(
      `BASE_PATH ${JSON.stringify(value)} is not a path the site can live under: write one to four segments of letters, digits, -, _ and . (e.g. /chust or /samarqand/chust), or leave it empty for the domain's root.`,
    );
  }
  return trimmed;
}

/**
 * In Node: BASE_PATH as set, or '' when it is not one the site can live under. Not thrown here, while every
 * module that imports this is loading: readConfig() refuses the same value with its message, so `build` stops
 * and `rebuild` and `webhook` exit 2 (deployEnvProblem) instead of failing on an import.
 */
function basePathInNode(): string {
  try {
    return parseBasePath((globalThis as { process?: { env: Record<string, string | undefined> } }).process?.env.BASE_PATH);
  } catch {
    return '';
  }
}

/** This build's base path: '' or `/chust`, never with a trailing slash. */
export const BASE_PATH: string = globalThis.__SITE_BASE_PATH__ ?? basePathInNode();

/** A site address under the base path: `/news/5` → `/chust/news/5`, `/` → `/chust/`. */
export function siteAddress(path: string): string {
  const clean = path.startsWith('/') ? path : `/${path}`;
  return BASE_PATH + clean;
}

/**
 * A link an editor wrote from the site's root (`/news/5`), under the site's base path (`/chust/news/5`); one
 * already under it, a relative one, another site's, as it is. Editors write links as the site is served to them.
 */
export const editorSiteLink = (href: string): string => (BASE_PATH && href.startsWith('/') && !href.startsWith('//') && withinSite(href) === null ? siteAddress(href) : href);

/** The site address of a pathname the browser or the server sees (`/chust/ru/news` → `/ru/news`), or null when it lies outside the site. */
export function withinSite(pathname: string): string | null {
  if (!BASE_PATH) return pathname.startsWith('/') ? pathname : null;
  if (pathname === BASE_PATH) return '/';
  return pathname.startsWith(`${BASE_PATH}/`) ? pathname.slice(BASE_PATH.length) : null;
}
