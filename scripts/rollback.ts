/**
 * `npm run rollback`: serve the previous release again (swaps `current` and `previous` of
 * RELEASES_DIR), with its own Content-Security-Policy applied the way a rebuild applies a new
 * release's (./lib/releases.ts, publishRelease), under the same lock as rebuilds.
 */
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { diffByKey } from './lib/hash-diff.ts';
import { purgeEdge } from './pipeline/purge/purge-step.ts';
import { acquireLock, LOCK_BUSY_EXIT, LockBusyError } from './pipeline/publish/lock.ts';
import { linkTarget, PublishError, publishRelease, releaseFileHashes, releasesDir } from './pipeline/publish/releases.ts';

const dir = releasesDir();
const fail = (message: string, code = 1): never => {
  console.error(message);
  process.exit(code);
};

let options = { wait: false };
try {
  options = parseArgs({ options: { wait: { type: 'boolean', default: false } } }).values;
} catch (error) {
  fail(`Rollback not done: ${error instanceof Error ? error.message : String(error)}`, 2);
}

let lock;
try {
  lock = await acquireLock(dir, { wait: options.wait, log: (l) => console.log(l) });
} catch (error) {
  if (error instanceof LockBusyError) fail(`Rollback not done: ${error.message}`, LOCK_BUSY_EXIT);
  throw error;
}
try {
  const [current, previous] = await Promise.all(['current', 'previous'].map((l) => linkTarget(join(dir, l))));
  if (!previous) fail(`No previous release in ${dir} to roll back to.`);
  const problem = await publishRelease(dir, previous!, current ?? null);
  if (problem) fail(`Rolled back to ${previous} with a problem: ${problem.message}`);
  console.log(`Rolled back: now serving ${previous} (was ${current ?? 'nothing'}), with its own Content-Security-Policy.`);
  // The edge holds copies of the release rolled back from: every path that differs between the two is purged.
  const hashesOf = (id: string | null | undefined) => (id ? releaseFileHashes(join(dir, id)) : Promise.resolve({}));
  const { added, changed, removed } = diffByKey(await hashesOf(current), await hashesOf(previous!));
  const purge = await purgeEdge(dir, [...added, ...changed, ...removed]);
  if (purge.error) fail(`Rolled back to ${previous}, but the edge did not take the purge of ${purge.paths} paths (${purge.error}); the next rebuild or rollback sends it again.`);
} catch (error) {
  if (error instanceof PublishError) fail(`Rollback failed, still serving the same release: ${error.message}`);
  throw error;
} finally {
  await lock.release();
}
