/**
 * Replacing a whole file so that a reader, a crash or a power loss finds the old bytes or the new ones,
 * never a mixture or nothing: written to a temporary file beside it, renamed over it. `durable` also
 * fsyncs the file before the rename and the folder after it, for what must survive a power loss once
 * acknowledged (the webhook's journal, the web server's policy, the edge's owed purge); caches and
 * snapshots that a run can make again skip that cost. Every writer of the project uses these two.
 */
import { renameSync, rmSync, writeFileSync } from 'node:fs';
import { open, rename, rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import { threadId } from 'node:worker_threads';

let temporaries = 0;
/** Unique to this process and thread: each compression thread (scripts/pipeline/finish/compress-worker.ts) counts on its own. */
const temporaryOf = (file: string) => `${file}.tmp-${process.pid}-${threadId}-${++temporaries}`;

/**
 * `mode` is the new file's, less the umask (0o600: its owner's alone). The temporary file is made with it, so
 * the bytes are never readable by more, whatever the mode of the file it replaces.
 */
export async function replaceFile(file: string, data: string | Uint8Array, options: { durable?: boolean; mode?: number } = {}): Promise<void> {
  const tmp = temporaryOf(file);
  try {
    const handle = await open(tmp, 'w', options.mode ?? 0o666);
    try {
      await handle.writeFile(data);
      if (options.durable) await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(tmp, file);
  } catch (error) {
    await rm(tmp, { force: true }).catch(() => undefined);
    throw error;
  }
  if (!options.durable) return;
  const folder = await open(dirname(file), 'r');
  try {
    await folder.sync();
  } finally {
    await folder.close();
  }
}

/** The same without waiting, for many small files (not durable): the picture store's, the compression cache's. */
export function replaceFileSync(file: string, data: string | Uint8Array): void {
  const tmp = temporaryOf(file);
  try {
    writeFileSync(tmp, data);
    renameSync(tmp, file);
  } catch (error) {
    rmSync(tmp, { force: true });
    throw error;
  }
}
