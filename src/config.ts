/**
 * The operator's settings (README "Environment"), read once from the
 * environment at build time. Nothing here reaches the browser except what
 * pages pass on explicitly (the public API base and the hCaptcha site key).
 * Which district is built (SITE_DISTRICT) is read by src/district/key.ts, which browser code shares.
 */
import { district, DistrictError, districtDir } from './district/district.ts';
import { DISTRICT_KEY } from './district/key.ts';
import { placeholdersIn } from './district/template.ts';

export const SAMPLE_API_URL = 'http://127.0.0.1:8787';
/** hCaptcha's documented public test key: accepts the test token, never a real visitor. */
const HCAPTCHA_TEST_SITEKEY = '10000000-ffff-ffff-ffff-000000000001';

const env = (name: string): string | undefined => {
  const value = process.env[name]?.trim();
  return value ? value : undefined;
};

const stripSlash = (url: string) => url.replace(/\/+$/, '');

export interface SiteConfig {
  apiBase: string;
  publicApiBase: string;
  mediaBase: string;
  siteUrl: string;
  hcaptchaSitekey: string;
  /** Where the build-time pull writes its snapshot and pages read it. */
  contentDir: string;
  /**
   * The bundled sample API has no captcha service and the machine may have no
   * internet: only then, and only without a site key, does the appeal form use
   * a local stand-in. Any other build requires hCaptcha.
   */
  demoCaptcha: boolean;
  /** Offline reading (issue 14): false with SERVICE_WORKER=off, which ships a worker that removes itself. */
  serviceWorker: boolean;
}

export function readConfig(): SiteConfig {
  const apiBase = stripSlash(env('API_BASE') ?? SAMPLE_API_URL);
  return {
    apiBase,
    publicApiBase: stripSlash(env('PUBLIC_API_BASE') ?? apiBase),
    mediaBase: stripSlash(env('MEDIA_BASE') ?? apiBase),
    siteUrl: stripSlash(env('SITE_URL') ?? 'http://localhost:4321'),
    hcaptchaSitekey: env('HCAPTCHA_SITEKEY') ?? HCAPTCHA_TEST_SITEKEY,
    contentDir: env('CONTENT_DIR') ?? '.cache/content',
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
  if (!missing.length) return districtProblem();
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
  /** The Chromium the end-to-end tests, screenshots and benchmarks drive. */
  chromiumPath: string;
}

export function readMachineSettings(): MachineSettings {
  return {
    outDir: env('OUT_DIR') ?? 'dist',
    astroCacheDir: env('ASTRO_CACHE_DIR') ?? '.cache/astro',
    sampleApiDir: env('SAMPLE_API_DIR') ?? '.sample-api',
    releasesDir: env('RELEASES_DIR') ?? '.releases',
    pictureDir: env('PICTURE_DIR') ?? '.cache/pictures',
    documentDir: env('DOCUMENT_DIR') ?? '.cache/documents',
    chromiumPath: env('CHROMIUM_PATH') ?? '/usr/bin/chromium',
  };
}

/** Why this build's district cannot be published (an invalid folder, a placeholder left), or null. */
function districtProblem(): string | null {
  try {
    const left = placeholdersIn(district());
    if (!left.length) return null;
    return (
      `${districtDir()}/ still holds ${left.length} placeholder(s) (${left.slice(0, 3).join(', ')}${left.length > 3 ? ', …' : ''}); refusing to publish. ` +
      `\`npm run new-district -- ${DISTRICT_KEY}\` lists them.`
    );
  } catch (error) {
    if (error instanceof DistrictError) return error.message;
    throw error;
  }
}
