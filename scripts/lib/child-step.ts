/**
 * A step of the rebuild in a child process of its own (`node <args>`), so that
 * it can be stopped, and the memory it took is the system's again when it
 * ends. It reports through a JSON file named by an environment variable.
 */
import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { releasesDir } from './releases.ts';

/**
 * Runs one step of the rebuild as `node <args>` in a child process, so that it can be stopped and the
 * memory it took is the system's again when it ends, and returns the JSON it wrote to the file named by
 * `reportVar`. A step that fails writes `{ "error": message }` there, which is thrown here.
 */
export function runStep<T>(step: string, args: string[], reportVar: string, env: NodeJS.ProcessEnv, signal?: AbortSignal): Promise<T> {
  const reportFile = join(releasesDir(), `${step}.${process.pid}.json`);
  return new Promise<void>((ok, fail) => {
    // A file a crashed run with the same pid left must not pass for this step's report.
    rmSync(reportFile, { force: true });
    if (signal?.aborted) return fail(new Error('rebuild aborted'));
    const child = spawn(process.execPath, args, { env: { ...process.env, ...env, [reportVar]: reportFile }, stdio: ['ignore', 'inherit', 'inherit'] });
    const abort = () => child.kill('SIGTERM');
    signal?.addEventListener('abort', abort, { once: true });
    child.on('error', fail);
    child.on('exit', (code, sig) => {
      signal?.removeEventListener('abort', abort);
      if (signal?.aborted) fail(new Error('rebuild aborted'));
      else if (code === 0) ok();
      else fail(new Error(`the ${step} failed (${sig ? `signal ${sig}` : `exit code ${code}`})`));
    });
  })
    .then(
      () => undefined,
      (error: Error) => error,
    )
    .then(async (failure) => {
      const written = await readFile(reportFile, 'utf8').then((t) => JSON.parse(t) as T | { error: string }, () => null);
      await rm(reportFile, { force: true });
      if (signal?.aborted) throw failure ?? new Error('rebuild aborted');
      if (written && typeof written === 'object' && 'error' in written) throw new Error(written.error);
      if (failure) throw failure;
      if (!written) throw new Error(`the ${step} ended without its report`);
      return written as T;
    });
}
