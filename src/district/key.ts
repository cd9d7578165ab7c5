/**
 * Which district this build is for: the name of its folder in `districts/` (SITE_DISTRICT, Qorakul by
 * default), which is also its short name. Storage keys and offline cache names are made from it, so
 * two districts on one origin never share what a device keeps.
 *
 * Browser code cannot read the environment: Astro's Vite and the service worker's esbuild replace
 * `globalThis.__SITE_DISTRICT__` with the name at build time (astro.config.mjs, src/features/offline/build-service-worker.ts),
 * and drop the rest as dead code, so no other district's name reaches the browser; code that Node runs
 * directly (the build's scripts, the tests) reads SITE_DISTRICT itself.
 */
declare global {
  var __SITE_DISTRICT__: string | undefined;
}

/** The district built when SITE_DISTRICT is not set. */
export const DEFAULT_DISTRICT = 'qorakul';
/** What a district's folder may be called: it becomes part of storage keys and cache names. */
export const DISTRICT_KEY_PATTERN = /^[a-z][a-z0-9-]{1,39}$/;

function districtKeyInNode(): string {
  const named = (globalThis as { process?: { env: Record<string, string | undefined> } }).process?.env.SITE_DISTRICT?.trim();
  return named || DEFAULT_DISTRICT;
}

/** This build's district. */
export const DISTRICT_KEY: string = globalThis.__SITE_DISTRICT__ ?? districtKeyInNode();
