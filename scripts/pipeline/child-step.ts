/**
 * A step of the rebuild in a child process of its own (`node <args>`), so that
 * it can be stopped, and the memory it took is the system's again when it
 * ends. It reports through a JSON file named by an environment variable.
 *
 * The step ends with the rebuild that started it, even one killed with SIGKILL: the step's process has
 * an IPC channel to the rebuild and preloads this module, which ends it when the channel closes.
 * Otherwise a killed rebuild left its build writing into staging/, under the next run's lock.
 */
import { spawn } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { rm, stat, statfs } from 'node:fs/promises';
import { readText } from '../../src/content/read-text.ts';
import { dirname, join, resolve } from 'node:path';
import { readConfig, readMachineSettings } from '../../src/config.ts';

/** Set in a step's environment to the step's name; see the end-with-the-rebuild note above. */
const STEP_VAR = 'REBUILD_STEP';

if (process.env[STEP_VAR] && process.channel) {
  process.on('disconnect', () => {
    console.error(`${process.env[STEP_VAR]}: the rebuild that started this step has ended; stopping`);
    process.exit(1);
  });
  // Listening must not keep the step's process alive once its work is done.
  process.channel.unref();
}

/** A step's report: a file of RELEASES_DIR named after the step and the rebuild's pid. */
const stepReportFile = (step: string) => join(resolve(readMachineSettings().releasesDir), `${step}.${process.pid}.json`);
/**
 * The name of a step's report file, or of the temporary it is written to first (scripts/lib/replace-file.ts);
 * the pid is its rebuild's (removeStaleStaging in ./releases.ts removes those of earlier runs).
 */
export const STEP_REPORT = /^[a-z][a-z-]*\.(\d+)\.json(?:\.tmp-[\d-]+)?$/;

/** A step that ran out of the heap it was given (`heapMb`): V8 aborts the process, or fails the thread that did. */
export class HeapExhaustedError extends Error {
  readonly heapMb: number;
  constructor(step: string, heapMb: number) {
    super(`the ${step} ran out of its heap limit of ${heapMb} MB`);
    this.heapMb = heapMb;
  }
}

/**
 * Runs `run` within `heapMb` (null: no limit); when the step runs out of it, warns and runs it once more
 * without one (`retry` true), so that a limit set too low costs time, never a publication.
 */
export async function withHeapFallback<T>(
  heapMb: number | null,
  run: (attempt: { heapMb: number | null; retry: boolean }) => Promise<T>,
  warn: (line: string) => void = console.warn,
): Promise<T> {
  try {
    return await run({ heapMb, retry: false });
  } catch (error) {
    if (!(error instanceof HeapExhaustedError)) throw error;
    warn(
      `warning: ${error.message} (BUILD_HEAP_MB); running it again without a limit. This site needs more: raise BUILD_HEAP_MB ` +
        '(the peak memory of the build grows with it), or set it to 0.',
    );
    return run({ heapMb: null, retry: true });
  }
}

/** How V8 ends a worker thread that reached its limit (ERR_WORKER_OUT_OF_MEMORY). */
const HEAP_EXHAUSTED = /\bout of memory\b|\bheap limit\b/i;

/**
 * Runs one step of the rebuild as `node <args>` in a child process, so that it can be stopped and the
 * memory it took is the system's again when it ends, and returns the JSON it wrote to the file named by
 * `reportVar`. A step that fails writes `{ "error": message }` there, which is thrown here; a step that
 * could not write it (a full disk leaves it empty) is explained from its exit and the disks' free space.
 * The report file is removed whatever happens. `heapMb` limits the step's heap (V8's old space, in each of
 * its threads); a step that runs out of it throws HeapExhaustedError.
 */
export function runStep<T>(step: string, args: string[], reportVar: string, env: NodeJS.ProcessEnv, signal?: AbortSignal, heapMb: number | null = null): Promise<T> {
  const reportFile = stepReportFile(step);
  let aborted = false;
  return new Promise<void>((ok, fail) => {
    // A file a crashed run with the same pid left must not pass for this step's report.
    rmSync(reportFile, { force: true });
    if (signal?.aborted) return fail(new Error('rebuild aborted'));
    const heap = heapMb ? [`--max-old-space-size=${heapMb}`] : [];
    const child = spawn(process.execPath, [...heap, '--import', import.meta.url, ...args], {
      env: { ...process.env, ...env, [reportVar]: reportFile, [STEP_VAR]: step },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    const abort = () => child.kill('SIGTERM');
    signal?.addEventListener('abort', abort, { once: true });
    child.on('error', fail);
    child.on('exit', (code, sig) => {
      signal?.removeEventListener('abort', abort);
      if (signal?.aborted) fail(new Error('rebuild aborted'));
      else if (code === 0) ok();
      else {
        // V8 aborts a process whose heap is full (after "FATAL ERROR: … JavaScript heap out of memory").
        aborted = sig === 'SIGABRT';
        fail(new Error(`the ${step} failed (${sig ? `signal ${sig}` : `exit code ${code}`})`));
      }
    });
  })
    .then(
      () => undefined,
      (error: Error) => error,
    )
    .then(async (failure) => {
      const report = await readReport(reportFile).finally(() => rm(reportFile, { force: true }).catch(() => undefined));
      if (signal?.aborted) throw failure ?? new Error('rebuild aborted');
      if ('json' in report && !failure) return report.json as T;
      if (heapMb && (aborted || ('error' in report && HEAP_EXHAUSTED.test(report.error)))) throw new HeapExhaustedError(step, heapMb);
      // A step that could not write its report most often found the disk full: explainFullDisk says so.
      if ('error' in report) throw new Error(await explainFullDisk(report.error));
      const unreadable = 'unreadable' in report ? `its report ${reportFile} ${report.unreadable}` : null;
      const why = failure ? `${failure.message}${unreadable ? `, and ${unreadable}` : ''}` : `the ${step} ended, but ${unreadable ?? 'without its report'}`;
      throw new Error(await explainFullDisk(why));
    });
}

type StepReport = { json: unknown } | { error: string } | { unreadable: string } | { missing: true };

/** What a step left in its report file: its JSON, its error, or why it cannot be read. */
async function readReport(file: string): Promise<StepReport> {
  let text: string;
  try {
    text = await readText(file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === 'ENOENT' ? { missing: true } : { unreadable: `could not be read: ${(error as Error).message}` };
  }
  if (!text.trim()) return { unreadable: 'is empty' };
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return { unreadable: `is not JSON (${(error as Error).message}; ${text.length} bytes)` };
  }
  if (json && typeof json === 'object' && 'error' in json) return { error: String(json.error) };
  return { json };
}

// ---------------------------------------------------------------------------------------------
// A full disk

/** Less than this free on a disk the rebuild writes to is a full disk: one build writes hundreds of MB. */
const FULL_DISK_BYTES = 64 * 1024 * 1024;
/** As few free inodes (files) as this is a full disk too: a release is some 35,000 files. */
const FULL_DISK_INODES = 1000;
const NO_SPACE = /\bENOSPC\b|\bEDQUOT\b|no space left on device|quota exceeded/i;

export interface DiskSpace {
  /** The settings whose folders are on this disk, e.g. `RELEASES_DIR (/srv/site/releases)`. */
  folders: string[];
  freeBytes: number;
  freeInodes: number;
}

/** The folders a rebuild writes to, by the setting that names them. */
function rebuildFolders(): [string, string][] {
  const machine = readMachineSettings();
  const folders: [string, string | undefined][] = [
    ['RELEASES_DIR', machine.releasesDir],
    ['CONTENT_DIR', readConfig().contentDir],
    ['PICTURE_DIR', machine.pictureDir],
    ['DOCUMENT_DIR', machine.documentDir],
    ['ASTRO_CACHE_DIR', machine.astroCacheDir],
    ['COMPRESS_CACHE_DIR', machine.compressCacheDir],
    // Astro writes into the project too (.astro/, node_modules/.vite/), as do the caches' defaults (.cache/).
    ['the project folder', '.'],
  ];
  return folders.filter((f): f is [string, string] => Boolean(f[1])).map(([name, path]) => [name, resolve(path)]);
}

/** The free space of the disks of the rebuild's folders (one not made yet: its nearest existing parent's), one entry per disk. */
async function diskSpace(): Promise<DiskSpace[]> {
  const disks = new Map<number, DiskSpace>();
  for (const [name, path] of rebuildFolders()) {
    let existing = path;
    while (!existsSync(existing) && dirname(existing) !== existing) existing = dirname(existing);
    try {
      const { dev } = await stat(existing);
      let disk = disks.get(dev);
      if (!disk) {
        const fs = await statfs(existing);
        // A file system without a fixed number of inodes (btrfs) says it has none.
        disk = { folders: [], freeBytes: fs.bavail * fs.bsize, freeInodes: fs.files > 0 ? fs.ffree : Infinity };
        disks.set(dev, disk);
      }
      disk.folders.push(`${name} (${path})`);
    } catch {
      // A folder that cannot be looked at says nothing about space.
    }
  }
  return [...disks.values()];
}

const size = (bytes: number) =>
  bytes < 1024 * 1024 ? `${Math.round(bytes / 1024)} KB` : bytes < 1024 ** 3 ? `${Math.round(bytes / 1024 / 1024)} MB` : `${(bytes / 1024 ** 3).toFixed(1)} GB`;

const isFull = (d: DiskSpace) => d.freeBytes < FULL_DISK_BYTES || d.freeInodes < FULL_DISK_INODES;

const describeDisk = (d: DiskSpace) =>
  `${d.folders.join(', ')} ${d.folders.length > 1 ? 'are' : 'is'} on a disk with ${size(d.freeBytes)}` +
  `${d.freeInodes < FULL_DISK_INODES ? ` and ${d.freeInodes} file entries (inodes)` : ''} free`;

const WHAT_TO_DO =
  'Free space there, then run the rebuild again: releases in RELEASES_DIR other than those `current` and `previous` point to ' +
  'can be removed, and ASTRO_CACHE_DIR and COMPRESS_CACHE_DIR emptied (the next build is then slower).';

/**
 * Says in plain words that a disk is full, which one and what to do, or returns null when it is not
 * that: when `error` (a step's or an operation's message) names a full disk (ENOSPC, EDQUOT), or, without
 * an error that does, when a disk the rebuild writes to is nearly full.
 */
export function noSpaceMessage(disks: DiskSpace[], error?: string): string | null {
  const said = error !== undefined && NO_SPACE.test(error);
  const full = disks.filter(isFull);
  if (full.length) return `the disk is full: ${full.map(describeDisk).join('; ')}${said ? ` (${error})` : ''}. ${WHAT_TO_DO}`;
  if (!said) return null;
  // The build's own files may have been removed since: the disk has room again, for now.
  const now = disks.length ? ` Now ${disks.map(describeDisk).join('; ')}.` : '';
  return `a disk was full (${error}).${now} ${WHAT_TO_DO}`;
}

/**
 * `message` (why a step or an operation of the rebuild failed), said plainly when a disk the rebuild writes to
 * (RELEASES_DIR, CONTENT_DIR, PICTURE_DIR, the caches, the project) is full or the message says it was (ENOSPC),
 * with which disk and what to free; otherwise `message` as it is.
 */
async function explainFullDisk(message: string): Promise<string> {
  const full = noSpaceMessage(await diskSpace(), message);
  if (!full) return message;
  return NO_SPACE.test(message) ? full : `${message}: ${full}`;
}
