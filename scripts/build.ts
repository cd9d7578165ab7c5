/** `npm run build`: pull the content from the API for every language, then build the static site into dist/. */
import { build } from 'astro';
import { readConfig, type SiteConfig } from '../src/config.ts';
import { pullContent } from '../src/content/pull.ts';
import { ensureApi } from './lib/api.ts';

// A public-sector build sends nothing home.
process.env.ASTRO_TELEMETRY_DISABLED ??= '1';

/** Pull and build against an API that already answers. */
export async function pullAndBuild(config: SiteConfig): Promise<void> {
  await pullContent(config);
  await build({ logLevel: 'warn' });
  console.log('Built the site into dist/');
}

if (import.meta.main) {
  const config = readConfig();
  let api;
  try {
    api = await ensureApi(config);
    await pullAndBuild(config);
  } catch (err) {
    console.error(`\nBuild failed: ${err instanceof Error ? err.message : String(err)}`);
    process.exitCode = 1;
  } finally {
    await api?.close();
  }
}
