/**
 * One compression thread of the build's last pass (precompress.ts starts one per core).
 *
 * Why a thread and the synchronous calls: zlib's callback API streams each
 * buffer through libuv's pool in chunks, and on the site's 40 KB pages that
 * machinery cost the main thread as much CPU as the compression itself
 * (README, "Speed and size"). Here a page is compressed in one call, and the
 * result is written into the site and linked into the cache without a round trip.
 *
 * Only Node's own modules and replace-file.ts, which needs no others: the thread starts from this file as Node runs it.
 */
import { linkSync, rmSync, writeFileSync } from 'node:fs';
import { parentPort } from 'node:worker_threads';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { replaceFileSync } from '../../lib/replace-file.ts';

/** One sibling to make: its encoding and level, where it goes in the site and its cache entry, if it is kept there. */
export interface CompressJob {
  encoding: 'br' | 'gz';
  level: number;
  target: string;
  cached?: string;
}

export interface CompressRequest {
  id: number;
  body: Uint8Array;
  jobs: CompressJob[];
}

export interface CompressAnswer {
  id: number;
  error?: string;
}

function make(body: Buffer, { encoding, level }: CompressJob): Buffer {
  return encoding === 'br'
    ? brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: level, [constants.BROTLI_PARAM_SIZE_HINT]: body.length } })
    : gzipSync(body, { level });
}

/**
 * Writes `data` at `target`, then links it into the cache (if kept there). The entry appears whole or not at all, so a
 * build running beside this one never links half a file; if that build made the same entry first, it
 * has the same bytes and stays.
 */
function place(job: CompressJob, data: Buffer): void {
  try {
    writeFileSync(job.target, data, { flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    // Left by an earlier build into the same folder, and maybe a link to a cache entry: never written through.
    rmSync(job.target);
    writeFileSync(job.target, data, { flag: 'wx' });
  }
  if (job.cached === undefined) return;
  try {
    linkSync(job.target, job.cached);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return;
    // Another file system: the cache gets its own copy, by rename so that it too appears whole.
    replaceFileSync(job.cached, data);
  }
}

parentPort?.on('message', ({ id, body, jobs }: CompressRequest) => {
  try {
    const bytes = Buffer.from(body.buffer, body.byteOffset, body.byteLength);
    for (const job of jobs) place(job, make(bytes, job));
    parentPort!.postMessage({ id } satisfies CompressAnswer);
  } catch (error) {
    parentPort!.postMessage({ id, error: error instanceof Error ? error.message : String(error) } satisfies CompressAnswer);
  }
});
