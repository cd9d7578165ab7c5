/**
 * The releases folder (RELEASES_DIR) and how a release is published in it:
 * the run lock, durable files, the `current`/`previous` symlinks, pruning, and
 * the web server's Content-Security-Policy. `rebuild` and `rollback` share it.
 *
 * Layout: rebuild.lock (held for a whole run), staging/ (being built; its name stays the same from run
 * to run because Astro's incremental cache is keyed on the output folder, and the lock makes it one run's),
 * <id>/ (published releases), current -> <id>, previous -> <id>, policy-loaded.txt (the
 * Content-Security-Policy the web server was last given: a record, which nothing of root's reads), reports/.
 */
import { execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { hostname } from 'node:os';
import { link, open, readdir, readFile, readlink, rename, rm, symlink, unlink } from 'node:fs/promises';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import { STEP_REPORT } from '../child-step.ts';
import { checkedPolicy, CSP_FILE } from '../finish/csp.ts';
import { FILE_CONCURRENCY, listFiles, mapLimit, writeFileDurably } from '../../lib/files.ts';
import { sha256 } from '../finish/precompress.ts';
import { readMachineSettings, RETIRED_RELOAD_COMMAND } from '../../../src/config.ts';

export const RELEASES_KEPT = 3;
export const LOCK_FILE = 'rebuild.lock';
/** Exit code of a run that found another one holding the lock (EX_TEMPFAIL: try again later). */
export const LOCK_BUSY_EXIT = 75;
/** Exit code of a publishing command started without its required settings. */
export const CONFIG_EXIT = 2;

export function releasesDir(): string {
  return resolve(readMachineSettings().releasesDir);
}

export const fileHashesPath = (dir: string, id: string) => join(dir, 'reports', `${id}.files.json`);

/** The file hashes of a published release (its folder): from its manifest, or (a release from before manifests) by reading it. */
export async function releaseFileHashes(release: string): Promise<Map<string, string>> {
  try {
    const manifest = await readFile(fileHashesPath(dirname(release), basename(release)), 'utf8');
    return new Map(Object.entries(JSON.parse(manifest) as Record<string, string>));
  } catch {
    if (!existsSync(release)) return new Map();
    const files = (await listFiles(release)).sort();
    const hashes = await mapLimit(files, FILE_CONCURRENCY, async (p) => sha256(await readFile(p)));
    return new Map(files.map((p, i) => [`/${relative(release, p)}`, hashes[i]!]));
  }
}

// ---------------------------------------------------------------------------------------------
// The lock

export interface LockInfo {
  pid: number;
  host: string;
  startedAt: string;
}

export class LockBusyError extends Error {
  readonly lockFile: string;
  readonly holder: LockInfo | null;
  constructor(lockFile: string, holder: LockInfo | null) {
    super(
      `another rebuild is running (${holder ? `pid ${holder.pid} on ${holder.host}, since ${holder.startedAt}` : 'lock holder unknown'}; ` +
        `lock ${lockFile}). Nothing was done; run again later, or with --wait to wait for it.`,
    );
    this.lockFile = lockFile;
    this.holder = holder;
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function readLock(file: string): Promise<LockInfo | null> {
  try {
    const info = JSON.parse(await readFile(file, 'utf8')) as LockInfo;
    return Number.isInteger(info.pid) ? info : null;
  } catch {
    return null;
  }
}

/** A lock left by a process of this machine that no longer exists. A lock that cannot be read yet is being written. */
const isStale = (info: LockInfo | null) => info !== null && info.host === hostname() && !alive(info.pid);

export interface Lock {
  file: string;
  release(): Promise<void>;
}

/**
 * Takes the exclusive lock of a releases folder for a whole rebuild: a file created with `wx`
 * holding pid, host and start time. Held by a live process: throws LockBusyError, or with
 * `wait` polls until it is free (or `signal` aborts). Held by a dead process of this machine:
 * taken over, with a line to `log`.
 */
export async function acquireLock(dir: string, options: { wait?: boolean; signal?: AbortSignal; log?: (line: string) => void; pollMs?: number } = {}): Promise<Lock> {
  const file = join(dir, LOCK_FILE);
  const info: LockInfo = { pid: process.pid, host: hostname(), startedAt: new Date().toISOString() };
  let told = false;
  for (;;) {
    options.signal?.throwIfAborted();
    try {
      const handle = await open(file, 'wx');
      try {
        await handle.writeFile(JSON.stringify(info));
        await handle.sync();
      } finally {
        await handle.close();
      }
      return {
        file,
        release: async () => {
          // Only our own lock: never remove one a later run took over.
          if ((await readLock(file))?.pid === process.pid) await rm(file, { force: true });
        },
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const holder = await readLock(file);
    if (isStale(holder)) {
      // Move the stale lock aside (only one contender's rename succeeds), then check that what
      // moved is the stale lock and not one a faster contender has just created.
      const aside = `${file}.stale-${process.pid}`;
      try {
        await rename(file, aside);
        const moved = await readLock(aside);
        if (moved?.pid === holder!.pid && moved.startedAt === holder!.startedAt) {
          options.log?.(`rebuild: taking over the stale lock of pid ${holder!.pid} (since ${holder!.startedAt}), which no longer runs`);
          await rm(aside, { force: true });
        } else {
          await link(aside, file).catch(() => undefined);
          await rm(aside, { force: true });
        }
      } catch {
        // Someone else moved it first: try again.
      }
      continue;
    }
    if (!options.wait) throw new LockBusyError(file, holder);
    if (!told) options.log?.(`rebuild: waiting for the running rebuild (pid ${holder?.pid ?? '?'}) to finish`);
    told = true;
    await new Promise((r) => setTimeout(r, options.pollMs ?? 1000));
  }
}

/**
 * What builds left in the releases folder: the staging folder (of a build that failed or a run that died;
 * a published build was renamed to its id) and step report files (./child-step.ts; under the lock, one
 * that is not this process's is an earlier run's). Safe only while holding the lock. The rebuild calls
 * it when it takes the lock and again before it releases it, so a build that filled the disk does not
 * keep it full until the next run. Never throws: what cannot be removed is said, and the run goes on.
 */
export async function removeStaleStaging(dir: string): Promise<void> {
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  for (const e of entries) {
    const report = STEP_REPORT.exec(e.name);
    const stale = e.isDirectory() ? e.name === 'staging' || e.name.startsWith('staging-') : report !== null && Number(report[1]) !== process.pid;
    if (!stale) continue;
    await (e.isDirectory() ? removeIdly(join(dir, e.name)) : rm(join(dir, e.name), { force: true })).catch((error: unknown) =>
      console.warn(`rebuild: could not remove ${join(dir, e.name)}: ${error instanceof Error ? error.message : String(error)}`),
    );
  }
}

// ---------------------------------------------------------------------------------------------
// Durable files

/** How many fsyncs run at once: each waits on the disk, so a few in flight keep it busy without flooding libuv. */
const SYNC_CONCURRENCY = 16;

async function fsyncPath(path: string): Promise<void> {
  const handle = await open(path, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/**
 * Makes a staging tree durable before it is published: one `syncfs` of its
 * file system (`sync -f`, coreutils) flushes every file and folder written, in
 * one call instead of one fsync for each of some 50,000 files and folders of a
 * large site. Where that is not available, each file and folder is synced.
 */
export async function syncTree(root: string, files: readonly string[]): Promise<void> {
  const synced = await new Promise<boolean>((ok) => execFile('sync', ['-f', root], (err) => ok(!err)));
  if (!synced) await syncFiles(files);
}

/**
 * Writes what a build has written so far to disk while it runs (`sync -f` every few seconds, one at a
 * time), so that syncTree before the publish finds little left to flush: at 2,500 posts per language a
 * new post writes some 700 MB, which took the publish 6 to 7 seconds when flushed only then. Returns
 * the function that stops it.
 */
export function flushWhileBuilding(root: string, everyMs = 3000): () => Promise<void> {
  let running: Promise<void> | null = null;
  const flush = () => {
    running ??= new Promise<void>((ok) => execFile('sync', ['-f', root], () => ok())).finally(() => (running = null));
  };
  const timer = setInterval(flush, everyMs);
  return async () => {
    clearInterval(timer);
    await running;
  };
}

/**
 * Makes `files` and the directories that hold them (up to their common folder) durable, so that a
 * power loss after the symlink swap cannot leave `current` pointing at empty or missing files.
 */
export async function syncFiles(files: readonly string[]): Promise<void> {
  if (!files.length) return;
  await mapLimit(files, SYNC_CONCURRENCY, fsyncPath);
  const common = files
    .map((f) => dirname(resolve(f)))
    .reduce((a, b) => {
      while (a !== b && !b.startsWith(a.endsWith(sep) ? a : a + sep)) a = dirname(a);
      return a;
    });
  const dirs = new Set<string>();
  for (const f of files) {
    for (let d = dirname(resolve(f)); !dirs.has(d); d = dirname(d)) {
      dirs.add(d);
      if (d === common || d === dirname(d)) break;
    }
  }
  await mapLimit([...dirs], SYNC_CONCURRENCY, fsyncPath);
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
  const releases = (await readdir(dir, { withFileTypes: true }))
    .filter((e) => e.isDirectory() && /^\d{8}T\d{6}Z$/.test(e.name))
    .map((e) => e.name)
    .sort()
    .reverse();
  for (const old of releases.slice(kept)) {
    if (keep.includes(old)) continue;
    await removeIdly(join(dir, old));
    await rm(fileHashesPath(dir, old), { force: true });
  }
}

// ---------------------------------------------------------------------------------------------
// Publishing a release together with its Content-Security-Policy

/** A failure while publishing that says whether visitors now get the new release. */
export class PublishError extends Error {
  /** `current` points at the new release. */
  readonly published: boolean;
  constructor(message: string, published: boolean) {
    super(message);
    this.published = published;
  }
}

/** The policy of release `id`, or null when there is no such release or it has none (it was never finished). */
async function releasePolicy(dir: string, id: string | null): Promise<string | null> {
  if (!id) return null;
  const text = (await readFile(join(dir, id, CSP_FILE), 'utf8').catch(() => '')).trim();
  return text || null;
}

/** A policy allowing everything either policy allows: the sources of each directive, united. */
export function unionPolicy(a: string, b: string): string {
  const directives = new Map<string, string[]>();
  for (const policy of [a, b]) {
    for (const part of policy.split(';')) {
      const [name, ...sources] = part.trim().split(/\s+/);
      if (!name) continue;
      const list = directives.get(name) ?? [];
      for (const s of sources) if (!list.includes(s)) list.push(s);
      directives.set(name, list);
    }
  }
  return [...directives].map(([name, sources]) => [name, ...sources].join(' ')).join('; ');
}

/** The record of the policy the web server was last given (RELEASES_DIR/policy-loaded.txt). */
export const LOADED_POLICY_FILE = 'policy-loaded.txt';

/**
 * Hands `policy` to the web server: POLICY_COMMAND with the policy on its standard input, one line (in
 * production `sudo -n /usr/local/sbin/hokimiyat-load-policy <district>`, deploy/hokimiyat-load-policy, which
 * checks it and reloads nginx as root). Without POLICY_COMMAND the policy is only recorded.
 */
function runPolicyCommand(policy: string): Promise<void> {
  const command = process.env.POLICY_COMMAND?.trim();
  if (!command) return process.env.RELOAD_COMMAND?.trim() ? Promise.reject(new Error(RETIRED_RELOAD_COMMAND)) : Promise.resolve();
  return new Promise((ok, fail) => {
    const child = spawn(command, { shell: true, stdio: ['pipe', 'inherit', 'inherit'] });
    // A command that does not read its input must not make this fail with EPIPE: its exit status says it all.
    child.stdin.on('error', () => undefined);
    child.stdin.end(`${policy}\n`);
    child.on('error', fail).on('exit', (code, signal) => (code === 0 ? ok() : fail(new Error(`POLICY_COMMAND (${command}) exited with ${signal ?? code}`))));
  });
}

async function restore(file: string, snapshot: string | null): Promise<void> {
  if (snapshot === null) await unlink(file).catch(() => undefined);
  else await writeFileDurably(file, snapshot);
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

const readLoadedPolicy = async (record: string) => (await readFile(record, 'utf8').catch(() => null))?.trim() ?? null;

/**
 * Records `policy` and has the web server load it. On failure the record is put back to `loaded`, what the
 * server still has, so that the next run sees the difference; returns why it failed. A policy the web
 * server's helper would refuse is not sent.
 */
async function loadPolicy(record: string, policy: string, loaded: string | null): Promise<string | null> {
  try {
    checkedPolicy(policy);
    await writeFileDurably(record, `${policy}\n`);
    await runPolicyCommand(policy);
    return null;
  } catch (error) {
    await restore(record, loaded === null ? null : `${loaded}\n`);
    return error instanceof Error ? error.message : String(error);
  }
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
