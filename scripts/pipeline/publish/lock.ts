/**
 * The run lock of a releases folder (RELEASES_DIR/rebuild.lock): one rebuild or rollback at a time, held for a
 * whole run. A lock whose process has died on this machine is taken over.
 */
import { link, open, readFile, rename, rm } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';

export const LOCK_FILE = 'rebuild.lock';
/** Exit code of a run that found another one holding the lock (EX_TEMPFAIL: try again later). */
export const LOCK_BUSY_EXIT = 75;

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
