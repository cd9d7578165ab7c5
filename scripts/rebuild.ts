/**
 * `npm run rebuild`: pull, build and publish in one step, for the nightly job
 * and the webhook.
 *
 * The site is built into a staging folder; only a complete build that passes
 * the link check is published, by renaming it into the releases folder and
 * swapping the `current` symlink (one atomic rename), so visitors never see a
 * half-built site. The previous release stays for `npm run rollback`. A report
 * (JSON, and a summary on the console) lists pages rendered and reused and the
 * files added, changed and removed: what a CDN upload or purge needs.
 *
 * Layout under RELEASES_DIR (default .releases): rebuild.lock (one run at a
 * time), staging/ (being built, by the lock's holder only), <id>/ (published releases), current ->
 * <id> (what the web server serves), previous -> <id>, reports/<id>.json,
 * reports/<id>.files.json (the hash of every file, so the next rebuild compares
 * against it without reading the previous release again), last-report.json.
 * The lock, the swap, pruning and the policy live in ./lib/releases.ts.
 *
 * `--wait`: when another rebuild holds the lock, wait for it instead of exiting.
 * `--changed post:123,page:5`: what changed, as a webhook names it (the pull then
 * fetches only those details); without it everything is pulled.
 * `--force`: build and publish even when nothing the build depends on changed
 * (otherwise such a run publishes nothing: scripts/lib/inputs.ts).
 */
import { spawn } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { deployEnvProblem, readConfig, readMachineSettings } from '../src/config.ts';
import { changesArgs, changesFromArgs, type ContentChanges } from '../src/content/changes.ts';
import { diffHashes } from '../src/content/pull.ts';
import type { PicturePullStats } from '../src/content/pictures/pull.ts';
import type { PullReport } from './lib/pull-step.ts';
import {
  CONFIG_EXIT,
  LOCK_BUSY_EXIT,
  LockBusyError,
  PublishError,
  acquireLock,
  fileHashesPath,
  flushWhileBuilding,
  linkTarget,
  publishRelease,
  pruneReleases,
  RELEASES_KEPT,
  releaseFileHashes,
  releasesDir,
  removeStaleStaging,
  syncTree,
} from './lib/releases.ts';

export { releasesDir, swapLink } from './lib/releases.ts';
import type { BuildReport } from './build.ts';
import { buildInputsDigest } from './lib/inputs.ts';

export interface RebuildReport {
  id: string;
  /** The digest of everything the build depends on (scripts/lib/inputs.ts). */
  inputs: string;
  /** True when nothing the build depends on changed: nothing was built or published. */
  unchanged?: boolean;
  changes: ContentChanges;
  startedAt: string;
  finishedAt: string;
  pull: {
    ms: number;
    requests: number;
    items: number;
    warnings: number;
    added: string[];
    changed: string[];
    removed: string[];
    /** The pictures step: requests, downloads and files drawn (src/content/pictures/). */
    pictures: PicturePullStats;
  };
  build: {
    ms: number;
    pages: number;
    rendered: number;
    reused: number;
    /** Astro's part; the last pass (fragments, CSP, links, hashes, compression). */
    astroMs: number;
    finishMs: number;
    compressed: { files: number; made: number; reused: number };
  };
  publish: { ms: number };
  files: { added: string[]; changed: string[]; removed: string[] };
  release: string;
  previous: string | null;
}

function astroCacheManifest(): string {
  return join(resolve(readMachineSettings().astroCacheDir), 'incremental-build.json');
}

type Manifest = { routes: Record<string, { dependencyHash: string; paths: Record<string, { cacheKey: string }> }> };

function readManifest(): Manifest | null {
  try {
    return JSON.parse(readFileSync(astroCacheManifest(), 'utf8')) as Manifest;
  } catch {
    return null;
  }
}

/**
 * Pages Astro reused: same route code and same key as in the previous build's
 * manifest (the rule Astro applies; this reads its incremental-build.json).
 */
export function countReused(before: Manifest | null, after: Manifest | null): number {
  if (!before || !after) return 0;
  let reused = 0;
  for (const [route, entry] of Object.entries(after.routes)) {
    const prev = before.routes[route];
    if (!prev || prev.dependencyHash !== entry.dependencyHash) continue;
    for (const [path, p] of Object.entries(entry.paths)) if (prev.paths[path]?.cacheKey === p.cacheKey) reused++;
  }
  return reused;
}

/** Files added, changed and removed between two releases, as site paths. */
export function diffTrees(before: Map<string, string>, after: Map<string, string>) {
  const { added, changed, removed } = diffHashes(before, after);
  return { added: added.sort(), changed: changed.sort(), removed: removed.sort() };
}

/**
 * Runs one step of the rebuild as `node <args>` in a child process, so that it can be stopped and the
 * memory it took is the system's again when it ends, and returns the JSON it wrote to the file named by
 * `reportVar`. A step that fails writes `{ "error": message }` there, which is thrown here.
 */
function runStep<T>(step: string, args: string[], reportVar: string, env: NodeJS.ProcessEnv, signal?: AbortSignal): Promise<T> {
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

/**
 * Pulls in a child process (scripts/pull.ts): a full pull leaves some 400 MB in the process that ran it.
 * The changes go on its command line, where one argument may hold 128 KB: a longer list (a bulk re-save)
 * pulls everything, which is always correct.
 */
const MAX_NAMED_CHANGES = 2000;
const runPull = (changes: ContentChanges, signal?: AbortSignal) =>
  runStep<PullReport>('pull', ['scripts/pull.ts', ...changesArgs(changes !== 'all' && changes.length > MAX_NAMED_CHANGES ? 'all' : changes)], 'PULL_REPORT_FILE', {}, signal);

/** Builds into `outDir` in a child process, linking unchanged files to the published release's (scripts/lib/finish-build.ts). */
const runBuild = (outDir: string, previousRelease: string | null, signal?: AbortSignal) =>
  runStep<BuildReport>('build', ['scripts/build.ts', '--skip-pull'], 'BUILD_REPORT_FILE', { OUT_DIR: outDir, PREVIOUS_RELEASE: previousRelease ?? '' }, signal);

/**
 * One rebuild, holding the releases folder's lock for the whole run (the pull's snapshot, Astro's
 * cache, staging and the publish are never shared by two runs). Another run holding it: throws
 * LockBusyError, or waits with `wait`. Refuses without API_BASE and SITE_URL.
 */
export async function rebuild(
  changes: ContentChanges = 'all',
  signal?: AbortSignal,
  options: { wait?: boolean; force?: boolean } = {},
): Promise<RebuildReport> {
  const problem = deployEnvProblem();
  if (problem) throw new Error(problem);
  const dir = releasesDir();
  await mkdir(dir, { recursive: true });
  const lock = await acquireLock(dir, { wait: options.wait, signal, log: (l) => console.log(l) });
  try {
    await removeStaleStaging(dir);
    return await rebuildLocked(changes, signal, options.force ?? false);
  } finally {
    await lock.release();
  }
}

async function rebuildLocked(changes: ContentChanges, signal: AbortSignal | undefined, force: boolean): Promise<RebuildReport> {
  const config = readConfig();
  const dir = releasesDir();
  const staging = join(dir, 'staging');
  const startedAt = new Date();
  const id = startedAt.toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z');
  await mkdir(join(dir, 'reports'), { recursive: true });
  const checkAbort = () => {
    if (signal?.aborted) throw new Error('rebuild aborted before publishing; the published site is unchanged');
  };

  // 1. Pull: a failure here leaves everything as it was.
  let t = performance.now();
  // Never the bundled sample API: where the administration's API is down, a rebuild fails rather than publish demo content.
  const pulled = await runPull(changes, signal);
  const pullMs = Math.round(performance.now() - t);
  checkAbort();
  const pull = { ms: pullMs, requests: pulled.requests, items: pulled.items, warnings: pulled.warnings.length, ...pulled.diff, pictures: pulled.pictures };

  // Nothing the build depends on changed since the published release: the same bytes would be built again.
  const inputs = await buildInputsDigest(config);
  const currentId = await linkTarget(join(dir, 'current'));
  const current = currentId ? await readReport(dir, currentId) : null;
  if (!force && current?.inputs === inputs) {
    const none = { added: [], changed: [], removed: [] };
    const build = { ms: 0, pages: current.build.pages, rendered: 0, reused: 0, astroMs: 0, finishMs: 0, compressed: { files: 0, made: 0, reused: 0 } };
    const report: RebuildReport = {
      id: currentId!,
      inputs,
      unchanged: true,
      changes,
      startedAt: startedAt.toISOString(),
      finishedAt: new Date().toISOString(),
      pull,
      build,
      publish: { ms: 0 },
      files: none,
      release: currentId!,
      previous: current.previous,
    };
    await writeFile(join(dir, 'last-report.json'), `${JSON.stringify(report, null, 2)}\n`);
    return report;
  }

  // 2. Build into staging, then check it before anything is published.
  t = performance.now();
  await rm(staging, { recursive: true, force: true });
  const before = readManifest();
  // The build checks its links itself and fails on a broken one.
  // Room for the release being built, beside the build; a failed build leaves one old release fewer.
  // Removing a release is housekeeping: if it fails, the run says so and publishes all the same.
  const pruning = pruneReleases(dir, [currentId, await linkTarget(join(dir, 'previous'))], RELEASES_KEPT - 1).catch((error: unknown) =>
    console.warn(`rebuild: an old release could not be removed: ${error instanceof Error ? error.message : String(error)}`),
  );
  const stopFlushing = flushWhileBuilding(dir);
  const built = await runBuild(staging, currentId && join(dir, currentId), signal).finally(() => Promise.all([stopFlushing(), pruning]));
  const after = readManifest();
  checkAbort();
  const buildMs = Math.round(performance.now() - t);

  // 3. Publish: rename staging to its release id, then swap `current` in one rename.
  t = performance.now();
  const currentLink = join(dir, 'current');
  const previousId = await linkTarget(currentLink);
  const hashes = new Map(Object.entries(built.hashes));
  const previousHashes = previousId ? await releaseFileHashes(join(dir, previousId)) : new Map<string, string>();
  const files = diffTrees(previousHashes, hashes);
  await writeFile(fileHashesPath(dir, id), JSON.stringify(Object.fromEntries(hashes)));
  await syncTree(staging, [...hashes.keys()].map((p) => join(staging, p)));
  await rename(staging, join(dir, id));
  const policyProblem = await publishRelease(dir, id, previousId);
  const publishMs = Math.round(performance.now() - t);

  // What Astro wrote, the shared fragments included (they are pages of their own until the last pass).
  const pages = built.astro.pages || [...hashes.keys()].filter((p) => p.endsWith('.html')).length;
  const reused = Math.min(countReused(before, after), pages);
  const report: RebuildReport = {
    id,
    inputs,
    changes,
    startedAt: startedAt.toISOString(),
    finishedAt: new Date().toISOString(),
    pull,
    build: {
      ms: buildMs,
      pages,
      rendered: pages - reused,
      reused,
      astroMs: built.astro.ms,
      finishMs: built.ms,
      compressed: { files: built.compressed.files, made: built.compressed.made, reused: built.compressed.reused },
    },
    publish: { ms: publishMs },
    files,
    release: id,
    previous: previousId,
  };
  const json = `${JSON.stringify(report, null, 2)}\n`;
  await writeFile(join(dir, 'reports', `${id}.json`), json);
  await writeFile(join(dir, 'last-report.json'), json);
  if (policyProblem) throw policyProblem;
  return report;
}

/** The report of a published release, if it has one. */
async function readReport(dir: string, id: string): Promise<RebuildReport | null> {
  try {
    return JSON.parse(await readFile(join(dir, 'reports', `${id}.json`), 'utf8')) as RebuildReport;
  } catch {
    return null;
  }
}

export function summary(r: RebuildReport): string {
  if (r.unchanged) {
    return [
      `nothing changed since release ${r.release}: nothing built or published (--force builds anyway)`,
      `pull ${r.pull.ms} ms: ${r.pull.items} items, ${r.pull.requests} requests, ${r.pull.warnings} warning(s)`,
    ].join('\n');
  }
  return [
    `release ${r.release} published (previous: ${r.previous ?? 'none'})`,
    `pull ${r.pull.ms} ms: ${r.pull.items} items, ${r.pull.requests} requests, ${r.pull.warnings} warning(s); ` +
      `pictures ${r.pull.pictures.ms} ms: ${r.pull.pictures.fetch.requests} requests, ${r.pull.pictures.fetch.downloaded} downloaded, ${r.pull.pictures.draw.encoded} files drawn`,
    `build ${r.build.ms} ms: ${r.build.pages} pages, ${r.build.rendered} rendered, ${r.build.reused} reused; ` +
      `${r.build.compressed.made} compressed files made, ${r.build.compressed.reused} reused`,
    `publish ${r.publish.ms} ms: ${r.files.added.length} files added, ${r.files.changed.length} changed, ${r.files.removed.length} removed`,
    `report: ${join(releasesDir(), 'reports', `${r.id}.json`)}`,
  ].join('\n');
}

if (import.meta.main) {
  try {
    const report = await rebuild(changesFromArgs(process.argv.slice(2)), undefined, {
      wait: process.argv.includes('--wait'),
      force: process.argv.includes('--force'),
    });
    console.log(`\n${summary(report)}`);
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    if (err instanceof LockBusyError) console.error(`\nRebuild not started: ${message}`);
    else if (err instanceof PublishError && err.published) console.error(`\nRebuild published with a problem: ${message}`);
    else console.error(`\nRebuild failed, the published site is unchanged: ${message}`);
    process.exitCode = err instanceof LockBusyError ? LOCK_BUSY_EXIT : deployEnvProblem() ? CONFIG_EXIT : 1;
  }
}
