/**
 * The releases folder under faults an operator meets: two runs at once, a run that died holding
 * the lock, a web server reload that fails, a rollback across a change of policy, and publishing
 * commands started without their settings. No build runs here: the API is a closed port, so a
 * rebuild that gets past the lock stops at the pull.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { syncFiles } from '../../scripts/pipeline/publish/durable-files.ts';
import { LOCK_BUSY_EXIT, LOCK_FILE } from '../../scripts/pipeline/publish/lock.ts';
import { unionPolicy } from '../../scripts/pipeline/publish/policy.ts';
import { PublishError, publishRelease, reapplyServedPolicy, removeStaleStaging, setAsideOldRelease } from '../../scripts/pipeline/publish/releases.ts';
import { recordPublished, type RebuildReport } from '../../scripts/pipeline/rebuild.ts';

const dirs: string[] = [];
const children: ChildProcess[] = [];
afterEach(() => {
  for (const c of children.splice(0)) c.kill('SIGKILL');
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
const tempDir = () => {
  const d = mkdtempSync(join(tmpdir(), 'releases-test-'));
  dirs.push(d);
  return d;
};

const DEAD_API = 'http://127.0.0.1:9';

function run(script: string, args: string[], env: Record<string, string | undefined>): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [script, ...args], { env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout!.on('data', (d) => (out += d));
    child.stderr!.on('data', (d) => (out += d));
    child.on('exit', (code) => resolve({ code, out }));
  });
}

/** A process that takes the lock of `dir` and keeps it until killed. */
function holdLock(dir: string): Promise<ChildProcess> {
  const code = `const m = await import(${JSON.stringify(new URL('../../scripts/pipeline/publish/lock.ts', import.meta.url).pathname)}); await m.acquireLock(${JSON.stringify(dir)}); console.log('held'); setInterval(() => {}, 1000);`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', code], { stdio: ['ignore', 'pipe', 'inherit'] });
  children.push(child);
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (d) => String(d).includes('held') && resolve(child));
    child.on('exit', () => reject(new Error('lock holder exited')));
  });
}

describe('publishing commands need their settings', () => {
  it('rebuild and webhook refuse to run without API_BASE, SITE_URL and HCAPTCHA_SITEKEY, with exit code 2', async () => {
    const dir = tempDir();
    const rebuild = await run('scripts/rebuild.ts', [], { RELEASES_DIR: dir });
    expect(rebuild.code).toBe(2);
    expect(rebuild.out).toMatch(/API_BASE, SITE_URL and HCAPTCHA_SITEKEY are not set; refusing to publish/);
    const onlyApi = await run('scripts/rebuild.ts', [], { RELEASES_DIR: dir, API_BASE: DEAD_API });
    expect(onlyApi.code).toBe(2);
    expect(onlyApi.out).toMatch(/SITE_URL and HCAPTCHA_SITEKEY are not set/);
    // A production rebuild without its own hCaptcha key would ship the public test key.
    const noKey = await run('scripts/rebuild.ts', [], { RELEASES_DIR: dir, API_BASE: DEAD_API, SITE_URL: 'https://qorakul.example' });
    expect(noKey.code).toBe(2);
    expect(noKey.out).toMatch(/HCAPTCHA_SITEKEY is not set; refusing to publish/);
    expect(existsSync(join(dir, 'current'))).toBe(false);
    const webhook = await run('scripts/webhook.ts', [], { WEBHOOK_SECRET: 'x'.repeat(32), WEBHOOK_PORT: '0' });
    expect(webhook.code).toBe(2);
    expect(webhook.out).toMatch(/API_BASE, SITE_URL and HCAPTCHA_SITEKEY are not set/);
  }, 30_000);

  it("a setting that is set but refused (a base address, BASE_PATH, RELOAD_COMMAND, BUILD_HEAP_MB) or an address not the district's stops them with exit code 2, saying which", async () => {
    const dir = tempDir();
    const set = { RELEASES_DIR: dir, API_BASE: DEAD_API, HCAPTCHA_SITEKEY: '10000000-ffff-ffff-ffff-000000000001' };
    const cases = [
      [{ SITE_URL: 'qorakul.uz' }, /SITE_URL "qorakul\.uz" is not an http\(s\) address\. Refusing to publish/],
      [{ SITE_URL: 'https://qorakul.uz', BASE_PATH: '/a;b' }, /BASE_PATH "\/a;b" is not a path the site can live under/],
      // A quote or `;` would reach the Content-Security-Policy, and from it nginx; a user or query has no place in a base.
      [
        { SITE_URL: 'https://qorakul.uz', MEDIA_BASE: 'https://media.qorakul.uz";add_header' },
        /MEDIA_BASE ".*" has a host name of characters an address of the site may not hold\. Refusing/,
      ],
      [{ SITE_URL: 'https://qorakul.uz', PUBLIC_API_BASE: 'https://api.qorakul.uz/v1;x' }, /PUBLIC_API_BASE ".*" has a path of characters/],
      [{ SITE_URL: 'https://qorakul.uz', API_BASE: 'https://bot:secret@api.qorakul.uz' }, /API_BASE ".*" carries a user name or password/],
      [{ SITE_URL: 'https://qorakul.uz?x=1' }, /SITE_URL ".*" carries a query or fragment/],
      [{ SITE_URL: 'https://qorakul.uz', RELOAD_COMMAND: 'sudo -n /usr/bin/systemctl reload nginx' }, /RELOAD_COMMAND is retired: .*set POLICY_COMMAND instead/],
      [
        { SITE_URL: 'https://qorakul.uz', BUILD_HEAP_MB: '1.5g' },
        /BUILD_HEAP_MB "1\.5g" is not a heap limit: give a whole number of MB from 256 up, or 0 for none\. Refusing to publish/,
      ],
      [{ SITE_URL: 'https://chust.uz' }, /SITE_URL names chust\.uz, which is not one of districts\/qorakul\/district\.json's server\.names \(qorakul\.uz, www\.qorakul\.uz\)/],
    ] as const;
    for (const [env, message] of cases) {
      for (const script of ['scripts/rebuild.ts', 'scripts/webhook.ts']) {
        const result = await run(script, [], { ...set, ...env, WEBHOOK_SECRET: 'x'.repeat(32), WEBHOOK_PORT: '0' });
        expect(result.code, `${script} ${JSON.stringify(env)}`).toBe(2);
        expect(result.out).toMatch(message);
      }
    }
    expect(existsSync(join(dir, 'current'))).toBe(false);
  }, 60_000);
});

describe('the rebuild lock', () => {
  const env = (dir: string) => ({ RELEASES_DIR: dir, API_BASE: DEAD_API, SITE_URL: 'https://qorakul.example', HCAPTCHA_SITEKEY: '10000000-ffff-ffff-ffff-000000000001' });

  it('a second run refuses at once with its own exit code while one holds the lock; --wait waits for it', async () => {
    const dir = tempDir();
    const holder = await holdLock(dir);
    const refused = await run('scripts/rebuild.ts', [], env(dir));
    expect(refused.code).toBe(LOCK_BUSY_EXIT);
    expect(refused.out).toContain(`another rebuild is running (pid ${holder.pid}`);
    expect(refused.out).toContain('Nothing was done');
    // The holder's lock is untouched by the refused run.
    expect(JSON.parse(readFileSync(join(dir, LOCK_FILE), 'utf8')).pid).toBe(holder.pid);

    const waiting = run('scripts/rebuild.ts', ['--wait'], env(dir));
    await new Promise((r) => setTimeout(r, 1500));
    holder.kill('SIGKILL'); // it dies holding the lock: the waiter must notice it is stale
    const waited = await waiting;
    expect(waited.out).toContain('waiting for the running rebuild');
    // It got past the lock and stopped at the (closed) API.
    expect(waited.out).toMatch(/does not answer/);
    expect(waited.code).toBe(1);
    expect(existsSync(join(dir, LOCK_FILE))).toBe(false);
  }, 60_000);

  it('takes over a stale lock left by a process that no longer runs, and removes its staging folder', async () => {
    const dir = tempDir();
    const dead = spawn(process.execPath, ['-e', '0']);
    await new Promise((r) => dead.on('exit', r));
    writeFileSync(join(dir, LOCK_FILE), JSON.stringify({ pid: dead.pid, host: hostname(), startedAt: '2026-01-01T00:00:00.000Z' }));
    mkdirSync(join(dir, 'staging-20260101T000000Z'));
    writeFileSync(join(dir, 'staging-20260101T000000Z', 'index.html'), 'half a build');
    mkdirSync(join(dir, 'staging'));
    writeFileSync(join(dir, `build.${dead.pid}.json`), '');
    const result = await run('scripts/rebuild.ts', [], env(dir));
    expect(result.out).toContain(`taking over the stale lock of pid ${dead.pid}`);
    expect(result.out).toMatch(/does not answer/);
    expect(result.code).toBe(1);
    // Nothing of either run is left: no staging, no lock, no step report (the failed pull's own included).
    expect(readdirSync(dir)).toEqual(['reports']);
  }, 30_000);

  it('a run that fails removes the staging folder it was building before it releases the lock', async () => {
    const dir = tempDir();
    const rebuild = spawn(process.execPath, ['scripts/rebuild.ts'], { env: { ...process.env, ...env(dir) }, stdio: 'ignore' });
    children.push(rebuild);
    const ended = new Promise((r) => rebuild.on('exit', r));
    // Once its pull runs (the lock is taken and what earlier runs left is gone), a half build appears in staging.
    const pullOf = (pid: number) =>
      readdirSync('/proc').some((p) => {
        try {
          return readFileSync(`/proc/${p}/cmdline`, 'utf8').includes('scripts/pull.ts') && readFileSync(`/proc/${p}/stat`, 'utf8').split(') ')[1]!.split(' ')[1] === String(pid);
        } catch {
          return false;
        }
      });
    await expect.poll(() => pullOf(rebuild.pid!), { timeout: 10_000, interval: 50 }).toBe(true);
    mkdirSync(join(dir, 'staging/news'), { recursive: true });
    writeFileSync(join(dir, 'staging/news/index.html'), 'half a build');
    await ended;
    expect(existsSync(join(dir, 'staging'))).toBe(false);
    expect(existsSync(join(dir, LOCK_FILE))).toBe(false);
  }, 30_000);

  it('what builds left: staging folders and the step reports of other processes (and their temporaries) go; releases, links and files of the folder stay', async () => {
    const dir = tempDir();
    for (const d of ['staging/news', 'staging-20260101T000000Z', 'staging-release/news', '20260102T000000Z', 'reports']) mkdirSync(join(dir, d), { recursive: true });
    symlinkSync('20260102T000000Z', join(dir, 'current'));
    const own = `pull.${process.pid}.json`;
    for (const f of [
      'build.4194000.json',
      'build.4194000.json.tmp-4194002-0-1',
      'staging-release.files.json',
      'staging-files.json',
      'staging-files.json.tmp-4194002-0-3',
      'pull.4194001.json',
      own,
      'last-report.json',
      'webhook-journal.json',
      'policy-loaded.txt',
      'reports/20260102T000000Z.json',
    ]) {
      writeFileSync(join(dir, f), '{}');
    }
    await removeStaleStaging(dir);
    expect(readdirSync(dir).sort()).toEqual(['20260102T000000Z', 'current', 'last-report.json', 'policy-loaded.txt', own, 'reports', 'webhook-journal.json'].sort());
    expect(readdirSync(join(dir, 'reports'))).toEqual(['20260102T000000Z.json']);
    // A folder that is not there is nothing to clean, not an error.
    await expect(removeStaleStaging(join(dir, 'missing'))).resolves.toBeUndefined();
  });
});

describe('an old release set aside for the next one to be made in', () => {
  /** A releases folder with these releases, each with its file list unless named in `unlisted`. */
  function releasesFolder(ids: string[], unlisted: string[] = []) {
    const dir = tempDir();
    mkdirSync(join(dir, 'reports'));
    for (const id of ids) {
      mkdirSync(join(dir, id));
      writeFileSync(join(dir, id, 'index.html'), id);
      if (!unlisted.includes(id)) writeFileSync(join(dir, 'reports', `${id}.files.json`), JSON.stringify({ '/index.html': id }));
      writeFileSync(join(dir, 'reports', `${id}.changes.json`), JSON.stringify({ since: null, before: {} }));
    }
    return dir;
  }
  const [r1, r2, r3, r4] = ['20260101T000000Z', '20260102T000000Z', '20260103T000000Z', '20260104T000000Z'];

  it('is the newest release pruning would remove, with its file list, never the served one or the one kept to roll back to', async () => {
    const dir = releasesFolder([r1, r2, r3, r4]);
    const aside = await setAsideOldRelease(dir, [r4, r3], 2);
    expect(aside).toEqual({ root: join(dir, 'staging-release'), id: r2, files: join(dir, 'staging-release.files.json') });
    expect(readFileSync(join(aside!.root, 'index.html'), 'utf8')).toBe(r2);
    expect(JSON.parse(readFileSync(aside!.files, 'utf8'))).toEqual({ '/index.html': r2 });
    expect(readdirSync(dir).filter((n) => /^\d/.test(n))).toEqual([r1, r3, r4]);
    expect(existsSync(join(dir, 'reports', `${r2}.files.json`))).toBe(false);
    // What it changed of its predecessor describes a release that is gone: r3's record leads to r2's id, not to its record.
    expect(existsSync(join(dir, 'reports', `${r2}.changes.json`))).toBe(false);
    expect(existsSync(join(dir, 'reports', `${r3}.changes.json`))).toBe(true);
  });

  it('after a rollback the served release is older than another: still never taken', async () => {
    const dir = releasesFolder([r1, r2, r3]);
    // Served r1, kept r2: r3 is newer than both but published after them and rolled back from.
    expect(await setAsideOldRelease(dir, [r1, r2], 2)).toBeNull();
    expect(readdirSync(dir).filter((n) => /^\d/.test(n))).toEqual([r1, r2, r3]);
  });

  it('none while what a failed run set aside is still there: the old release stays whole, with its file list', async () => {
    const dir = releasesFolder([r1, r2, r3]);
    mkdirSync(join(dir, 'staging-release', 'news'), { recursive: true });
    expect(await setAsideOldRelease(dir, [r3, r2], 2)).toBeNull();
    expect(readFileSync(join(dir, r1, 'index.html'), 'utf8')).toBe(r1);
    expect(existsSync(join(dir, 'reports', `${r1}.files.json`))).toBe(true);
  });

  it('none when there are only the served and the kept release, and not one without its file list', async () => {
    expect(await setAsideOldRelease(releasesFolder([r1, r2]), [r2, r1], 2)).toBeNull();
    const dir = releasesFolder([r1, r2, r3], [r1]);
    expect(await setAsideOldRelease(dir, [r3, r2], 2)).toBeNull();
    expect(existsSync(join(dir, r1, 'index.html'))).toBe(true);
  });
});

/** Two fake releases: A (served) and B (new), each with its own inline-script hash. */
function releases() {
  const dir = tempDir();
  const policyA = "default-src 'self'; script-src 'self' 'sha256-AAA'";
  const policyB = "default-src 'self'; script-src 'self' 'sha256-BBB'";
  for (const [id, policy] of [
    ['20260101T000000Z', policyA],
    ['20260102T000000Z', policyB],
  ] as const) {
    mkdirSync(join(dir, id));
    writeFileSync(join(dir, id, 'content-security-policy.txt'), `${policy}\n`);
  }
  symlinkSync('20260101T000000Z', join(dir, 'current'));
  // What RELEASES_DIR/policy-loaded.txt holds: the policy the web server was last given.
  const snippet = (p: string) => `${p}\n`;
  writeFileSync(join(dir, 'policy-loaded.txt'), snippet(policyA));
  // Records, at each load, what is served and which policy the web server is handed (on standard input).
  const log = join(dir, 'reloads.log');
  const recorder = `echo "$(readlink ${dir}/current) $(cat)" >> ${log}`;
  return { dir, A: '20260101T000000Z', B: '20260102T000000Z', policyA, policyB, snippet, log, recorder };
}

describe('publishing with the Content-Security-Policy', () => {
  const withReload = async <T>(command: string, fn: () => Promise<T>): Promise<T> => {
    const saved = process.env.POLICY_COMMAND;
    process.env.POLICY_COMMAND = command;
    try {
      return await fn();
    } finally {
      if (saved === undefined) delete process.env.POLICY_COMMAND;
      else process.env.POLICY_COMMAND = saved;
    }
  };

  it('unites policies directive by directive', () => {
    expect(unionPolicy("default-src 'self'; script-src 'self' 'sha256-A'", "default-src 'self'; script-src 'self' 'sha256-B'; upgrade-insecure-requests")).toBe(
      "default-src 'self'; script-src 'self' 'sha256-A' 'sha256-B'; upgrade-insecure-requests",
    );
  });

  it('loads a policy allowing both releases before the swap, and the new one alone after it', async () => {
    const r = releases();
    const problem = await withReload(r.recorder, () => publishRelease(r.dir, r.B, r.A));
    expect(problem).toBeNull();
    const reloads = readFileSync(r.log, 'utf8').trim().split('\n');
    expect(reloads).toHaveLength(2);
    // First reload: still serving A, under a policy that also allows B's scripts.
    expect(reloads[0]).toMatch(new RegExp(`^${r.A} .*'sha256-AAA' 'sha256-BBB'`));
    // Second: serving B, under B's own policy.
    expect(reloads[1]).toBe(`${r.B} ${r.snippet(r.policyB).trim()}`);
    expect(readlinkSync(join(r.dir, 'current'))).toBe(r.B);
    expect(readlinkSync(join(r.dir, 'previous'))).toBe(r.A);
  });

  it('refuses a release without its policy (never finished) and keeps serving the current one', async () => {
    const r = releases();
    rmSync(join(r.dir, r.B, 'content-security-policy.txt'));
    const error = await withReload(r.recorder, () => publishRelease(r.dir, r.B, r.A)).catch((e: unknown) => e);
    expect((error as Error).message).toMatch(/release 20260102T000000Z has no content-security-policy\.txt, so it was never finished: not published/);
    expect((error as { published: boolean }).published).toBe(false);
    expect(readlinkSync(join(r.dir, 'current'))).toBe(r.A);
    expect(readFileSync(join(r.dir, 'policy-loaded.txt'), 'utf8')).toBe(r.snippet(r.policyA));
  });

  it('when the reload fails, does not publish, puts the record back and says so', async () => {
    const r = releases();
    const error = await withReload('exit 3', () => publishRelease(r.dir, r.B, r.A)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toMatch(/exited with 3; release 20260102T000000Z was not published and the web server's policy is unchanged/);
    expect((error as { published: boolean }).published).toBe(false);
    expect(readlinkSync(join(r.dir, 'current'))).toBe(r.A);
    expect(readFileSync(join(r.dir, 'policy-loaded.txt'), 'utf8')).toBe(r.snippet(r.policyA));
    // The next attempt sees the difference and reloads again.
    expect(await withReload(r.recorder, () => publishRelease(r.dir, r.B, r.A))).toBeNull();
    expect(readFileSync(r.log, 'utf8').trim().split('\n')).toHaveLength(2);
  });

  it('a RELOAD_COMMAND left from before publishes nothing and says what replaced it', async () => {
    const r = releases();
    const saved = process.env.RELOAD_COMMAND;
    process.env.RELOAD_COMMAND = 'sudo -n /usr/bin/systemctl reload nginx';
    try {
      const error = await publishRelease(r.dir, r.B, r.A).catch((e: unknown) => e);
      expect((error as Error).message).toMatch(/RELOAD_COMMAND is retired: .*set POLICY_COMMAND instead/);
      expect(readlinkSync(join(r.dir, 'current'))).toBe(r.A);
    } finally {
      if (saved === undefined) delete process.env.RELOAD_COMMAND;
      else process.env.RELOAD_COMMAND = saved;
    }
  });

  it('never hands the web server a policy its helper would refuse: a quote in a release policy stops the publish', async () => {
    const r = releases();
    writeFileSync(join(r.dir, r.B, 'content-security-policy.txt'), `default-src 'self'"; access_log /etc/ld.so.preload combined; add_header X "1\n`);
    const error = await withReload(r.recorder, () => publishRelease(r.dir, r.B, r.A)).catch((e: unknown) => e);
    expect((error as Error).message).toMatch(/is not of the form the web server takes.*release 20260102T000000Z was not published/);
    expect(existsSync(r.log)).toBe(false);
    expect(readlinkSync(join(r.dir, 'current'))).toBe(r.A);
    expect(readFileSync(join(r.dir, 'policy-loaded.txt'), 'utf8')).toBe(r.snippet(r.policyA));
  });

  it('when only the final reload fails, reports the release as published under the union policy', async () => {
    const r = releases();
    // Fails once B is served.
    const command = `test "$(readlink ${r.dir}/current)" != ${r.B}`;
    const problem = await withReload(command, () => publishRelease(r.dir, r.B, r.A));
    expect(problem?.published).toBe(true);
    expect(problem?.message).toMatch(/IS published/);
    expect(readlinkSync(join(r.dir, 'current'))).toBe(r.B);
    // The record says what the server has loaded: both releases' scripts are allowed.
    expect(readFileSync(join(r.dir, 'policy-loaded.txt'), 'utf8')).toMatch(/'sha256-AAA' 'sha256-BBB'/);
  });

  it("a run with nothing to publish applies the served release's own policy again when an earlier reload failed", async () => {
    const r = releases();
    await withReload(`test "$(readlink ${r.dir}/current)" != ${r.B}`, () => publishRelease(r.dir, r.B, r.A));
    expect(readFileSync(join(r.dir, 'policy-loaded.txt'), 'utf8')).toMatch(/'sha256-AAA' 'sha256-BBB'/);
    // Failing again: said, and the record still says what the server has loaded.
    const again = await withReload('exit 4', () => reapplyServedPolicy(r.dir));
    expect(again?.message).toMatch(/exited with 4; release 20260102T000000Z is served, but its own policy is still not applied/);
    expect(readFileSync(join(r.dir, 'policy-loaded.txt'), 'utf8')).toMatch(/'sha256-AAA' 'sha256-BBB'/);
    // Then it works: the server loads B's own policy.
    expect(await withReload(r.recorder, () => reapplyServedPolicy(r.dir))).toBeNull();
    expect(readFileSync(join(r.dir, 'policy-loaded.txt'), 'utf8')).toBe(r.snippet(r.policyB));
    expect(readFileSync(r.log, 'utf8').trim()).toBe(`${r.B} ${r.snippet(r.policyB).trim()}`);
    // Nothing to do once it matches: no reload at all.
    expect(await withReload('exit 5', () => reapplyServedPolicy(r.dir))).toBeNull();
  });

  it('an error after the swap (the report cannot be written) says the release IS published', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'reports'), 'a file where the reports folder should be');
    const report = { id: '20260103T000000Z', release: '20260103T000000Z' } as RebuildReport;
    const error = await recordPublished(dir, report).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PublishError);
    expect((error as PublishError).published).toBe(true);
    expect((error as Error).message).toMatch(/release 20260103T000000Z IS published and served, but its report could not be written: ENOTDIR/);
  });

  it('rollback serves the previous release under its own policy, without a blocked window', async () => {
    const r = releases();
    await withReload('true', () => publishRelease(r.dir, r.B, r.A));
    const result = await run('scripts/rollback.ts', [], { RELEASES_DIR: r.dir, POLICY_COMMAND: r.recorder });
    expect(result.code, result.out).toBe(0);
    expect(result.out).toContain(`now serving ${r.A}`);
    const reloads = readFileSync(r.log, 'utf8').trim().split('\n');
    expect(reloads[0]).toMatch(new RegExp(`^${r.B} .*'sha256-BBB' 'sha256-AAA'`));
    expect(reloads[1]).toBe(`${r.A} ${r.snippet(r.policyA).trim()}`);
    expect(readlinkSync(join(r.dir, 'current'))).toBe(r.A);
    expect(readlinkSync(join(r.dir, 'previous'))).toBe(r.B);

    const failing = await run('scripts/rollback.ts', [], { RELEASES_DIR: r.dir, POLICY_COMMAND: 'exit 1' });
    expect(failing.code).toBe(1);
    expect(failing.out).toMatch(/Rollback failed, still serving the same release/);
    expect(readlinkSync(join(r.dir, 'current'))).toBe(r.A);
  }, 30_000);
});

describe('syncFiles', () => {
  it('syncs files and their folders, nested or not', async () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'a/b'), { recursive: true });
    for (const f of ['index.html', 'a/b/page.html', 'a/x.css']) writeFileSync(join(dir, f), f);
    await expect(syncFiles(['index.html', 'a/b/page.html', 'a/x.css'].map((f) => join(dir, f)))).resolves.toBeUndefined();
    await expect(syncFiles([join(dir, 'missing.html')])).rejects.toThrow(/ENOENT/);
  });
});
