/**
 * File helpers of the build scripts. A release has tens of thousands of files;
 * reading them one at a time leaves the disk and the cores idle, so each pass
 * over them runs a bounded number of reads at once.
 */
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { replaceFile } from '../../src/content/replace-file.ts';

/** Every file below `root`, as full paths. */
export async function listFiles(root: string): Promise<string[]> {
  const entries = await readdir(root, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));
}

/** How many files a pass works on at once: enough to keep the disk and libuv's threads busy. */
export const FILE_CONCURRENCY = 32;

export { mapLimit } from '../../src/content/limit.ts';

/** Replaces `file` with `text` durably: fsynced, renamed over it, the folder fsynced (src/content/replace-file.ts). */
export const writeFileDurably = (file: string, text: string) => replaceFile(file, text, { durable: true });
