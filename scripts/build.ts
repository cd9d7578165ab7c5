/**
 * `npm run build`: pull the content from the API for every language, then build
 * the static site into dist/ (or OUT_DIR), and precompress it.
 * `node scripts/build.ts --skip-pull` builds from the snapshot already pulled
 * (the rebuild runs it that way, in a child process it can stop).
 */
import { parseArgs } from 'node:util';
import { build } from 'astro';
import { readConfig, type SiteConfig } from '../src/config.ts';
import { pullContent } from '../src/content/pull.ts';
import { ensureApi } from './lib/api.ts';
import { writeCsp } from './lib/csp.ts';
import { precompress } from './lib/precompress.ts';

// A public-sector build sends nothing home.
process.env.ASTRO_TELEMETRY_DISABLED ??= '1';

/** Builds the site from the current snapshot into OUT_DIR and precompresses it. */
export async function buildFromSnapshot(): Promise<void> {
  const outDir = process.env.OUT_DIR || 'dist';
  const started = performance.now();
  await build({ logLevel: 'warn' });
  const built = performance.now();
  await writeCsp(outDir, readConfig());
  const c = await precompress(outDir);
  const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  console.log(
    `Built the site into ${outDir}/ in ${s(built - started)}; precompressed ${c.files} text files in ${s(performance.now() - built)} ` +
      `(${c.reused} from cache, ${c.pruned} stale cache entries removed)`,
  );
}

/** Pull and build against an API that already answers. */
export async function pullAndBuild(config: SiteConfig): Promise<void> {
  await pullContent(config);
  await buildFromSnapshot();
}

if (import.meta.main) {
  const { values } = parseArgs({ options: { 'skip-pull': { type: 'boolean', default: false } } });
  const config = readConfig();
  let api;
  try {
    if (values['skip-pull']) {
      await buildFromSnapshot();
    } else {
      api = await ensureApi(config);
      await pullAndBuild(config);
    }
  } catch (err) {
    console.error(`\nBuild failed: ${err instanceof Error ? err.message : String(err)}`);
    process.exitCode = 1;
  } finally {
    await api?.close();
  }
}
