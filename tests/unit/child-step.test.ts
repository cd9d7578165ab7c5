/**
 * A rebuild's step in its own process (scripts/pipeline/child-step.ts): what it hands back, what a step that
 * could not write its report (a full disk) is said to have died of, that its report file never stays
 * behind, and that the step ends when the rebuild that started it is killed. The steps here are small
 * scripts standing in for the pull and the build.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HeapExhaustedError, noSpaceMessage, runStep, withHeapFallback, type DiskSpace } from '../../scripts/pipeline/child-step.ts';

let dir = '';
const saved = process.env.RELEASES_DIR;
const children: ChildProcess[] = [];
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'child-step-'));
  process.env.RELEASES_DIR = join(dir, 'releases');
  mkdirSync(process.env.RELEASES_DIR);
});
afterEach(() => {
  for (const c of children.splice(0)) c.kill('SIGKILL');
  if (saved === undefined) delete process.env.RELEASES_DIR;
  else process.env.RELEASES_DIR = saved;
  rmSync(dir, { recursive: true, force: true });
});

/** A step script: `body` runs with `report` (the path its rebuild reads) and `fs` in scope. */
function step(body: string): string {
  const file = join(dir, `step-${Math.random().toString(36).slice(2)}.mjs`);
  writeFileSync(file, `import * as fs from 'node:fs';\nconst report = process.env.STEP_REPORT_FILE;\n${body}\n`);
  return file;
}
const run = (script: string, signal?: AbortSignal) => runStep<{ pages: number }>('build', [script], 'STEP_REPORT_FILE', {}, signal);
const leftovers = () => readdirSync(process.env.RELEASES_DIR!);

describe('a step in its own process', () => {
  it('hands back the report it wrote, and removes the file', async () => {
    await expect(run(step(`fs.writeFileSync(report, JSON.stringify({ pages: 3 }));`))).resolves.toEqual({ pages: 3 });
    expect(leftovers()).toEqual([]);
  });

  it("throws the step's own error, and removes the file", async () => {
    const failing = step(`fs.writeFileSync(report, JSON.stringify({ error: 'the API does not answer' })); process.exitCode = 1;`);
    await expect(run(failing)).rejects.toThrow(/^the API does not answer$/);
    expect(leftovers()).toEqual([]);
  });

  it('says which report file could not be read and why, instead of "Unexpected end of JSON input"', async () => {
    // What a full disk leaves: the file was created, its bytes never written.
    const error = await run(step(`fs.writeFileSync(report, ''); process.exit(1);`)).catch((e: Error) => e);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).not.toMatch(/Unexpected end of JSON input/);
    expect((error as Error).message).toBe(`the build failed (exit code 1), and its report ${join(process.env.RELEASES_DIR!, `build.${process.pid}.json`)} is empty`);
    const garbled = await run(step(`fs.writeFileSync(report, '{"pag'); process.exit(0);`)).catch((e: Error) => e);
    expect((garbled as Error).message).toMatch(/^the build ended, but its report .*build\.\d+\.json is not JSON \(.*; 5 bytes\)$/);
    expect(leftovers()).toEqual([]);
  });

  it('a step that hit a full disk (ENOSPC) says so, and what to do', async () => {
    // /dev/full answers every write with ENOSPC.
    const full = step(`try { fs.writeFileSync('/dev/full', 'x'); } catch (e) { fs.writeFileSync(report, JSON.stringify({ error: e.message })); process.exit(1); }`);
    const error = (await run(full).catch((e: Error) => e)) as Error;
    expect(error.message).toMatch(/^a disk was full \(ENOSPC: no space left on device, write\)\. Now RELEASES_DIR \(.*\) (is|are) on a disk with .* free/);
    expect(error.message).toMatch(/Free space there, then run the rebuild again: releases in RELEASES_DIR other than those `current` and `previous` point to can be removed/);
    expect(leftovers()).toEqual([]);
  });

  it('an aborted step is stopped, and says so', async () => {
    const controller = new AbortController();
    const running = run(step(`fs.writeFileSync(${JSON.stringify(join(dir, 'started'))}, ''); setInterval(() => {}, 1000);`), controller.signal);
    await expect.poll(() => existsSync(join(dir, 'started'))).toBe(true);
    controller.abort();
    await expect(running).rejects.toThrow('rebuild aborted');
    expect(leftovers()).toEqual([]);
  });
});

describe('a step within a heap limit', () => {
  /** Keeps 1 MB arrays until `mb` are kept, then reports how many it kept; `worker`: in a thread of its own. */
  const hungry = (mb: number, worker = false) => {
    const fill = `const kept = []; for (let i = 0; i < ${mb}; i++) kept.push(new Array(131072).fill(i));`;
    if (!worker) return step(`${fill} fs.writeFileSync(report, JSON.stringify({ pages: kept.length }));`);
    return step(`import { Worker } from 'node:worker_threads';
      const thread = new Worker(${JSON.stringify(fill)}, { eval: true });
      thread.on('error', (e) => { fs.writeFileSync(report, JSON.stringify({ error: e.message })); process.exitCode = 1; });
      thread.on('exit', (code) => { if (code === 0) fs.writeFileSync(report, JSON.stringify({ pages: ${mb} })); });`);
  };
  const within = (script: string, heapMb: number | null) => runStep<{ pages: number }>('build', [script], 'STEP_REPORT_FILE', {}, undefined, heapMb);

  it('runs with the heap it is given', async () => {
    const limit = step(`import v8 from 'node:v8'; fs.writeFileSync(report, JSON.stringify({ pages: v8.getHeapStatistics().heap_size_limit / 1048576 }));`);
    // V8's limit is the old space asked for and the young generation beside it, the same whatever the old space.
    const [small, large, unlimited] = [(await within(limit, 300)).pages, (await within(limit, 600)).pages, (await within(limit, null)).pages];
    expect(small).toBeGreaterThanOrEqual(300);
    expect(large - small).toBe(300);
    expect(unlimited).toBeGreaterThan(small);
  });

  it('says that it ran out of that heap, in its main thread or in a worker of its own; without the limit it ends well', async () => {
    for (const worker of [false, true]) {
      await expect(within(hungry(600, worker), 300)).rejects.toThrow(new HeapExhaustedError('build', 300));
      await expect(within(hungry(600, worker), null)).resolves.toEqual({ pages: 600 });
    }
    // Its own error within a limit is still its own.
    await expect(within(step(`fs.writeFileSync(report, JSON.stringify({ error: 'the API does not answer' })); process.exitCode = 1;`), 300)).rejects.toThrow(
      /^the API does not answer$/,
    );
    expect(leftovers()).toEqual([]);
  }, 60_000);

  it('is run again without the limit when it runs out of it, saying which setting to raise', async () => {
    const warnings: string[] = [];
    const attempts: (number | null)[] = [];
    const built = await withHeapFallback(
      300,
      ({ heapMb }) => {
        attempts.push(heapMb);
        return within(hungry(600), heapMb);
      },
      (line) => warnings.push(line),
    );
    expect(built).toEqual({ pages: 600 });
    expect(attempts).toEqual([300, null]);
    expect(warnings).toEqual([
      'warning: the build ran out of its heap limit of 300 MB (BUILD_HEAP_MB); running it again without a limit. ' +
        'This site needs more: raise BUILD_HEAP_MB (the peak memory of the build grows with it), or set it to 0.',
    ]);
    // A step that fails for another reason is not run again.
    attempts.length = 0;
    await expect(withHeapFallback(300, async ({ heapMb }) => (attempts.push(heapMb), within(step('process.exit(3);'), heapMb)))).rejects.toThrow('the build failed (exit code 3)');
    expect(attempts).toEqual([300]);
  }, 60_000);
});

/** True while `pid` runs: a zombie (ended, not yet reaped by whoever adopted it) has ended. */
function running(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

describe('a step whose rebuild is killed', () => {
  it('ends within two seconds, instead of writing on into staging', async () => {
    const pidFile = join(dir, 'step.pid');
    const forever = step(
      `fs.writeFileSync(${JSON.stringify(pidFile)}, String(process.pid)); setInterval(() => fs.writeFileSync(${JSON.stringify(join(dir, 'written'))}, 'x'), 50);`,
    );
    const rebuild = `const { runStep } = await import(${JSON.stringify(new URL('../../scripts/pipeline/child-step.ts', import.meta.url).pathname)});
      await runStep('build', [${JSON.stringify(forever)}], 'STEP_REPORT_FILE', {});`;
    const parent = spawn(process.execPath, ['--input-type=module', '-e', rebuild], { env: { ...process.env }, stdio: ['ignore', 'inherit', 'inherit'] });
    children.push(parent);
    await expect.poll(() => existsSync(pidFile), { timeout: 10_000 }).toBe(true);
    const stepPid = Number(readFileSync(pidFile, 'utf8'));
    expect(running(stepPid)).toBe(true);

    parent.kill('SIGKILL');
    const killedAt = Date.now();
    await expect.poll(() => running(stepPid), { timeout: 2_000, interval: 50 }).toBe(false);
    console.log(`child-step: the step ended ${Date.now() - killedAt} ms after its rebuild was killed`);
  });
});

describe('the full-disk message', () => {
  const disk = (folders: string[], freeBytes: number, freeInodes = 1e6): DiskSpace => ({ folders, freeBytes, freeInodes });
  const releases = disk(['RELEASES_DIR (/srv/site/releases)', 'ASTRO_CACHE_DIR (/srv/site/astro)'], 12 * 1024);
  const project = disk(['the project folder (/opt/site)'], 30 * 1024 ** 3);

  it('names the full disk, the folders on it and what to free', () => {
    expect(noSpaceMessage([releases, project], 'ENOSPC: no space left on device, write')).toBe(
      'the disk is full: RELEASES_DIR (/srv/site/releases), ASTRO_CACHE_DIR (/srv/site/astro) are on a disk with 12 KB free ' +
        '(ENOSPC: no space left on device, write). Free space there, then run the rebuild again: releases in RELEASES_DIR other than ' +
        'those `current` and `previous` point to can be removed, and ASTRO_CACHE_DIR and COMPRESS_CACHE_DIR emptied (the next build is then slower).',
    );
  });

  it('counts a disk out of file entries (inodes) as full', () => {
    expect(noSpaceMessage([disk(['RELEASES_DIR (/r)'], 5 * 1024 ** 3, 12)])).toMatch(
      /^the disk is full: RELEASES_DIR \(\/r\) is on a disk with 5\.0 GB and 12 file entries \(inodes\) free\./,
    );
  });

  it('says nothing of disks when none is full and the error is another', () => {
    expect(noSpaceMessage([project], 'the API does not answer')).toBeNull();
    expect(noSpaceMessage([project])).toBeNull();
    expect(noSpaceMessage([])).toBeNull();
    // Another error on a full disk: the disk is named all the same (Astro may wrap ENOSPC in words of its own).
    expect(noSpaceMessage([releases, project], 'Could not write page /ru/news/5')).toMatch(/^the disk is full: RELEASES_DIR .* 12 KB free\. Free space there/);
  });
});
