/**
 * Astro goes through every page the routes list, even one it only reuses: at 10,000 posts per language
 * some 44,700 pages after one edit, each checked, recorded, logged and placed (about a second of the
 * build's main thread, profiled). So the build hands Astro only the pages it would render: those whose
 * key (src/content/cache-key.ts) differs from the one in Astro's manifest, or that its cache has no copy
 * of. Each page left out is recorded in Astro's next manifest as Astro records a page it reuses, is given
 * to the last pass like a page Astro reused (./restore-output.ts), and is named to the sitemap.
 *
 * Astro also renders again the pages of a route whose code changed (its dependency hash, known only inside
 * Astro). This stands the site's whole code in for it (../inputs.ts `siteCodeDigest`): when any of it
 * changed since the manifest was written, every page is handed to Astro, which decides page by page as
 * before. Astro's manifest is trusted only as Astro trusts it (its version, configuration and lockfile).
 *
 * Before Astro even lists a page it checks and stringifies its parameters: so the routes are offered, while Astro
 * calls them, to leave out a page whose key the manifest holds (`unlistedFrom`, src/content/unlisted-pages.ts). A page
 * made of plain values and posts has a key of two parts (src/content/cache-key.ts `madeFromKey`): while every picture
 * and document the last build knew is the same (./kept-maps.ts), it is found by the first, and its files are not looked
 * up again (40,000 post pages at 10,000 news a language, some 10 µs each).
 *
 * What this reads of Astro (its `IncrementalBuildCache`, experimental in Astro 7.3, and its manifest's
 * shape) is checked against the installed Astro by tests/unit/astro-bridge.test.ts. If a later Astro
 * moves it, every page is handed to Astro: slower, never wrong.
 */
import { readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AstroIntegration } from 'astro';
import { astroCacheClass, COPIES_FOLDER } from './astro-cache.ts';
import type { ReusedPage } from './restore-output.ts';
import { MANIFEST_FILE, MANIFEST_VERSION, plainPage, readManifest, readManifestFile, type AstroManifest, type ManifestPage } from './astro-manifest.ts';
import { copyStampsAhead, type CopyStamp, type FileStamp } from './copy-stats.ts';
import { offerUnlistedPages, type TakeUnlisted } from '../../../src/content/unlisted-pages.ts';
import { MADE_FROM_PART } from '../../../src/content/cache-key.ts';
import { readConfig } from '../../../src/config.ts';
import { keepMaps, readMaps, type MapsRead } from './kept-maps.ts';
import { supplyPulledMaps } from '../../../src/content/pulled-map.ts';

type BuildStart = NonNullable<AstroIntegration['hooks']['astro:build:start']>;
type SetPrerenderer = Parameters<BuildStart>[0]['setPrerenderer'];
type Prerenderer = Exclude<Parameters<SetPrerenderer>[0], (...args: never[]) => unknown>;
type PathWithRoute = Awaited<ReturnType<Prerenderer['getStaticPaths']>>[number];

/**
 * Beside Astro's manifest: the site's code it was written with, and the manifest's size and time then, written
 * once this build's manifest is (a manifest written since by a build without this, such as `astro build`, is not
 * trusted to match it).
 */
const MANIFEST_CODE_FILE = 'incremental-build.code.txt';

/** Said after the code in its record when two routes made one page: the routes leave no page out while the code stays so. */
const EVERY_PAGE_LISTED = 'every-page-listed';

/**
 * What the record beside the manifest (`written`) says of this build's code and manifest: whether the manifest was
 * written with the same code, and whether pages may be left unlisted (not after a build found two routes making one page).
 */
export function codeRecord(written: string | undefined, code: string | undefined, stamp: string): { sameCode: boolean; offer: boolean } {
  const recorded = code === undefined ? undefined : `${code} ${stamp}`;
  const sameCode = recorded !== undefined && (written === recorded || written === `${recorded} ${EVERY_PAGE_LISTED}`);
  return { sameCode, offer: sameCode && written === recorded };
}

/** The manifest file as it is now, by size and modification time. */
const manifestStamp = (cacheDir: string) => {
  const stat = statSync(join(cacheDir, MANIFEST_FILE), { bigint: true, throwIfNoEntry: false });
  return stat ? `${stat.size}:${stat.mtimeNs}` : 'none';
};

/** What Astro's cache was loaded with in this build: its instance, and whether it trusts the manifest on disk. */
interface LoadedCache {
  cache: { record(...args: unknown[]): void };
  configHash: string;
  lockfileHash: string;
  force: boolean;
  /** The manifest the cache was made with, when this read it for Astro (undefined: Astro read it itself). */
  manifest?: AstroManifest | null;
}

const LOADED = Symbol.for('hokimiyat.astro-cache-loaded');
const ASTRO_LOAD = Symbol.for('hokimiyat.astro-cache-load');
const REUSED_NAMES = Symbol.for('hokimiyat.pages-reused-without-astro');
const shared = globalThis as { [LOADED]?: (loaded: LoadedCache) => void; [REUSED_NAMES]?: readonly string[] };

/** The pages of the latest build that were reused without being handed to Astro, as Astro names built pages (`news/5/`). */
export const pagesReusedWithoutAstro = (): readonly string[] => shared[REUSED_NAMES] ?? [];

type CacheClass = { load?: (...args: unknown[]) => unknown; [ASTRO_LOAD]?: (...args: unknown[]) => unknown };

/** Makes Astro's cache tell `listener` how it was loaded. False when the cache is not where this expects it. */
async function listenToCacheLoad(listener: (loaded: LoadedCache) => void): Promise<boolean> {
  const cache = await astroCacheClass<CacheClass>();
  const load = cache?.[ASTRO_LOAD] ?? cache?.load;
  if (!cache || typeof load !== 'function' || typeof (cache as { prototype?: { record?: unknown } }).prototype?.record !== 'function') return false;
  cache[ASTRO_LOAD] = load;
  // Astro's `load(settings, configHash, lockfileHash, keyDigest, contentEntryHashes, force)`, which is
  // `new IncrementalBuildCache(configHash, lockfileHash, keyDigest, contentEntryHashes, force ? null : its readManifest)`.
  // The manifest is read here for it, so that the build trusts the very manifest Astro has and does not parse it
  // twice (5.9 MB at 10,000 news per language).
  cache.load = function (this: unknown, ...args: unknown[]) {
    const [settings, configHash, lockfileHash, keyDigest, contentEntryHashes, force] = args;
    if (typeof configHash !== 'string' || typeof lockfileHash !== 'string') return load.apply(this, args);
    const file = manifestFileOf(settings);
    if (typeof this !== 'function' || !file) {
      const loaded = load.apply(this, args) as LoadedCache['cache'];
      shared[LOADED]?.({ cache: loaded, configHash, lockfileHash, force: Boolean(force) });
      return loaded;
    }
    const trusted = force ? null : trustedAs(readManifestFile(file), configHash, lockfileHash);
    const loaded = new (this as new (...a: unknown[]) => LoadedCache['cache'])(configHash, lockfileHash, keyDigest, contentEntryHashes, trusted);
    shared[LOADED]?.({ cache: loaded, configHash, lockfileHash, force: Boolean(force), manifest: trusted });
    return loaded;
  };
  shared[LOADED] = listener;
  return true;
}

/** Where Astro keeps its manifest (its `getManifestFile`), from the settings it loads its cache with. */
function manifestFileOf(settings: unknown): string | undefined {
  const cacheDir = (settings as { config?: { cacheDir?: unknown } } | undefined)?.config?.cacheDir;
  return cacheDir instanceof URL && cacheDir.protocol === 'file:' ? fileURLToPath(new URL(MANIFEST_FILE, cacheDir)) : undefined;
}

/** Astro's manifest when Astro trusts it in this build (its `readManifest`), else null. */
function trustedManifest(cacheDir: string, loaded: LoadedCache | undefined): AstroManifest | null {
  if (!loaded || loaded.force) return null;
  if (loaded.manifest !== undefined) return loaded.manifest;
  return trustedAs(readManifest(cacheDir), loaded.configHash, loaded.lockfileHash);
}

/** The manifest if Astro trusts it for this configuration and lockfile (its `readManifest`'s grounds), else null. */
const trustedAs = (manifest: AstroManifest | null, configHash: string, lockfileHash: string): AstroManifest | null =>
  manifest?.version === MANIFEST_VERSION && manifest.configHash === configHash && manifest.lockfileHash === lockfileHash ? manifest : null;

/** A page Astro would reuse as it is: the same key, a plain page (astro-manifest.ts), and its copy where Astro keeps it. */
function reusable(path: PathWithRoute, page: ManifestPage | undefined, copies: string, copyStamp: CopyStamp): ReusedPage | undefined {
  if (path.cacheKey === undefined || path.route.type !== 'page' || page?.cacheKey !== path.cacheKey || !plainPage(page)) return undefined;
  const stat = copyStamp(page.outputFile);
  return stat ? { source: copies + page.outputFile, stat } : undefined;
}

/** Astro's name of a built page (its `addPageName` for `trailingSlash` and `build.format`). */
function pageName(pathname: string, slashed: boolean): string {
  return slashed ? pathname.replace(/\/?$/, '/').replace(/^\//, '') : pathname.replace(/^\//, '');
}

/** A page of Astro's manifest: its route's component and dependency hash, its path and its record. */
interface ManifestEntry {
  component: string;
  dependencyHash: string;
  pathname: string;
  page: ManifestPage;
  /** The parameters of the route's page it was taken for, once taken. */
  takenFor?: Readonly<Record<string, unknown>>;
}

/** A page of Astro's manifest that no route listed, taken as it is (src/content/unlisted-pages.ts), with its copy's stamp. */
export interface UnlistedPage {
  entry: ManifestEntry;
  stat: FileStamp;
}

/**
 * What a route may leave unlisted (src/content/unlisted-pages.ts): a page whose key Astro's manifest holds for one
 * page, a plain one whose copy is there. Its key covers the page's parameters and every input (src/content/cache-key.ts),
 * so it is that page, as Astro would reuse it. `take` answers the routes; `taken` says what they left unlisted. With
 * `filesHold` (./kept-maps.ts), a page is also taken by the first part of a key of two parts, which covers all but its files.
 */
export function unlistedFrom(manifest: AstroManifest, copyStamp: CopyStamp, filesHold = false): { take: TakeUnlisted; taken: () => UnlistedPage[]; byMadeFrom: () => number } {
  let byKey: Map<string, ManifestEntry | null> | undefined;
  let pagesMadeFrom: Map<string, ManifestEntry | null> | undefined;
  const taken: UnlistedPage[] = [];
  let byMadeFrom = 0;
  const takeEntry = (entry: ManifestEntry | null | undefined, key: string, params: Readonly<Record<string, unknown>>) => {
    if (!entry) return false;
    // A page listed twice is never offered (src/lib/paths.ts), and a key covers the page's parameters.
    if (entry.takenFor) throw new Error(`two pages have one key (${key}): ${JSON.stringify(entry.takenFor)} and ${JSON.stringify(params)}`);
    if (!entry.component.endsWith('.astro') || !plainPage(entry.page)) return false;
    const stat = copyStamp(entry.page.outputFile);
    if (!stat) return false;
    entry.takenFor = params;
    taken.push({ entry, stat });
    return true;
  };
  const take: TakeUnlisted = (key, params) => takeEntry((byKey ??= pagesByKey(manifest)).get(key), key, params);
  if (filesHold) {
    take.madeFrom = (madeFrom, params) => {
      pagesMadeFrom ??= pagesByMadeFrom((byKey ??= pagesByKey(manifest)));
      const took = takeEntry(pagesMadeFrom.get(madeFrom), madeFrom, params);
      if (took) byMadeFrom++;
      return took;
    };
  }
  return { take, taken: () => taken, byMadeFrom: () => byMadeFrom };
}

/** The pages whose keys are of two parts (src/content/cache-key.ts `madeFromKey`) by the first; null for a first part two share. */
function pagesByMadeFrom(byKey: Map<string, ManifestEntry | null>): Map<string, ManifestEntry | null> {
  const byMadeFrom = new Map<string, ManifestEntry | null>();
  for (const [key, entry] of byKey) {
    if (key.length !== 2 * MADE_FROM_PART) continue;
    const first = key.slice(0, MADE_FROM_PART);
    byMadeFrom.set(first, byMadeFrom.has(first) || !entry ? null : entry);
  }
  return byMadeFrom;
}

/** The manifest's pages by key; null for a key that more than one page has (the pages of a language alone share theirs). */
function pagesByKey(manifest: AstroManifest): Map<string, ManifestEntry | null> {
  const byKey = new Map<string, ManifestEntry | null>();
  for (const component in manifest.routes) {
    const route = manifest.routes[component];
    const paths = route?.paths;
    if (!paths) continue;
    for (const pathname in paths) {
      const page = paths[pathname];
      const key = page?.cacheKey;
      if (page && typeof key === 'string') byKey.set(key, byKey.has(key) ? null : { component, dependencyHash: route.dependencyHash, pathname, page });
    }
  }
  return byKey;
}

export interface ChangedPagesOnly {
  integration: AstroIntegration;
  /**
   * After the build: the pages handed to Astro, those reused without it, how many of these no route listed, and of
   * those how many were found by what they are made from (src/content/cache-key.ts `madeFromKey`).
   */
  counts(): { handed: number; kept: number; notListed: number; byMadeFrom: number };
  /** Records the site's code beside Astro's manifest, with the maps its keys were made with (./kept-maps.ts), once the build has succeeded. */
  done(): void;
}

/**
 * The integration that hands Astro only the pages whose key changed. `reused`: the pages Astro reused
 * (./restore-output.ts), to which the pages kept here are added; `codeDigest`: the site's code now;
 * `onHanded`: told how many pages Astro will go through.
 */
export async function changedPagesOnly(options: {
  cacheDir: string;
  reused: Map<string, ReusedPage> | null;
  codeDigest: Promise<string | undefined>;
  onHanded?: (pages: number) => void;
  warn?: (message: string) => void;
}): Promise<ChangedPagesOnly> {
  const { cacheDir, reused } = options;
  let loaded: LoadedCache | undefined;
  const listening = reused !== null && (await listenToCacheLoad((l) => (loaded = l)));
  let handed = 0;
  let kept = 0;
  let notListed = 0;
  let byMadeFrom = 0;
  /** This build's picture and document maps, as its pages read them (./kept-maps.ts). */
  let maps: MapsRead | undefined;
  /** A page two routes make, when the routes listed one: recorded with the code, so that no later build leaves a page unlisted. */
  let twoRoutes: string | undefined;
  // Astro's page names end in `/` unless the site is configured otherwise (astro:config:done says).
  let slashed = true;
  let code: string | undefined;
  const codeFile = join(cacheDir, MANIFEST_CODE_FILE);
  let written: string | undefined;
  try {
    written = readFileSync(codeFile, 'utf8');
  } catch {
    written = undefined;
  }
  // Until this build has written its manifest, the one on disk is not known to match any code.
  rmSync(codeFile, { force: true });
  // Only a manifest this code wrote can be trusted (leaveOut): without its record, no copy is reused here.
  const copyStamps = listening && written !== undefined ? copyStampsAhead(cacheDir, options.warn) : null;
  shared[REUSED_NAMES] = [];

  /** Astro's manifest and the copies' stamps, when this build may reuse pages without Astro; else null. */
  const trust = async (): Promise<{ manifest: AstroManifest; copyStamp: CopyStamp; offer: boolean } | null> => {
    code = await options.codeDigest;
    const record = codeRecord(written, code, manifestStamp(cacheDir));
    const manifest = listening && record.sameCode ? trustedManifest(cacheDir, loaded) : null;
    return manifest && loaded && reused && copyStamps ? { manifest, copyStamp: await copyStamps, offer: record.offer } : null;
  };

  const leaveOut = (paths: PathWithRoute[], trusted: { manifest: AstroManifest; copyStamp: CopyStamp } | null, unlisted: readonly UnlistedPage[]): PathWithRoute[] => {
    // A path listed twice: Astro keeps the first and warns, and it alone should choose.
    const bare = paths.map(({ pathname }) => pathname.replace(/\/+$/, ''));
    const seen = new Map<string, string>();
    const twice = new Set<string>();
    for (const [i, path] of bare.entries()) {
      const component = paths[i]!.route.component;
      const first = seen.get(path);
      if (first !== undefined) twice.add(path);
      else seen.set(path, component);
      // By two routes (only their code does it): no page is left unlisted while the code stays so, since a route
      // would leave out the page Astro chose last time while the other route lists its own.
      if (first !== undefined && first !== component && !twoRoutes) {
        twoRoutes = `${path} (${first}, ${component})`;
        options.warn?.(`the page ${twoRoutes} is made by two routes: every page is listed to Astro until each page has one route`);
      }
    }
    if (!trusted || !loaded || !reused) return paths;
    const { manifest, copyStamp } = trusted;
    const copies = join(cacheDir, COPIES_FOLDER);
    const toAstro: PathWithRoute[] = [];
    const names: string[] = [];
    for (const [i, path] of paths.entries()) {
      const route = manifest.routes[path.route.component];
      const page = route?.paths[path.pathname];
      const copy = route && !twice.has(bare[i]!) && reusable(path, page, copies, copyStamp);
      if (!copy || !page) {
        toAstro.push(path);
        continue;
      }
      // Recorded before Astro's loop, which records the route's current dependency hash over this one after it.
      loaded.cache.record(path.route.component, route.dependencyHash, path.pathname, path.cacheKey, page.outputFile);
      reused.set(`/${page.outputFile}`, copy);
      names.push(pageName(path.pathname, slashed));
    }
    for (const { entry, stat } of unlisted) {
      const { component, dependencyHash, pathname, page } = entry;
      // A route lists no page twice and leaves none out after a build that found two routes making one page (above).
      if (seen.has(pathname.replace(/\/+$/, ''))) throw new Error(`the page ${pathname} is listed by a route and was left out by ${component}`);
      loaded.cache.record(component, dependencyHash, pathname, page.cacheKey, page.outputFile);
      reused.set(`/${page.outputFile}`, { source: copies + page.outputFile, stat });
      names.push(pageName(pathname, slashed));
    }
    shared[REUSED_NAMES] = names;
    return toAstro;
  };

  const integration: AstroIntegration = {
    name: 'hokimiyat:changed-pages-only',
    hooks: {
      'astro:config:done': ({ config }) => {
        slashed = config.trailingSlash === 'always' || (config.trailingSlash === 'ignore' && config.build.format === 'directory');
      },
      // Read by the sitemap's hook, which runs before this one; no later build in this process may take them for its own.
      'astro:build:done': () => {
        shared[REUSED_NAMES] = [];
        supplyPulledMaps(undefined);
      },
      'astro:build:start': ({ setPrerenderer }) => {
        setPrerenderer((astro) =>
          Object.assign(Object.create(astro) as Prerenderer, {
            getStaticPaths: async () => {
              const trusted = await trust();
              maps = readMaps(cacheDir, readConfig().contentDir);
              supplyPulledMaps(maps.maps);
              const unlisted = trusted?.offer ? unlistedFrom(trusted.manifest, trusted.copyStamp, maps.hold) : null;
              offerUnlistedPages(unlisted ? unlisted.take : undefined);
              let all: PathWithRoute[];
              try {
                all = await astro.getStaticPaths();
              } finally {
                offerUnlistedPages(undefined);
              }
              const taken = unlisted ? unlisted.taken() : [];
              const toAstro = leaveOut(all, trusted, taken);
              handed = toAstro.length;
              notListed = taken.length;
              byMadeFrom = unlisted ? unlisted.byMadeFrom() : 0;
              kept = all.length - toAstro.length + notListed;
              options.onHanded?.(handed);
              return toAstro;
            },
          }),
        );
      },
    },
  };
  return {
    integration,
    counts: () => ({ handed, kept, notListed, byMadeFrom }),
    done: () => {
      if (code === undefined) return;
      // The maps first: the record says the manifest's keys were made by this code, with them.
      if (maps && !keepMaps(cacheDir, maps.texts)) options.warn?.('the picture and document maps could not be kept beside the cache: the next build makes every key whole');
      writeFileSync(codeFile, `${code} ${manifestStamp(cacheDir)}${twoRoutes ? ` ${EVERY_PAGE_LISTED}` : ''}`);
    },
  };
}
