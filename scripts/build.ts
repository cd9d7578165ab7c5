/**
 * `npm run build`: pull the content from the API for every language, then build
 * the static site into dist/ (or OUT_DIR) and finish it in one pass
 * (fragments, Content-Security-Policy, link check, hashes, compression).
 * `node scripts/build.ts --skip-pull` builds from the snapshot already pulled
 * (the rebuild runs it that way, in a child process it can stop, and reads the
 * report it writes to BUILD_REPORT_FILE).
 */
import { readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { build } from 'astro';
import { readConfig, readMachineSettings, type SiteConfig } from '../src/config.ts';
import { ensureApi } from './lib/api.ts';
import { restoreByLink } from './lib/astro-restore.ts';
import { finishBuild, type FinishedBuild } from './lib/finish-build.ts';
import { placePictures } from './lib/place-pictures.ts';
import { pictureMap } from '../src/content/pictures/map.ts';
import { progress } from './lib/progress.ts';
import { pullStep } from './lib/pull-step.ts';
import { releaseFileHashes } from './lib/releases.ts';

// A public-sector build sends nothing home.
process.env.ASTRO_TELEMETRY_DISABLED ??= '1';

export interface BuildReport extends FinishedBuild {
  astro: { ms: number; renderMs: number; pages: number; reused: number };
}

/** Astro's cache (astro.config.mjs), which the rebuild keeps between builds; the last pass keeps its memo there too. */
const ASTRO_CACHE_DIR = resolve(readMachineSettings().astroCacheDir);

/** Pages in the previous build's incremental manifest: the likely total of this one, for progress. */
function previousPageCount(): number | undefined {
  try {
    const manifest = JSON.parse(readFileSync(join(ASTRO_CACHE_DIR, 'incremental-build.json'), 'utf8')) as {
      routes: Record<string, { paths: Record<string, unknown> }>;
    };
    return Object.values(manifest.routes).reduce((n, r) => n + Object.keys(r.paths).length, 0) || undefined;
  } catch {
    return undefined;
  }
}

/**
 * Runs Astro with its page-by-page log turned into a progress line: Astro
 * prints one line per page ("├─ /news/5/index.html (+3ms)", or "(cached)"
 * when reused), far too many for a log, and nothing at all at level "warn".
 * Warnings and errors pass through.
 */
async function astroBuild(): Promise<BuildReport['astro']> {
  const started = performance.now();
  const write = process.stdout.write.bind(process.stdout);
  const pages = progress('pages', previousPageCount(), write);
  const marks: Record<string, number> = {};
  let count = 0;
  let reused = 0;
  let pending = '';
  const onLine = (raw: string) => {
    // eslint-disable-next-line no-control-regex
    const line = raw.replace(/\x1b\[[0-9;]*m/g, '');
    if (/[├└]─/.test(line)) {
      count++;
      if (/\((cached|restored)\)/.test(line)) reused++;
      pages.tick();
    } else if (line.includes('generating static routes')) marks.render = performance.now();
    else if (/\bWARN\b|\bERROR\b|warning|error/i.test(line)) write(`${raw}\n`);
  };
  process.stdout.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
    pending += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
    const lines = pending.split('\n');
    pending = lines.pop()!;
    for (const l of lines) onLine(l);
    const cb = rest.find((r) => typeof r === 'function') as (() => void) | undefined;
    cb?.();
    return true;
  }) as typeof process.stdout.write;
  if (!(await restoreByLink())) write('Astro copies the pages it reuses (its cache could not link them): the build is correct but slower.\n');
  try {
    await build({ logLevel: 'info' });
  } finally {
    process.stdout.write = write;
    if (pending) onLine(pending);
  }
  const end = performance.now();
  pages.done(`${reused.toLocaleString('en')} reused`);
  return {
    ms: Math.round(end - started),
    renderMs: Math.round(end - (marks.render ?? started)),
    pages: count,
    reused,
  };
}

/** Builds the site from the current snapshot into OUT_DIR and finishes it; fails on a broken internal reference. */
export async function buildFromSnapshot(): Promise<BuildReport> {
  const { outDir, pictureDir } = readMachineSettings();
  const astro = await astroBuild();
  const pictures = placePictures(outDir, pictureMap(), pictureDir);
  // Set by the rebuild: the release this build will replace.
  const previous = process.env.PREVIOUS_RELEASE;
  const finished = await finishBuild(outDir, readConfig(), {
    memoFile: join(ASTRO_CACHE_DIR, 'finish-pass.json'),
    previousRelease: previous ? { root: previous, hashes: Object.fromEntries(await releaseFileHashes(previous)) } : null,
    knownHashes: pictures,
  });
  const report: BuildReport = { astro, ...finished };
  const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  const c = finished.compressed;
  console.log(
    `Built ${astro.pages} pages into ${outDir}/ in ${s(astro.ms)} (${astro.reused} reused, ${Object.keys(pictures).length} drawn pictures placed); ` +
      `finished in ${s(finished.ms)}: ${finished.fragments} shared fragments spliced, ${finished.remembered} pages' checks remembered (${finished.pagesRead} pages read), ${c.files} text files compressed ` +
      `(${c.made} made, ${c.reused} reused from the previous release or the cache, ${c.pruned} stale cache entries removed), ` +
      `${finished.links.checked} internal references checked`,
  );
  const reportFile = process.env.BUILD_REPORT_FILE;
  if (reportFile) await writeFile(reportFile, JSON.stringify(report));
  if (finished.links.broken.length) {
    for (const b of finished.links.broken.slice(0, 20)) console.error(`broken: ${b}`);
    throw new Error(`the build has ${finished.links.broken.length} broken internal reference(s), e.g. ${finished.links.broken[0]}`);
  }
  return report;
}

/** Pull and build against an API that already answers. */
export async function pullAndBuild(config: SiteConfig): Promise<void> {
  await pullStep(config, 'all');
  await buildFromSnapshot();
}

if (import.meta.main) {
  const { values } = parseArgs({ options: { 'skip-pull': { type: 'boolean', default: false } } });
  let api;
  try {
    const config = readConfig();
    if (values['skip-pull']) {
      await buildFromSnapshot();
    } else {
      api = await ensureApi(config);
      await pullAndBuild(config);
    }
  } catch (err) {
    const error = err instanceof Error ? err.message : String(err);
    console.error(`\nBuild failed: ${error}`);
    // The rebuild reports the reason as its own.
    if (process.env.BUILD_REPORT_FILE) await writeFile(process.env.BUILD_REPORT_FILE, JSON.stringify({ error }));
    process.exitCode = 1;
  } finally {
    await api?.close();
  }
}
