/** `npm run dev`: pull once, then Astro's dev server against the same API (kept running for the islands). */
import { dev } from 'astro';
import { readConfig } from '../src/config.ts';
import { pullContent } from '../src/content/pull.ts';
import { ensureApi } from './lib/api.ts';

// A public-sector build sends nothing home.
process.env.ASTRO_TELEMETRY_DISABLED ??= '1';

const config = readConfig();
try {
  await ensureApi(config);
  await pullContent(config);
  await dev({});
} catch (err) {
  console.error(`\nDev server failed: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
}
