/**
 * File helpers of the build scripts. A release has tens of thousands of files;
 * reading them one at a time leaves the disk and the cores idle, so each pass
 * over them runs a bounded number of reads at once.
 */
import { open, readdir, rename, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';

/** Every file below `root`, as full paths. */
export async function listFiles(root: string): Promise<string[]> {
  const entries = await readdir(root, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));
}

/** How many files a pass works on at once: enough to keep the disk and libuv's threads busy. */
export const FILE_CONCURRENCY = 32;

export { mapLimit } from '../../src/content/limit.ts';

/**
 * Replaces `file` with `text` so that a crash or power loss leaves the old bytes or the new ones, never a
 * mixture or nothing: written to a temporary file beside it, fsynced, renamed over it, and the folder fsynced.
 */
export async function writeFileDurably(file: string, text: string): Promise<void> {
  const tmp = `${file}.tmp-${process.pid}`;
  try {
    const handle = await open(tmp, 'w');
    try {
      await handle.writeFile(text);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(tmp, file);
  } catch (error) {
    await rm(tmp, { force: true }).catch(() => undefined);
    throw error;
  }
  const folder = await open(dirname(file), 'r');
  try {
    await folder.sync();
  } finally {
    await folder.close();
  }
}
