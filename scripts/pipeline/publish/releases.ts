/**
 * The releases folder (RELEASES_DIR) and how a release is published in it: the `current`/`previous` symlinks,
 * pruning, and the swap together with the web server's policy (./policy.ts). The run lock is ./lock.ts, making
 * a release durable ./durable-files.ts. `rebuild` and `rollback` share it.
 *
 * Layout: rebuild.lock (held for a whole run), staging/ (being built; its name stays the same from run
 * to run because Astro's incremental cache is keyed on the output folder, and the lock makes it one run's),
 * staging-files.json and staging-changes.json (its file list and changes record, written by the build: ./release-changes.ts), staging-release/ with staging-release.files.json (an
 * old release the new one is made in: setAsideOldRelease),
 * <id>/ (published releases), current -> <id>, previous -> <id>, policy-loaded.txt (the
 * Content-Security-Policy the web server was last given: a record, which nothing of root's reads), reports/.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readdir, readFile, readlink, rename, rm, symlink } from 'node:fs/promises';
import { readText } from '../../../src/content/read-text.ts';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { readMachineSettings } from '../../../src/config.ts';
import { FILE_CONCURRENCY, listFiles, mapLimit } from '../../lib/files.ts';
import { STEP_REPORT } from '../child-step.ts';
import { CSP_FILE } from '../finish/csp.ts';
import { sha256 } from '../finish/precompress.ts';
import { fsyncPath } from './durable-files.ts';
import { releaseChangesPath } from './release-changes.ts';
import { LOADED_POLICY_FILE, loadPolicy, readLoadedPolicy, releasePolicy, unionPolicy } from './policy.ts';

export const RELEASES_KEPT = 3;
/** Exit code of a publishing command started without its required settings. */
export const CONFIG_EXIT = 2;

export function releasesDir(): string {
  return resolve(readMachineSettings().releasesDir);
}

export const fileHashesPath = (dir: string, id: string) => join(dir, 'reports', `${id}.files.json`);

/** The file list of the release being built (the build writes it, the publish renames it to `fileHashesPath`). */
export const stagingFileHashesPath = (dir: string) => join(dir, 'staging-files.json');

/** Reports name internal addresses and errors: the service's user and group may read them, nobody else. */
export const REPORT_MODE = 0o640;

/**
 * The file hashes of a published release (its folder), by site path: from its list, or (a release from before the
 * lists, or whose list cannot be read) by reading it.
 */
export async function releaseFileHashes(release: string): Promise<Record<string, string>> {
  try {
    const list = JSON.parse(await readText(fileHashesPath(dirname(release), basename(release)))) as unknown;
    if (list && typeof list === 'object' && !Array.isArray(list)) return list as Record<string, string>;
  } catch {
    // Read from the release below.
  }
  if (!existsSync(release)) return {};
  const files = listFiles(release).sort();
  const hashes = await mapLimit(files, FILE_CONCURRENCY, async (p) => sha256(await readFile(p)));
  return Object.fromEntries(files.map((p, i) => [`/${relative(release, p)}`, hashes[i]!]));
}

/**
 * What builds left in the releases folder: the staging folder (of a build that failed or a run that died;
 * a published build was renamed to its id), the other `staging-` files and folders (its file list, an old release
 * set aside and its list) and step report files (./child-step.ts; under the lock, one
 * that is not this process's is an earlier run's). Safe only while holding the lock. The rebuild calls
 * it when it takes the lock and again before it releases it, so a build that filled the disk does not
 * keep it full until the next run. Never throws: what cannot be removed is said, and the run goes on.
 */
export async function removeStaleStaging(dir: string): Promise<void> {
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  for (const e of entries) {
    const report = STEP_REPORT.exec(e.name);
    const stale = e.name === 'staging' || e.name.startsWith('staging-') || (!e.isDirectory() && report !== null && Number(report[1]) !== process.pid);
    if (!stale) continue;
    await (e.isDirectory() ? removeIdly(join(dir, e.name)) : rm(join(dir, e.name), { force: true })).catch((error: unknown) =>
      console.warn(`rebuild: could not remove ${join(dir, e.name)}: ${error instanceof Error ? error.message : String(error)}`),
    );
  }
}

// ---------------------------------------------------------------------------------------------
// Symlinks and pruning

export async function linkTarget(path: string): Promise<string | null> {
  try {
    return await readlink(path);
  } catch {
    return null;
  }
}

/** Points `link` at `target` in one rename, so readers see the old or the new release, never neither. */
export async function swapLink(path: string, target: string): Promise<void> {
  const tmp = `${path}.tmp-${process.pid}`;
  await rm(tmp, { force: true });
  await symlink(target, tmp);
  await rename(tmp, path);
}

/**
 * Removes a folder at the lowest CPU priority (`nice rm -rf`, coreutils), so that beside a build it takes
 * only the time the build leaves: unlinking some 35,000 files is seconds of kernel time. Where that is
 * not available, Node removes it.
 */
async function removeIdly(path: string): Promise<void> {
  const removed = await new Promise<boolean>((ok) => execFile('nice', ['-n', '19', 'rm', '-rf', '--', path], (err) => ok(!err)));
  if (!removed) await rm(path, { recursive: true, force: true });
}

/**
 * Removes all but the `kept` newest releases, never those in `keep`. The rebuild runs it beside its
 * build, keeping one fewer than RELEASES_KEPT for the release being built: removing a release of some
 * 35,000 files took 6 seconds after the publish.
 */
export async function pruneReleases(dir: string, keep: (string | null)[], kept = RELEASES_KEPT): Promise<void> {
  for (const old of await releasesToPrune(dir, keep, kept)) {
    await removeIdly(join(dir, old));
    await rm(fileHashesPath(dir, old), { force: true });
    await rm(releaseChangesPath(dir, old), { force: true });
  }
}

/** The releases pruneReleases would remove, newest first. */
async function releasesToPrune(dir: string, keep: (string | null)[], kept: number): Promise<string[]> {
  const releases = (await readdir(dir, { withFileTypes: true }))
    .filter((e) => e.isDirectory() && /^\d{8}T\d{6}Z$/.test(e.name))
    .map((e) => e.name)
    .sort()
    .reverse();
  return releases.slice(kept).filter((old) => !keep.includes(old));
}

/** An old release set aside for the next one to be made in: its folder, its id and its file list. */
export interface SetAside {
  root: string;
  id: string;
  files: string;
}

/**
 * Sets aside the newest release that pruning would remove (never one in `keep`: the served release and the one
 * kept to roll back to), with its file list, as `staging-release`: the next release is made in it, writing
 * only the files that differ. A release without its file list is not taken (its files are not known without
 * reading them all). Null when there is none. removeStaleStaging removes what a failed build leaves of it.
 */
export async function setAsideOldRelease(dir: string, keep: (string | null)[], kept = RELEASES_KEPT): Promise<SetAside | null> {
  const [newest] = await releasesToPrune(dir, keep, kept);
  if (!newest) return null;
  const aside = { root: join(dir, 'staging-release'), id: newest, files: join(dir, 'staging-release.files.json') };
  // What an earlier run could not remove stays in the way: this release is made anew, and the old one pruned as usual.
  if (existsSync(aside.root) || existsSync(aside.files)) return null;
  const list = fileHashesPath(dir, newest);
  try {
    // The file list first: a release without one is pruned as any other.
    await rename(list, aside.files);
  } catch {
    return null;
  }
  try {
    await rename(join(dir, newest), aside.root);
  } catch {
    await rename(aside.files, list).catch(() => undefined);
    return null;
  }
  // The release becomes the new one, under a new id: what it changed of its own predecessor is no one's now.
  await rm(releaseChangesPath(dir, newest), { force: true });
  return aside;
}

// ---------------------------------------------------------------------------------------------
// Publishing a release together with its Content-Security-Policy (./policy.ts)

/** A failure while publishing that says whether visitors now get the new release. */
export class PublishError extends Error {
  /** `current` points at the new release. */
  readonly published: boolean;
  constructor(message: string, published: boolean) {
    super(message);
    this.published = published;
  }
}

/**
 * Makes release `id` the one served (`current`), with `previousId` as `previous`, and the web
 * server's policy (POLICY_COMMAND, recorded in RELEASES_DIR/policy-loaded.txt) that of `id`, with no moment in which
 * served pages are refused their scripts: first a policy allowing both the served release's
 * scripts and the new one's is loaded, then the symlink swaps, then the new release's own policy
 * is loaded. A failed load puts the record back to what the web server has loaded, so that the
 * next run sees the difference and loads again.
 *
 * Throws PublishError with `published: false` when nothing changed for visitors. Returns a
 * PublishError with `published: true` (the release is served, under the union policy) when only
 * the last step failed: the caller finishes its bookkeeping, then reports it.
 */
export async function publishRelease(dir: string, id: string, previousId: string | null): Promise<PublishError | null> {
  const record = join(dir, LOADED_POLICY_FILE);
  const loaded = await readLoadedPolicy(record);
  const next = await releasePolicy(dir, id);
  const served = await releasePolicy(dir, await linkTarget(join(dir, 'current')));
  const swap = async () => {
    await swapLink(join(dir, 'current'), id);
    if (previousId && previousId !== id) await swapLink(join(dir, 'previous'), previousId);
    // The release's rename into RELEASES_DIR and the new links are entries of this folder: make them durable too.
    await fsyncPath(dir);
  };
  // Every finished release carries its policy: one without it would be served under another's and have its scripts refused.
  if (!next) throw new PublishError(`release ${id} has no ${CSP_FILE}, so it was never finished: not published`, false);
  const own = next;
  const during = served ? unionPolicy(served, next) : own;
  if (during !== loaded) {
    const failed = await loadPolicy(record, during, loaded);
    if (failed) throw new PublishError(`${failed}; release ${id} was not published and the web server's policy is unchanged`, false);
  }
  await swap();
  if (own === during) return null;
  const failed = await loadPolicy(record, own, during);
  return failed
    ? new PublishError(
        `${failed}; release ${id} IS published and served under a policy that allows ` +
          `both its scripts and the previous release's, but its own policy is not applied (the next rebuild or rollback retries it)`,
        true,
      )
    : null;
}

/**
 * When the web server's policy (as recorded) is not the served release's own, because a load failed after an
 * earlier publish, applies it again. A run that finds nothing to build calls this, so a failed reload is
 * retried by the next run whatever it finds. Returns a PublishError (the release stays served) when the
 * load fails again; the record then says again what the server has loaded.
 */
export async function reapplyServedPolicy(dir: string): Promise<PublishError | null> {
  const id = await linkTarget(join(dir, 'current'));
  const policy = await releasePolicy(dir, id);
  if (!id || !policy) return null;
  const record = join(dir, LOADED_POLICY_FILE);
  const loaded = await readLoadedPolicy(record);
  if (loaded === policy) return null;
  const failed = await loadPolicy(record, policy, loaded);
  return failed ? new PublishError(`${failed}; release ${id} is served, but its own policy is still not applied (the next rebuild or rollback retries it)`, true) : null;
}
