/** `npm run rollback`: serve the previous release again (swaps `current` and `previous` of RELEASES_DIR). */
import { readlink } from 'node:fs/promises';
import { join } from 'node:path';
import { releasesDir, swapLink } from './rebuild.ts';

const dir = releasesDir();
const [current, previous] = await Promise.all(['current', 'previous'].map((l) => readlink(join(dir, l)).catch(() => null)));
if (!previous) {
  console.error(`No previous release in ${dir} to roll back to.`);
  process.exit(1);
}
await swapLink(join(dir, 'current'), previous);
if (current) await swapLink(join(dir, 'previous'), current);
console.log(`Rolled back: now serving ${previous} (was ${current ?? 'nothing'}).`);
