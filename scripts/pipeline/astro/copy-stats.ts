/**
 * The stat of every page copy Astro's cache keeps, taken on a thread of its own while Astro bundles the site.
 *
 * A page left out of Astro (./changed-pages.ts) needs its copy's stat: that the copy is there, and the inode, size
 * and time by which the last pass knows its bytes without reading them. At 10,000 news a language that is 45,000
 * stats, half a second of the build's main thread when taken where they are used (profiled). Astro's bundling
 * leaves much of the other core idle (the search index's thread uses it at the lowest priority), so the thread
 * reads Astro's manifest and stats the copies of its pages there.
 * Nothing writes Astro's copies between the build's start and its page loop (Astro writes a copy only when it
 * renders that page, after the loop's list is made; the rebuild's lock keeps other builds out), so a stat taken
 * then is the one the loop would take. A copy the thread did not stat is statted where it is asked for.
 */
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { COPIES_FOLDER } from './astro-cache.ts';
import { plainPage, readManifest } from './astro-manifest.ts';

/** What the build uses of a file's stat: the inode, size and modification time that stamp its bytes, and its links. */
export interface FileStamp {
  ino: bigint;
  size: bigint;
  mtimeNs: bigint;
  nlink: bigint;
}

/** A copy's stamp by its name in the manifest (`news/5/index.html`), or undefined when it is not a file. */
export type CopyStamp = (outputFile: string) => FileStamp | undefined;

/** The copies' stamps as the thread sends them: the inode, size and links of each, its time (signed), whether it is a file. */
export interface StampTable {
  files: string[];
  numbers: BigUint64Array<ArrayBuffer>;
  times: BigInt64Array<ArrayBuffer>;
  isFile: Uint8Array<ArrayBuffer>;
}

const FIELDS = 3;

const stampOf = (file: string): FileStamp | undefined => {
  const stat = statSync(file, { bigint: true, throwIfNoEntry: false });
  return stat?.isFile() ? { ino: stat.ino, size: stat.size, mtimeNs: stat.mtimeNs, nlink: stat.nlink } : undefined;
};

/** The copies of the plain pages of the manifest in `cacheDir`, statted one after another (the thread's work). */
export function stampTable(cacheDir: string): StampTable {
  const copies = join(cacheDir, COPIES_FOLDER);
  const files: string[] = [];
  for (const route of Object.values(readManifest(cacheDir)?.routes ?? {}))
    for (const page of Object.values(route?.paths ?? {})) if (page && plainPage(page)) files.push(page.outputFile);
  const numbers = new BigUint64Array(files.length * FIELDS);
  const times = new BigInt64Array(files.length);
  const isFile = new Uint8Array(files.length);
  for (const [i, file] of files.entries()) {
    const stamp = stampOf(copies + file);
    if (!stamp) continue;
    isFile[i] = 1;
    numbers.set([stamp.ino, stamp.size, stamp.nlink], i * FIELDS);
    times[i] = stamp.mtimeNs;
  }
  return { files, numbers, times, isFile };
}

/**
 * Starts statting, on a thread of its own, the copies of the pages in the manifest of the Astro cache at `cacheDir`.
 * Its answer stats any other copy when asked; if the thread failed, every copy, after telling `warn` why.
 */
export function copyStampsAhead(cacheDir: string, warn: (message: string) => void = () => {}): Promise<CopyStamp> {
  const copies = join(cacheDir, COPIES_FOLDER);
  const asked: CopyStamp = (outputFile) => stampOf(copies + outputFile);
  return new Promise<StampTable>((ok, fail) => {
    const thread = new Worker(new URL('./copy-stats-worker.ts', import.meta.url), { workerData: cacheDir });
    thread.once('message', ok);
    thread.once('error', fail);
    thread.once('exit', (code) => fail(new Error(`it ended without an answer (exit code ${code})`)));
  }).then(
    ({ files, numbers, times, isFile }) => {
      const index = new Map(files.map((file, i) => [file, i]));
      return (outputFile) => {
        const i = index.get(outputFile);
        if (i === undefined) return asked(outputFile);
        if (!isFile[i]) return undefined;
        const at = i * FIELDS;
        return { ino: numbers[at]!, size: numbers[at + 1]!, mtimeNs: times[i]!, nlink: numbers[at + 2]! };
      };
    },
    (error: unknown) => {
      warn(`the stats of Astro's page copies are taken on the build's main thread, slower: their thread failed (${error instanceof Error ? error.message : String(error)})`);
      return asked;
    },
  );
}
