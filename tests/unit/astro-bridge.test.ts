/**
 * The places where the build leans on Astro's internals (scripts/pipeline/astro/), each checked against the
 * installed Astro: an update that moves one fails here, and the failure names the touch point, instead of a
 * build that turns slow or wrong without a word.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ASTRO_INLINE_SCRIPTS } from '../../scripts/pipeline/astro/island-scripts.ts';
import { ASTRO_LOGGER, listenToAstro, PAGE_MARKER, RENDER_START, REUSED_MARKER } from '../../scripts/pipeline/astro/page-log.ts';
import { deferRestore } from '../../scripts/pipeline/astro/restore-output.ts';
import { MANIFEST_FILE, MANIFEST_VERSION } from '../../scripts/pipeline/astro/astro-manifest.ts';

const ASTRO = dirname(createRequire(import.meta.url).resolve('astro/package.json'));
const astroSource = (file: string) => readFileSync(join(ASTRO, 'dist', file), 'utf8');
/** Astro writes "├─" as escapes in its source. */
const unescaped = (source: string) => source.replace(/\\u([0-9a-fA-F]{4})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));

describe("Astro's internals the build depends on", () => {
  it('restore-output.ts: IncrementalBuildCache.prototype.restoreOutputFile, how generate.js calls it, and its copies under the cache folder\'s "dist/"', async () => {
    expect(await deferRestore(), 'restore-output.ts: astro/dist/core/build/incremental.js no longer has IncrementalBuildCache.prototype.restoreOutputFile').not.toBeNull();
    expect(
      astroSource('core/build/generate.js'),
      'restore-output.ts: Astro no longer takes a restore that returns true for the page written (it checks the file, or calls it otherwise)',
    ).toMatch(/const restored = !existsInDist && await cache\.restoreOutputFile\(options\.settings, relativeOutFile, outFile\);\s*if \(existsInDist \|\| restored\)/);
    expect(astroSource('core/build/incremental.js'), 'restore-output.ts: Astro keeps its output copies elsewhere than "dist/" in its cache folder').toMatch(
      /INCREMENTAL_OUTPUT_DIR = "dist\/"/,
    );
  });

  it('changed-pages.ts: how Astro loads its cache, records a page, trusts its manifest, skips a page and names a built page', () => {
    const incremental = astroSource('core/build/incremental.js');
    const generate = astroSource('core/build/generate.js');
    expect(incremental, 'changed-pages.ts: IncrementalBuildCache.load no longer takes (settings, configHash, lockfileHash, keyDigest, contentEntryHashes, force)').toMatch(
      /static load\(settings, configHash, lockfileHash, keyDigest, contentEntryHashes = [^,]+, force = false\)/,
    );
    expect(incremental, 'changed-pages.ts: IncrementalBuildCache.prototype.record no longer takes (routeComponent, dependencyHash, pathname, cacheKey, outputFile, …)').toMatch(
      /\brecord\(routeComponent, dependencyHash, pathname, cacheKey, outputFile, /,
    );
    expect(incremental, "astro-manifest.ts: Astro's manifest has another version").toContain(`CACHE_VERSION = ${MANIFEST_VERSION};`);
    // changed-pages.ts reads the manifest for Astro and makes the cache as `load` does.
    expect(incremental, 'changed-pages.ts: IncrementalBuildCache.load no longer makes the cache from its arguments and the manifest it reads').toMatch(
      /return new IncrementalBuildCache\(\s*configHash,\s*lockfileHash,\s*keyDigest,\s*contentEntryHashes,\s*force \? null : readManifest\(settings, configHash, lockfileHash\)\s*\);/,
    );
    expect(incremental, "changed-pages.ts: Astro's manifest is no longer its cache folder's incremental-build.json").toMatch(
      new RegExp(`INCREMENTAL_CACHE_FILE = "${MANIFEST_FILE}";[\\s\\S]*return new URL\\(INCREMENTAL_CACHE_FILE, settings\\.config\\.cacheDir\\);`),
    );
    // The whole of Astro's readManifest: changed-pages.ts trusts a manifest on these grounds, and Astro's cache takes the one it trusts.
    expect(incremental, 'changed-pages.ts: Astro trusts its manifest on other grounds than its version, configuration hash and lockfile hash').toMatch(
      /function readManifest\(settings, expectedConfigHash, expectedLockfileHash\) \{\s*try \{\s*const raw = fs\.readFileSync\(getManifestFile\(settings\), "utf-8"\);\s*const data = JSON\.parse\(raw\);\s*if \(data\.version !== CACHE_VERSION\) \{\s*return null;\s*\}\s*if \(data\.configHash !== expectedConfigHash\) \{\s*return null;\s*\}\s*if \(data\.lockfileHash !== expectedLockfileHash\) \{\s*return null;\s*\}\s*return data;\s*\} catch \{\s*return null;\s*\}\s*\}/,
    );
    // What Astro compares to reuse a page: the route's code, the page's key, and what it replays (left to Astro here).
    expect(incremental, 'changed-pages.ts: Astro reuses a page on other grounds').toMatch(
      /if \(routeEntry\.dependencyHash !== dependencyHash\) return false;\s*const pathEntry = routeEntry\.paths\[pathname\];\s*if \(!pathEntry\) return false;\s*if \(pathEntry\.cacheKey !== cacheKey\) return false;/,
    );
    expect(generate, 'changed-pages.ts: Astro loads its cache after the paths are listed, or lists them elsewhere').toMatch(
      /cache = IncrementalBuildCache\.load\([\s\S]*const pathsWithRoutes = await prerenderer\.getStaticPaths\(\);/,
    );
    expect(generate, 'changed-pages.ts: Astro names a built page otherwise (its addPageName)').toContain(
      'const pageName = shouldAppendForwardSlash(trailingSlash, buildFormat) ? pathname.replace(/\\/?$/, "/").replace(/^\\//, "") : pathname.replace(/^\\//, "");',
    );
  });

  it("page-log.ts: the logger setting loads it, and Astro's page lines are what it counts", async () => {
    const { loadLoggerDestination } = (await import(pathToFileURL(join(ASTRO, 'dist/core/logger/load.js')).href)) as {
      loadLoggerDestination: (config: typeof ASTRO_LOGGER, root: URL) => Promise<{ write: (m: object) => void }>;
    };
    const destination = await loadLoggerDestination(ASTRO_LOGGER, pathToFileURL(`${process.cwd()}/`));
    const log = listenToAstro(
      () => {},
      () => {},
    );
    try {
      destination.write({ label: null, level: 'info', message: '  ├─ /news/5/index.html', newLine: false });
      destination.write({ label: 'SKIP_FORMAT', level: 'info', message: ' (cached)', newLine: true });
    } finally {
      log.stop();
    }
    expect(log.seen, "page-log.ts: Astro's `logger.entrypoint` no longer reaches the render step").toMatchObject({ count: 1, reused: 1 });

    const generate = unescaped(astroSource('core/build/generate.js'));
    for (const [what, marker] of [
      ['each page written', PAGE_MARKER],
      ['a page reused from the cache', REUSED_MARKER],
      ['the start of rendering', new RegExp(RENDER_START)],
    ] as const) {
      expect(generate, `page-log.ts: astro/dist/core/build/generate.js no longer logs ${what} as ${marker}`).toMatch(marker);
    }
  });

  it("island-scripts.ts: Astro's island loader and directive scripts, which pages carry inline", () => {
    expect(ASTRO_INLINE_SCRIPTS).toHaveLength(6);
    for (const script of ASTRO_INLINE_SCRIPTS) expect(script.length, 'island-scripts.ts: a prebuilt script of Astro is empty').toBeGreaterThan(50);
    expect(astroSource('runtime/server/scripts.js'), 'island-scripts.ts: Astro no longer writes its island loader from astro-island.prebuilt.js').toContain(
      'from "./astro-island.prebuilt.js"',
    );
  });
});
