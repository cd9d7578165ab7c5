/**
 * The operator's settings (README "Environment"), read once from the
 * environment at build time. Nothing here reaches the browser except what
 * pages pass on explicitly (the public API base and the hCaptcha site key).
 * Which district is built (SITE_DISTRICT) is read by src/district/key.ts, which browser code shares.
 */
import { join } from 'node:path';
import { district, DistrictError, districtDir } from './district/district.ts';
import { DISTRICT_KEY } from './district/key.ts';
import { LANGUAGES } from './i18n/languages.ts';
import { parseBasePath } from './lib/base-path.ts';
import { placeholdersIn } from './district/template.ts';

export const SAMPLE_API_URL = 'http://127.0.0.1:8787';
/** hCaptcha's documented public test key: accepts the test token, never a real visitor. */
const HCAPTCHA_TEST_SITEKEY = '10000000-ffff-ffff-ffff-000000000001';

/** The settings' source: the process's environment, or a district's settings file read by `npm run server-config`. */
type Source = Readonly<Record<string, string | undefined>>;

const valueIn = (source: Source, name: string): string | undefined => {
  const value = source[name]?.trim();
  return value ? value : undefined;
};
const env = (name: string): string | undefined => valueIn(process.env, name);

const stripSlash = (url: string) => url.replace(/\/+$/, '');

export interface SiteConfig {
  apiBase: string;
  publicApiBase: string;
  mediaBase: string;
  /** The public origin (SITE_URL), without a path: the site's own path is basePath. */
  siteUrl: string;
  /** Where on that origin the site is served (BASE_PATH): '' or `/chust` (src/lib/base-path.ts). */
  basePath: string;
  hcaptchaSitekey: string;
  /** Where the build-time pull writes its snapshot and pages read it. */
  contentDir: string;
  /**
   * The bundled sample API has no captcha service and the machine may have no
   * internet: only then, and only without a site key, does the appeal form use
   * a local stand-in. Any other build requires hCaptcha.
   */
  demoCaptcha: boolean;
  /** Offline reading: false with SERVICE_WORKER=off, which ships a worker that removes itself. */
  serviceWorker: boolean;
}

/** A host name of letters, digits, dots and hyphens, an IPv4 address, or an IPv6 one in brackets. */
const PLAIN_HOST = /^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*|\[[0-9a-f:.]+\])$/;
const PLAIN_PATH = /^[A-Za-z0-9._~/-]*$/;

/**
 * A base address (API_BASE, PUBLIC_API_BASE, MEDIA_BASE, SITE_URL), checked before it reaches a page, the
 * Content-Security-Policy or nginx: http(s), a plain host, an optional plain path, and nothing else (no
 * user, query, fragment, quote or `;`, which a URL parser lets through into a host or path).
 */
function baseUrl(name: string, value: string): URL {
  const refuse = (why: string): never => {
    throw new Error(`${name} ${JSON.stringify(value)} ${why}.`);
  };
  const url = URL.parse(value);
  if (url?.protocol !== 'https:' && url?.protocol !== 'http:') return refuse('is not an http(s) address');
  if (url.username || url.password) refuse('carries a user name or password');
  if (url.search || url.hash || value.includes('?') || value.includes('#')) refuse('carries a query or fragment');
  if (!PLAIN_HOST.test(url.hostname)) refuse('has a host name of characters an address of the site may not hold');
  if (!PLAIN_PATH.test(url.pathname)) refuse('has a path of characters an address of the site may not hold');
  return url;
}

const checkedBase = (name: string, value: string) => stripSlash(baseUrl(name, value).href);

/** POLICY_COMMAND took over from RELOAD_COMMAND when root's nginx stopped reading a file the service user writes. */
export const RETIRED_RELOAD_COMMAND =
  "RELOAD_COMMAND is retired: root's nginx no longer includes a file the service user writes. Install " +
  'deploy/hokimiyat-load-policy and set POLICY_COMMAND instead (docs/deploying.md, "Upgrading").';

/**
 * SITE_URL as an origin. An operator may write the site's full address (`https://gov.uz/chust`): its path
 * must then be BASE_PATH, said once where the browser code and the server configuration read it.
 */
function siteOrigin(value: string, basePath: string): string {
  const url = baseUrl('SITE_URL', value);
  const path = url.pathname.replace(/\/+$/, '');
  if (path && path !== basePath) {
    throw new Error(`SITE_URL ${JSON.stringify(value)} has the path ${path}, but BASE_PATH is ${JSON.stringify(basePath)}: set BASE_PATH=${path} and SITE_URL=${url.origin}.`);
  }
  return url.origin;
}

export function readConfig(source: Source = process.env): SiteConfig {
  const env = (name: string) => valueIn(source, name);
  const apiBase = checkedBase('API_BASE', env('API_BASE') ?? SAMPLE_API_URL);
  const basePath = parseBasePath(env('BASE_PATH'));
  // `/ru` would read as the Russian pages of a site at the root (src/i18n/languages.ts splits addresses so).
  const first = basePath.split('/')[1];
  if (first && LANGUAGES.some((l) => l.prefix === first)) {
    throw new Error(`BASE_PATH ${basePath} begins with the language prefix /${first}: choose a path that does not (e.g. /chust).`);
  }
  return {
    apiBase,
    publicApiBase: checkedBase('PUBLIC_API_BASE', env('PUBLIC_API_BASE') ?? apiBase),
    mediaBase: checkedBase('MEDIA_BASE', env('MEDIA_BASE') ?? apiBase),
    siteUrl: siteOrigin(env('SITE_URL') ?? 'http://localhost:4321', basePath),
    basePath,
    hcaptchaSitekey: env('HCAPTCHA_SITEKEY') ?? HCAPTCHA_TEST_SITEKEY,
    contentDir: env('CONTENT_DIR') ?? join(dataDir(source), '.cache/content'),
    demoCaptcha: apiBase === SAMPLE_API_URL && !env('HCAPTCHA_SITEKEY'),
    serviceWorker: env('SERVICE_WORKER')?.toLowerCase() !== 'off',
  };
}

/**
 * Publishing commands (`rebuild`, `webhook`) must never fall back to the sample API, the local origin or
 * hCaptcha's public test key: that would publish demo pages, links to localhost, or an appeal form that
 * either stops no spam or has every real appeal refused by a server that checks. Nor may they publish a district
 * whose folder is invalid or still holds a placeholder (src/district/template.ts). Returns what is missing, or null.
 */
export function deployEnvProblem(): string | null {
  const missing = ['API_BASE', 'SITE_URL', 'HCAPTCHA_SITEKEY'].filter((name) => !env(name));
  if (!missing.length) return settingsProblem() ?? districtProblem();
  const named = missing.length > 1 ? `${missing.slice(0, -1).join(', ')} and ${missing.at(-1)} are` : `${missing[0]} is`;
  return (
    `${named} not set; refusing to publish. ` +
    "Set API_BASE to the administration's content API, SITE_URL to the public origin of the site and " +
    "HCAPTCHA_SITEKEY to the site's hCaptcha key (only `npm start`, `npm run dev` and `npm run build` use the " +
    'bundled sample API and a test key by default).'
  );
}

/**
 * Where the build machine keeps things and which programs it runs (README "Environment"). Apart from
 * `SiteConfig` because none of it reaches the HTML, so none of it belongs in a page's key or the
 * rebuild's digest.
 */
export interface MachineSettings {
  /** The folder under which every folder below is kept unless set on its own (DATA_DIR): one per district on a server of several. */
  dataDir: string;
  /** Where the build writes the site. */
  outDir: string;
  /** Astro's cache, with the incremental-build manifest: keep it between builds. */
  astroCacheDir: string;
  /** Data folder of the sample API that `start`, `build` and `dev` start. */
  sampleApiDir: string;
  /** Releases, the `current` symlink and the rebuild lock. */
  releasesDir: string;
  /** The picture store: every API picture downloaded once, and its drawn sizes (src/content/pictures/). Keep it between builds. */
  pictureDir: string;
  /** The document store: every document an editor linked to on the media server (src/content/documents/). Keep it between builds. */
  documentDir: string;
  /** Brotli and gzip results by content hash (scripts/pipeline/finish/precompress.ts). Keep it between builds. */
  compressCacheDir: string;
  /** The Chromium the end-to-end tests, screenshots and benchmarks drive. */
  chromiumPath: string;
  /** The heap limit of the build process a rebuild runs, in MB (BUILD_HEAP_MB); null: V8's own. */
  buildHeapMb: number | null;
}

/**
 * The build's heap limit unless BUILD_HEAP_MB says otherwise. Unlimited, V8 lets the heap of a cold build at
 * 10,000 news a language grow far past the live data: 2.1 GB of memory at most, against 1.4 GB at 1,024 MB,
 * which is no slower (docs/speed.md).
 */
const DEFAULT_BUILD_HEAP_MB = 1024;
/** Below this the build's own code and Astro do not fit: a value under it is a mistake, not a limit. */
const LEAST_BUILD_HEAP_MB = 256;

/** BUILD_HEAP_MB: a whole number of MB, `0` for no limit; anything else is refused, saying what is allowed. */
function buildHeapMb(value: string | undefined): number | null {
  if (value === undefined) return DEFAULT_BUILD_HEAP_MB;
  const mb = /^\d{1,6}$/.test(value) ? Number(value) : NaN;
  if (mb === 0) return null;
  if (!(mb >= LEAST_BUILD_HEAP_MB)) {
    throw new Error(`BUILD_HEAP_MB "${value}" is not a heap limit: give a whole number of MB from ${LEAST_BUILD_HEAP_MB} up, or 0 for none.`);
  }
  return mb;
}

export function readMachineSettings(source: Source = process.env): MachineSettings {
  const env = (name: string) => valueIn(source, name);
  const data = dataDir(source);
  return {
    dataDir: data,
    outDir: env('OUT_DIR') ?? join(data, 'dist'),
    astroCacheDir: env('ASTRO_CACHE_DIR') ?? join(data, '.cache/astro'),
    sampleApiDir: env('SAMPLE_API_DIR') ?? '.sample-api',
    releasesDir: env('RELEASES_DIR') ?? join(data, '.releases'),
    pictureDir: env('PICTURE_DIR') ?? join(data, '.cache/pictures'),
    documentDir: env('DOCUMENT_DIR') ?? join(data, '.cache/documents'),
    compressCacheDir: env('COMPRESS_CACHE_DIR') ?? join(data, '.cache/compressed'),
    chromiumPath: env('CHROMIUM_PATH') ?? '/usr/bin/chromium',
    buildHeapMb: buildHeapMb(env('BUILD_HEAP_MB')),
  };
}

/**
 * Every folder a build writes, as the settings that name them, all under `dataDir` as DATA_DIR puts them, each
 * set on its own so that none set in the caller's environment (RELEASES_DIR …) points elsewhere: for a build
 * of its own, a test's or a benchmark's.
 */
export function foldersUnder(dataDir: string) {
  const source = { DATA_DIR: dataDir };
  const folders = readMachineSettings(source);
  return {
    OUT_DIR: folders.outDir,
    CONTENT_DIR: readConfig(source).contentDir,
    ASTRO_CACHE_DIR: folders.astroCacheDir,
    RELEASES_DIR: folders.releasesDir,
    PICTURE_DIR: folders.pictureDir,
    DOCUMENT_DIR: folders.documentDir,
    COMPRESS_CACHE_DIR: folders.compressCacheDir,
  };
}

/** Addresses that never serve citizens, where a trial may publish any district: loopback, and the top-level names RFC 2606 keeps (`.example`, `.test`, `.invalid`, `.localhost`). */
const TRIAL_HOST = /^(?:localhost|127(?:\.\d{1,3}){3}|\[::1\])$|\.(?:example|test|invalid|localhost)$/;

/** DATA_DIR: the project folder itself unless set, so a server of one district keeps today's folders. */
const dataDir = (source: Source) => valueIn(source, 'DATA_DIR') ?? '.';

/** A setting that is set but refused (a base address, BASE_PATH, a retired setting): its message, or null. */
function settingsProblem(): string | null {
  if (env('RELOAD_COMMAND')) return `${RETIRED_RELOAD_COMMAND} Refusing to publish.`;
  try {
    readConfig();
    readMachineSettings();
    return null;
  } catch (error) {
    return `${error instanceof Error ? error.message : String(error)} Refusing to publish.`;
  }
}

/** Why this build's district cannot be published (an invalid folder, a placeholder left), or null. */
function districtProblem(): string | null {
  try {
    const left = placeholdersIn(district());
    if (left.length) {
      return (
        `${districtDir()}/ still holds ${left.length} placeholder(s) (${left.slice(0, 3).join(', ')}${left.length > 3 ? ', …' : ''}); refusing to publish. ` +
        `\`npm run new-district -- ${DISTRICT_KEY}\` lists them.`
      );
    }
    // A settings file whose SITE_DISTRICT was forgotten builds Qorakul: never onto another district's address.
    const host = new URL(readConfig().siteUrl).hostname;
    const { names } = district().server;
    if (names.includes(host) || TRIAL_HOST.test(host)) return null;
    return (
      `SITE_URL names ${host}, which is not one of ${districtDir()}/district.json's server.names (${names.join(', ')}); refusing to publish ` +
      `${DISTRICT_KEY}'s site there. Is SITE_DISTRICT the right district? A district served at another name lists it in server.names.`
    );
  } catch (error) {
    if (error instanceof DistrictError) return error.message;
    throw error;
  }
}
