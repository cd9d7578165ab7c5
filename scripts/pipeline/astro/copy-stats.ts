/**
 * The stat of every page copy Astro's cache keeps, taken on a thread of its own while Astro bundles the site.
 *
 * A page left out of Astro (./changed-pages.ts) needs its copy's stat: that the copy is there, and the inode, size
 * and time by which the last pass knows its bytes without reading them. At 10,000 news a language that is 45,000
 * stats, half a second of the build's main thread when taken where they are used (profiled). Astro's bundling
 * leaves the other core mostly idle, so they are taken there first. Nothing writes Astro's copies between the
 * build's start and its page loop (Astro writes a copy only when it renders that page, after the loop's list is
 * made; the rebuild's lock keeps other builds out), so a stat taken then is the one the loop would take.
 */
import { statSync } from 'node:fs';
import { Worker } from 'node:worker_threads';

/** What the build uses of a file's stat: the inode, size and modification time that stamp its bytes, and its links. */
export interface FileStamp {
  ino: bigint;
  size: bigint;
  mtimeNs: bigint;
  nlink: bigint;
}

/** The stamp of the `i`th file asked for, or undefined when it is not a file. */
export type StampOf = (i: number) => FileStamp | undefined;

/** The stamps as the thread sends them: four numbers a file, and whether it is a file. */
export interface StampTable {
  numbers: BigUint64Array<ArrayBuffer>;
  isFile: Uint8Array<ArrayBuffer>;
}

const FIELDS = 4;

/** Stats `files` one after another (the thread's work, and the fallback when it cannot be had). */
export function stampTable(files: readonly string[]): StampTable {
  const numbers = new BigUint64Array(files.length * FIELDS);
  const isFile = new Uint8Array(files.length);
  for (const [i, file] of files.entries()) {
    const stat = statSync(file, { bigint: true, throwIfNoEntry: false });
    if (!stat?.isFile()) continue;
    isFile[i] = 1;
    numbers.set([stat.ino, stat.size, stat.mtimeNs, stat.nlink], i * FIELDS);
  }
  return { numbers, isFile };
}

const reader =
  ({ numbers, isFile }: StampTable): StampOf =>
  (i) => {
    if (!isFile[i]) return undefined;
    const at = i * FIELDS;
    return { ino: numbers[at]!, size: numbers[at + 1]!, mtimeNs: numbers[at + 2]!, nlink: numbers[at + 3]! };
  };

/** Starts taking the stamps of `files` on a thread of its own; on this thread, when asked, if that thread fails. */
export function stampsAhead(files: readonly string[]): Promise<StampOf> {
  if (!files.length) return Promise.resolve(() => undefined);
  return new Promise<StampTable>((ok, fail) => {
    const thread = new Worker(new URL('./copy-stats-worker.ts', import.meta.url), { workerData: files });
    thread.once('message', ok);
    thread.once('error', fail);
    thread.once('exit', (code) => fail(new Error(`the copies' stats ended without an answer (exit code ${code})`)));
  }).then(reader, () => reader(stampTable(files)));
}
