/**
 * The rebuild: pull, build and publish in one step, for the nightly job and
 * the webhook; `scripts/rebuild.ts` is its command.
 *
 * The site is built into a staging folder; only a complete build that passes
 * the link check is published, by renaming it into the releases folder and
 * swapping the `current` symlink (one atomic rename), so visitors never see a
 * half-built site. The previous release stays for `npm run rollback`. A report
 * (JSON, and a summary on the console) lists pages rendered and reused and the
 * files added, changed and removed: what a CDN upload or purge needs.
 *
 * Layout under RELEASES_DIR (default .releases): rebuild.lock (one run at a
 * time), staging/ (Astro's output, by the lock's holder only), staging-files.json and staging-changes.json (its file
 * list and changes record, written by the build), staging-release/ and staging-release.files.json
 * (an old release set aside for the new one to be made in, and its file list), <id>/ (published releases), current ->
 * <id> (what the web server serves), previous -> <id>, reports/<id>.json,
 * reports/<id>.files.json (the hash of every file, so the next rebuild compares
 * against it without reading the previous release again), reports/<id>.changes.json
 * (./publish/release-changes.ts), last-report.json.
 * The lock, the swap, pruning and the policy live in ./releases.ts.
 */
import { mkdir, readFile, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { deployEnvProblem, readConfig, readMachineSettings } from '../../src/config.ts';
import type { ContentChanges } from '../../src/content/changes.ts';
import { changesArgs } from '../lib/changed-option.ts';
import type { PicturePullStats } from './pull/pull-pictures.ts';
import { replaceFile } from '../lib/replace-file.ts';
import { readText } from '../../src/content/read-text.ts';
import type { BuildReport } from './build-step.ts';
import { deadLinksByLanguage, type EditorContentReport } from './pull/content-report.ts';
import { runStep, withHeapFallback } from './child-step.ts';
import { buildInputsDigest } from './inputs.ts';
import type { PullReport } from './pull/pull-step.ts';
import { checkBudgets, PAGE_BUDGET, type SincePrevious } from './finish/budgets.ts';
import { EDGE_PAGE_SECONDS } from '../serving/cache-rules.ts';
import { purgeEdge, type PurgeReport } from './purge/purge-step.ts';
import {
  fileHashesPath,
  linkTarget,
  PublishError,
  publishRelease,
  pruneReleases,
  reapplyServedPolicy,
  RELEASES_KEPT,
  releasesDir,
  removeStaleStaging,
  REPORT_MODE,
  setAsideOldRelease,
  stagingFileHashesPath,
  type SetAside,
} from './publish/releases.ts';
import { releaseChangesPath, stagingChangesPath } from './publish/release-changes.ts';
import { flushWhileBuilding, syncTree } from './publish/durable-files.ts';
import { acquireLock } from './publish/lock.ts';

export interface RebuildReport {
  id: string;
  /** The digest of everything the build depends on (./inputs.ts). */
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
    /** Pages Astro was handed: the rendered ones and those it reused itself; the other reused pages were never handed to it. */
    handedToAstro: number;
    /** Reused pages no route listed to Astro: their key was in its manifest (scripts/pipeline/astro/changed-pages.ts). */
    notListed: number;
    /** Of those, the pages found by what they are made from, their files not looked up (src/content/cache-key.ts `madeFromKey`). */
    foundByMadeFrom: number;
    /** Astro's part; the last pass (fragments, CSP, links, hashes, compression). */
    astroMs: number;
    finishMs: number;
    compressed: { files: number; made: number; reused: number };
    /** Files the release was made with as an older release had them, untouched (0: made in a new folder). */
    keptFromOlderRelease: number;
    /** How the older release's file list was known (BuildReport): null when the release was made in a new folder. */
    olderReleaseList: BuildReport['olderReleaseList'];
  };
  publish: { ms: number };
  files: { added: string[]; changed: string[]; removed: string[] };
  /** The edge told to drop its copies of the changed and removed paths (./purge-step.ts). */
  purge: PurgeReport;
  /** Pages over a byte budget (./budgets.ts): published all the same, for the operator and the editors to see. */
  overBudget: string[];
  /** The page budget (bytes as sent) `overBudget` was found under: the next rebuild carries its verdicts on the pages it does not change. */
  pageBudget?: number;
  /** What the editors' texts hold that the site could not show as written (./content-report.ts): published all the same. */
  content: EditorContentReport;
  release: string;
  previous: string | null;
}

/**
 * Pulls in a child process (scripts/pull.ts): a full pull leaves some 400 MB in the process that ran it.
 * The changes go on its command line, where one argument may hold 128 KB: a longer list (a bulk re-save)
 * pulls everything, which is always correct.
 */
const MAX_NAMED_CHANGES = 2000;
const runPull = (changes: ContentChanges, signal?: AbortSignal) =>
  runStep<PullReport>('pull', ['scripts/pull.ts', ...changesArgs(changes !== 'all' && changes.length > MAX_NAMED_CHANGES ? 'all' : changes)], 'PULL_REPORT_FILE', {}, signal);

/**
 * Builds into `outDir` in a child process, linking unchanged files to the published release's, and makes the
 * release in `into` (an older release set aside, and its file list) when there is one (./finish/finish-step.ts).
 * The new release's file list and changes record are written beside the releases (stagingFileHashesPath,
 * stagingChangesPath), which the publish renames to the release's own.
 * `heapMb` limits its heap (BUILD_HEAP_MB): the collector then keeps the cold build's memory near what it uses.
 */
const runBuild = (dir: string, outDir: string, previousRelease: string | null, into: SetAside | null, signal: AbortSignal | undefined, heapMb: number | null) =>
  runStep<BuildReport>(
    'build',
    ['scripts/build.ts', '--skip-pull'],
    'BUILD_REPORT_FILE',
    {
      OUT_DIR: outDir,
      PREVIOUS_RELEASE: previousRelease ?? '',
      BUILD_IN_RELEASE: into?.root ?? '',
      BUILD_IN_RELEASE_ID: into?.id ?? '',
      BUILD_IN_RELEASE_FILES: into?.files ?? '',
      BUILD_FILE_LIST: stagingFileHashesPath(dir),
      BUILD_CHANGES_FILE: stagingChangesPath(dir),
    },
    signal,
    heapMb,
  );

/**
 * One rebuild, holding the releases folder's lock for the whole run (the pull's snapshot, Astro's
 * cache, staging and the publish are never shared by two runs). Another run holding it: throws
 * LockBusyError, or waits with `wait`. Refuses without API_BASE and SITE_URL; never starts the sample API.
 */
export async function rebuild(changes: ContentChanges = 'all', signal?: AbortSignal, options: { wait?: boolean; force?: boolean } = {}): Promise<RebuildReport> {
  const problem = deployEnvProblem();
  if (problem) throw new Error(problem);
  const dir = releasesDir();
  await mkdir(dir, { recursive: true });
  const lock = await acquireLock(dir, { wait: options.wait, signal, log: (l) => console.log(l) });
  try {
    await removeStaleStaging(dir);
    return await rebuildLocked(changes, signal, options.force ?? false);
  } finally {
    await removeStaleStaging(dir); // a failed build's staging: a full disk must not stay full until the next run
    await lock.release();
  }
}

const elapsed = (since: number) => Math.round(performance.now() - since);

async function rebuildLocked(changes: ContentChanges, signal: AbortSignal | undefined, force: boolean): Promise<RebuildReport> {
  const dir = releasesDir();
  const startedAt = new Date();
  const id = startedAt
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z');
  await mkdir(join(dir, 'reports'), { recursive: true });
  const checkAbort = () => {
    if (signal?.aborted) throw new Error('rebuild aborted before publishing; the published site is unchanged');
  };

  // 1. Pull: a failure here leaves everything as it was.
  let t = performance.now();
  const pulled = await runPull(changes, signal);
  const pull = { ms: elapsed(t), requests: pulled.requests, items: pulled.items, warnings: pulled.warnings.length, ...pulled.diff, pictures: pulled.pictures };
  checkAbort();

  // Nothing the build depends on changed since the published release: the same bytes would be built again.
  const inputs = await buildInputsDigest(readConfig());
  const currentId = await linkTarget(join(dir, 'current'));
  const current = currentId ? await readReport(dir, currentId) : null;
  if (!force && current?.inputs === inputs) {
    // Nothing to publish, but what an earlier publish left undone is done now: a policy reload that
    // failed, and a purge the edge did not take.
    const policyProblem = await reapplyServedPolicy(dir);
    const purge = await purgeEdge(dir, []);
    const report = await reportUnchanged(dir, { current, inputs, changes, startedAt, pull, purge });
    if (policyProblem) throw policyProblem;
    if (purge.error) throw purgeProblem(report, purge);
    return report;
  }

  // 2. Build into staging, then check it before anything is published.
  t = performance.now();
  const { built, release } = await buildInStaging(dir, currentId, signal);
  checkAbort();
  const buildMs = elapsed(t);
  // A page over its byte budget is reported, never a reason to hold back a release: it is an editor's long
  // text far more often than the code's doing (which the tests' budgets catch before it is deployed).
  const overBudget = (await checkBudgets(release, budgetsSince(current, built))).failures;

  // 3. Publish: rename the release's folder to its id, then swap `current` in one rename.
  t = performance.now();
  const { files, policyProblem } = await publish(dir, id, built, currentId, release);
  const publishMs = elapsed(t);
  // 4. Purge: the edge drops its copies of what changed, once the origin serves the new release.
  const purge = await purgeEdge(dir, [...files.changed, ...files.removed]);
  const report: RebuildReport = {
    id,
    inputs,
    changes,
    startedAt: startedAt.toISOString(),
    finishedAt: new Date().toISOString(),
    pull,
    build: {
      ms: buildMs,
      pages: built.astro.pages,
      rendered: built.astro.pages - built.astro.reused,
      reused: built.astro.reused,
      handedToAstro: built.astro.handedToAstro,
      notListed: built.astro.notListed,
      foundByMadeFrom: built.astro.foundByMadeFrom,
      astroMs: built.astro.ms,
      finishMs: built.ms,
      compressed: { files: built.compressed.files, made: built.compressed.made, reused: built.compressed.reused },
      keptFromOlderRelease: built.keptFromOlder,
      olderReleaseList: built.olderReleaseList,
    },
    publish: { ms: publishMs },
    files,
    purge,
    overBudget,
    pageBudget: PAGE_BUDGET,
    content: { deadLinks: deadLinksByLanguage(built.links.deadEditorLinks), unavailableDocuments: pulled.documents.unavailable, removed: pulled.removed },
    release: id,
    previous: currentId,
  };
  await recordPublished(dir, report);
  if (policyProblem) throw policyProblem;
  if (purge.error) throw purgeProblem(report, purge);
  return report;
}

/** A release the origin serves while the edge may still hand out the old copies of some of its paths. */
function purgeProblem(report: RebuildReport, purge: PurgeReport): PublishError {
  return new PublishError(
    `release ${report.release} is served by the origin, but the edge did not take the purge of ${purge.paths} paths ` +
      `(${purge.error}); it keeps old copies until they expire (pages after ${EDGE_PAGE_SECONDS / 60} minutes, other files after a day). ` +
      'The next rebuild or rollback sends the purge again (RELEASES_DIR/purge-pending.json).',
    true,
  );
}

/**
 * Writes the report of a release that is already served. A failure here (a full disk, a folder in the
 * way) must not read as "the published site is unchanged": it is a problem of a published release.
 */
export async function recordPublished(dir: string, report: RebuildReport): Promise<void> {
  try {
    await writeReport(dir, report);
  } catch (error) {
    throw new PublishError(
      `release ${report.release} IS published and served, but its report could not be written: ${error instanceof Error ? error.message : String(error)}`,
      true,
    );
  }
}

/**
 * Builds into `staging` beside the housekeeping: room for the new release is made while it builds (a failed
 * build leaves one old release fewer; a failed removal only warns), and what it writes is flushed as it goes.
 * The release is made in the newest of the releases that pruning would remove, set aside for it, when there is
 * one: only the files that differ from it are written. Else it is staging itself. Returns the release's folder.
 */
async function buildInStaging(dir: string, currentId: string | null, signal: AbortSignal | undefined): Promise<{ built: BuildReport; release: string }> {
  const staging = join(dir, 'staging');
  await rm(staging, { recursive: true, force: true });
  const kept = [currentId, await linkTarget(join(dir, 'previous'))];
  const into = await setAsideOldRelease(dir, kept, RELEASES_KEPT - 1);
  const pruning = pruneReleases(dir, kept, RELEASES_KEPT - 1).catch((error: unknown) =>
    console.warn(`rebuild: an old release could not be removed: ${error instanceof Error ? error.message : String(error)}`),
  );
  const stopFlushing = flushWhileBuilding(dir);
  const previous = currentId && join(dir, currentId);
  return withHeapFallback(readMachineSettings().buildHeapMb, async ({ heapMb, retry }) => {
    // Again in staging: the older release it was being made in is half made (the next run removes it).
    if (retry) await rm(staging, { recursive: true, force: true });
    const inOlder = retry ? null : into;
    return { built: await runBuild(dir, staging, previous, inOlder, signal, heapMb), release: inOlder?.root ?? staging };
  }).finally(() => Promise.all([stopFlushing(), pruning]));
}

/**
 * Makes the release's folder durable, renames it to `id` and serves it in place of `previousId`; returns what
 * changed against that release (the build compared them: `previousId` is the release it built against).
 */
async function publish(dir: string, id: string, built: BuildReport, previousId: string | null, staging: string) {
  const list = fileHashesPath(dir, id);
  // Where runBuild told the build to write it; this run's start removed any an earlier run left (removeStaleStaging).
  await rename(stagingFileHashesPath(dir), list);
  // Without its changes record (a build of an earlier version), the build after next reads the whole list it would spare.
  await rename(stagingChangesPath(dir), releaseChangesPath(dir, id)).catch((error: unknown) => {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  });
  await syncTree(staging, async () => Object.keys(JSON.parse(await readText(list)) as object).map((p) => join(staging, p)));
  await rename(staging, join(dir, id));
  const policyProblem = await publishRelease(dir, id, previousId);
  return { files: built.sincePrevious, policyProblem };
}

/** The report of a run that found nothing changed: the served release stays, and says so. */
async function reportUnchanged(
  dir: string,
  run: { current: RebuildReport; inputs: string; changes: ContentChanges; startedAt: Date; pull: RebuildReport['pull']; purge: PurgeReport },
): Promise<RebuildReport> {
  const { current } = run;
  const report: RebuildReport = {
    id: current.release,
    inputs: run.inputs,
    unchanged: true,
    changes: run.changes,
    startedAt: run.startedAt.toISOString(),
    finishedAt: new Date().toISOString(),
    pull: run.pull,
    build: {
      ms: 0,
      pages: current.build.pages,
      rendered: 0,
      reused: 0,
      handedToAstro: 0,
      notListed: 0,
      foundByMadeFrom: 0,
      astroMs: 0,
      finishMs: 0,
      compressed: { files: 0, made: 0, reused: 0 },
      keptFromOlderRelease: 0,
      olderReleaseList: null,
    },
    publish: { ms: 0 },
    files: { added: [], changed: [], removed: [] },
    purge: run.purge,
    overBudget: current.overBudget,
    pageBudget: current.pageBudget,
    content: current.content ?? { deadLinks: [], unavailableDocuments: [], removed: [] },
    release: current.release,
    previous: current.previous,
  };
  await replaceFile(join(dir, 'last-report.json'), `${JSON.stringify(report, null, 2)}\n`, { mode: REPORT_MODE });
  return report;
}

async function writeReport(dir: string, report: RebuildReport): Promise<void> {
  const json = `${JSON.stringify(report, null, 2)}\n`;
  await replaceFile(join(dir, 'reports', `${report.id}.json`), json, { mode: REPORT_MODE });
  await replaceFile(join(dir, 'last-report.json'), json, { mode: REPORT_MODE });
}

/** What the served release's budget check found, for the pages this build left as they were; nothing when its report does not say. */
function budgetsSince(current: RebuildReport | null, built: BuildReport): SincePrevious | undefined {
  const failures: unknown = current?.overBudget;
  if (!Array.isArray(failures) || !failures.every((f) => typeof f === 'string')) return undefined;
  const pageBudget = typeof current?.pageBudget === 'number' ? current.pageBudget : undefined;
  return { failures, pageBudget, changed: new Set([...built.sincePrevious.added, ...built.sincePrevious.changed, ...built.sincePrevious.removed]) };
}

/** The report of a published release, if it has one. */
async function readReport(dir: string, id: string): Promise<RebuildReport | null> {
  try {
    return JSON.parse(await readFile(join(dir, 'reports', `${id}.json`), 'utf8')) as RebuildReport;
  } catch {
    return null;
  }
}
