/**
 * `npm run dev`: pull once (content and pictures), then Astro's dev server against the same API (kept
 * running for the islands); the drawn pictures are served from PICTURE_DIR (astro.config.mjs).
 */
import { dev } from 'astro';
import { readConfig } from '../src/config.ts';
import { ensureApi } from './lib/ensure-api.ts';
import { pullStep } from './pipeline/pull/pull-step.ts';

// A public-sector build sends nothing home.
process.env.ASTRO_TELEMETRY_DISABLED ??= '1';

const config = readConfig();
try {
  await ensureApi(config);
  await pullStep(config, 'all');
  await dev({});
} catch (err) {
  console.error(`\nDev server failed: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
}
