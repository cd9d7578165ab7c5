/**
 * File helpers of the build scripts. A release has tens of thousands of files;
 * reading them one at a time leaves the disk and the cores idle, so each pass
 * over them runs a bounded number of reads at once.
 */
import { copyFileSync, existsSync, linkSync, mkdirSync, readdirSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { replaceFile } from './replace-file.ts';

/**
 * Every file below `root`, as full paths; a link to a folder is not followed. Synchronous, a folder at a time:
 * Node's asynchronous recursive listing took 2.7 s for a release of 164,000 entries and this 1.0 s (measured),
 * and no pass has anything to do meanwhile. (Node 24's own synchronous recursive listing follows links to folders.)
 */
export function listFiles(root: string): string[] {
  const files: string[] = [];
  const folders = [root];
  for (let folder = folders.pop(); folder !== undefined; folder = folders.pop()) {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) folders.push(path);
      else if (entry.isFile()) files.push(path);
    }
  }
  return files;
}

/**
 * Makes `folder`, which is nearly always new and whose parent nearly always is there (a page's own folder,
 * `news/5/`): one call, and the parents only when missing. At 44,700 pages a recursive mkdir before each took
 * 10.6 s of a rebuild and this 3.5 s (profiled).
 */
export function makeFolder(folder: string): void {
  try {
    mkdirSync(folder);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') mkdirSync(folder, { recursive: true });
    else if (code !== 'EEXIST') throw error;
  }
}

/** How many files a pass works on at once: enough to keep the disk and libuv's threads busy. */
export const FILE_CONCURRENCY = 32;

/** Past this many names asked about, a folder is listed once rather than looked into for each. */
const LIST_PAST = 64;

/**
 * The names in a folder, for `asking` questions about them: listed once when they are many (a look for each of
 * 9,000 pictures took 75 ms of a pull), looked up one by one when they are few (a pull told of one post asks about
 * a handful, where listing the 26,000 drawn pictures took 20 ms). `add` records a file written since.
 */
export function namesIn(folder: string, asking: number): { has(name: string): boolean; add(name: string): void } {
  if (asking > LIST_PAST) {
    const names = new Set(readdirSync(folder));
    return { has: (name) => names.has(name), add: (name) => void names.add(name) };
  }
  const added = new Set<string>();
  return { has: (name) => added.has(name) || existsSync(join(folder, name)), add: (name) => void added.add(name) };
}

export { mapLimit } from './limit.ts';

/** Replaces `file` with `text` durably: fsynced, renamed over it, the folder fsynced (scripts/lib/replace-file.ts). */
export const writeFileDurably = (file: string, text: string) => replaceFile(file, text, { durable: true });

/**
 * Makes `file` a hard link to `source`, which has the bytes `file` should have; false, with `file` as it was,
 * when the kernel will not link `source` there (missing, another file system). A name already taken is removed
 * and the link made in its place, not renamed over: nothing reads a build's folder while it is written, and a
 * rename over a name cost some 100 µs more a file here, seconds in a release of tens of thousands.
 */
export function linkInPlace(source: string, file: string): boolean {
  try {
    linkSync(source, file);
    return true;
  } catch (error) {
    // Linux looks the source up first: a name already taken means the source is there. Anything else
    // (another mount, a file the kernel will not link) leaves `file` as it was.
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') return false;
  }
  unlinkSync(file);
  try {
    linkSync(source, file);
  } catch {
    // Refused only now (the name was checked before the mount and the permission): the same bytes, as a copy.
    copyFileSync(source, file);
  }
  return true;
}

/**
 * Puts the store's file `from` at `to` as a hard link (store files are never rewritten in place, so
 * releases may share them), or as a copy when the kernel will not link it; a store file that is missing throws.
 */
export function placeFile(from: string, to: string): void {
  if (!linkInPlace(from, to)) copyFileSync(from, to);
}
