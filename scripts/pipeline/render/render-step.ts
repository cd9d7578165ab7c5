/**
 * The render step: Astro writes the site from the snapshot, with its page-by-page log turned into a
 * progress line (../astro/page-log.ts); warnings and errors pass through. Its cache (ASTRO_CACHE_DIR) makes
 * a rebuild render only the pages whose key or code changed.
 */
import { join, resolve } from 'node:path';
import { build } from 'astro';
import { readMachineSettings } from '../../../src/config.ts';
import { astroOutDir } from '../astro/out-dir.ts';
import { ASTRO_LOGGER, listenToAstro } from '../astro/page-log.ts';
import { changedPagesOnly } from '../astro/changed-pages.ts';
import { deferRestore, type ReusedPages } from '../astro/restore-output.ts';
import { siteCodeDigest, siteCodeStamps } from '../inputs.ts';
import { progress } from '../../lib/progress.ts';
import type { StoredFiles } from '../finish/finish-step.ts';
import { keepSitemapIn, keptSitemap } from './sitemap-store.ts';

// A public-sector build sends nothing home.
process.env.ASTRO_TELEMETRY_DISABLED ??= '1';

export interface RenderReport {
  ms: number;
  /** From the first page written to the end. */
  renderMs: number;
  /** Pages built, and of those the ones reused from Astro's cache. */
  pages: number;
  reused: number;
  /** Pages handed to Astro: the others were reused without it (../astro/changed-pages.ts). */
  handedToAstro: number;
  /** Of the pages reused without Astro, those no route listed (../astro/changed-pages.ts). */
  notListed: number;
  /** Of those, the pages found by what they are made from, their files not looked up (../astro/changed-pages.ts). */
  foundByMadeFrom: number;
}

/** Astro's cache, which the rebuild keeps between builds; the last pass keeps its memo there too. */
export const astroCacheDir = () => resolve(readMachineSettings().astroCacheDir);

/**
 * Renders the site; `reused`: the pages Astro reused from its cache, which the last pass places (../astro/restore-output.ts),
 * as it places the sitemap's files (./sitemap-store.ts).
 */
export async function renderSite(): Promise<{ report: RenderReport; reused: ReusedPages; sitemap: StoredFiles }> {
  const started = performance.now();
  const write = (text: string) => process.stdout.write(text);
  const pages = progress('pages', undefined, write);
  // Astro's errors to the standard error, as its own logger writes them.
  const log = listenToAstro(
    () => pages.tick(),
    (text, level) => (level === 'error' ? process.stderr.write(text) : write(text)),
  );
  keepSitemapIn(join(astroCacheDir(), 'sitemap'));
  const reused = await deferRestore();
  if (!reused) write('Astro copies the pages it reuses (its cache is not where scripts/pipeline/astro/restore-output.ts expects it): the build is correct but slower.\n');
  // Made while Astro bundles, so taken as the code stood before Astro read it and checked unchanged after it has;
  // a digest that cannot be made hands Astro every page.
  const stamps = siteCodeStamps();
  const codeDigest = siteCodeDigest().catch(() => undefined);
  const changedOnly = await changedPagesOnly({
    cacheDir: astroCacheDir(),
    reused,
    codeDigest,
    onHanded: (n) => pages.total(n),
    warn: (message) => write(`warning: ${message}\n`),
  });
  const outDir = astroOutDir(readMachineSettings().outDir);
  try {
    await build({ logLevel: 'info', logger: ASTRO_LOGGER, outDir: outDir.path, integrations: [changedOnly.integration] });
    // Code deployed while Astro ran may be in the digest and not in what Astro built: then no code is recorded.
    if (siteCodeStamps() === stamps) changedOnly.done();
  } finally {
    log.stop();
    const { kept } = changedOnly.counts();
    pages.done(`${log.seen.reused.toLocaleString('en')} reused by Astro${kept ? `, ${kept.toLocaleString('en')} without it` : ''}`);
    outDir.done();
  }
  const { handed, kept, notListed, byMadeFrom } = changedOnly.counts();
  // Astro falls back to its own console logger when it cannot load ours: then every page is printed and none counted.
  if (!log.seen.count && handed) write("warning: Astro's log did not reach the build (scripts/pipeline/astro/page-log.ts): no page was counted\n");
  const end = performance.now();
  return {
    report: {
      ms: Math.round(end - started),
      renderMs: Math.round(end - (log.seen.renderStarted || started)),
      pages: log.seen.count + kept,
      reused: log.seen.reused + kept,
      handedToAstro: handed,
      notListed,
      foundByMadeFrom: byMadeFrom,
    },
    reused: reused ?? new Map(),
    sitemap: keptSitemap(),
  };
}
