/**
 * The render step: Astro writes the site from the snapshot, with its
 * page-by-page log turned into a progress line. Astro prints one line per page
 * ("├─ /news/5/index.html (+3ms)", or "(cached)" when it reused the page), far
 * too many for a log, and nothing at all at level "warn"; warnings and errors
 * pass through. Its cache (ASTRO_CACHE_DIR) makes a rebuild render only the
 * pages whose key or code changed.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { build } from 'astro';
import { readMachineSettings } from '../../../src/config.ts';
import { astroOutDir } from '../astro/out-dir.ts';
import { restoreByLink } from '../astro/restore-output.ts';
import { progress } from '../../lib/progress.ts';

// A public-sector build sends nothing home.
process.env.ASTRO_TELEMETRY_DISABLED ??= '1';

export interface RenderReport {
  ms: number;
  /** From the first page written to the end. */
  renderMs: number;
  /** Pages Astro wrote, and of those the ones it reused from its cache. */
  pages: number;
  reused: number;
}

/** Astro's cache, which the rebuild keeps between builds; the last pass keeps its memo there too. */
export const astroCacheDir = () => resolve(readMachineSettings().astroCacheDir);

/** Pages in the previous build's incremental manifest: the likely total of this one, for progress. */
function previousPageCount(): number | undefined {
  try {
    const manifest = JSON.parse(readFileSync(join(astroCacheDir(), 'incremental-build.json'), 'utf8')) as {
      routes: Record<string, { paths: Record<string, unknown> }>;
    };
    return Object.values(manifest.routes).reduce((n, r) => n + Object.keys(r.paths).length, 0) || undefined;
  } catch {
    return undefined;
  }
}

/** Reads Astro's log line by line: pages counted, the start of rendering marked, warnings passed on. */
function astroLog(write: (text: string) => unknown) {
  const pages = progress('pages', previousPageCount(), write);
  const seen = { count: 0, reused: 0, renderStarted: 0 };
  let pending = '';
  const onLine = (raw: string) => {
    // eslint-disable-next-line no-control-regex
    const line = raw.replace(/\x1b\[[0-9;]*m/g, '');
    if (/[├└]─/.test(line)) {
      seen.count++;
      if (/\((cached|restored)\)/.test(line)) seen.reused++;
      pages.tick();
    } else if (line.includes('generating static routes')) seen.renderStarted = performance.now();
    else if (/\bWARN\b|\bERROR\b|warning|error/i.test(line)) write(`${raw}\n`);
  };
  const take = (chunk: string | Uint8Array) => {
    pending += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
    const lines = pending.split('\n');
    pending = lines.pop()!;
    lines.forEach(onLine);
  };
  const end = () => {
    if (pending) onLine(pending);
    pages.done(`${seen.reused.toLocaleString('en')} reused`);
  };
  return { take, end, seen };
}

export async function renderSite(): Promise<RenderReport> {
  const started = performance.now();
  const write = process.stdout.write.bind(process.stdout);
  const log = astroLog(write);
  process.stdout.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
    log.take(chunk);
    (rest.find((r) => typeof r === 'function') as (() => void) | undefined)?.();
    return true;
  }) as typeof process.stdout.write;
  if (!(await restoreByLink())) write('Astro copies the pages it reuses (its cache could not link them): the build is correct but slower.\n');
  const outDir = astroOutDir(readMachineSettings().outDir);
  try {
    await build({ logLevel: 'info', outDir: outDir.path });
  } finally {
    process.stdout.write = write;
    log.end();
    outDir.done();
  }
  const end = performance.now();
  return { ms: Math.round(end - started), renderMs: Math.round(end - (log.seen.renderStarted || started)), pages: log.seen.count, reused: log.seen.reused };
}
