/**
 * How fresh the published site is, for the operator: the webhook's signed status and its metrics.
 *
 * Read from RELEASES_DIR on each request, so it also sees what a nightly run or a rollback did outside the
 * listener: the served release (`current` and its report's `finishedAt`), the last rebuild that found it up
 * to date (`last-report.json`), and the edge's purge backlog (`purge-pending.json`, ../purge-step.ts). A
 * report lists every file of its release (megabytes at 35,000 files), and the metrics answer anyone: so
 * only what freshness needs of it is kept, and it is read again only once the file was replaced. The
 * scheduler adds what only the listener knows: pending changes, the time from each accepted change to its
 * publish, rebuild counts and the last error.
 *
 * The metrics (Prometheus text format 0.0.4) are numbers only: no path, URL or message, so they may be
 * read without the secret. A value that is not known (no release yet) is left out rather than given as 0.
 */
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { contentCounts, type EditorContentReport } from '../pipeline/pull/content-report.ts';
import { readPendingPurge, type PendingPurge } from '../pipeline/purge/purge-step.ts';
import { linkTarget } from '../pipeline/publish/releases.ts';
import type { PendingChange, Status } from './scheduler.ts';

export interface ServedRelease {
  id: string;
  /** When the rebuild that published it ended; null when it has no report. */
  publishedAt: string | null;
  ageSeconds: number | null;
  /** The last rebuild that published it or found nothing to change since (null when the last one was about another release). */
  checkedAt: string | null;
  checkedAgeSeconds: number | null;
  /** What its editors' texts hold that it could not show as written (its report's `content`), counted. */
  content: ReturnType<typeof contentCounts>;
}

export interface PurgeBacklog {
  /** How many paths the edge still holds old copies of. */
  paths: number;
  since: string | null;
  ageSeconds: number | null;
  attempts: number;
  lastError: string | null;
}

export interface Freshness {
  release: ServedRelease | null;
  purge: PurgeBacklog | null;
}

export type DetailedStatus = Omit<Status, 'pending'> & {
  pending: (PendingChange & { ageSeconds: number })[];
} & Freshness;

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));
/** Seconds from `since` to `now` (ms), to the millisecond; null for a missing or unreadable time. */
const secondsSince = (since: string | null | undefined, now: number) => {
  const at = since ? Date.parse(since) : Number.NaN;
  return Number.isNaN(at) ? null : Math.max(0, now - at) / 1000;
};

/** What freshness needs of a rebuild report. */
interface ReportSummary {
  release: string | null;
  finishedAt: string | null;
  content: ServedRelease['content'];
}

function summarize(text: string): ReportSummary | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null) return null;
  const { release, finishedAt, content } = value as Record<string, unknown>;
  return {
    release: typeof release === 'string' ? release : null,
    finishedAt: typeof finishedAt === 'string' ? finishedAt : null,
    content: contentCounts((content ?? undefined) as EditorContentReport | undefined),
  };
}

/** Summaries by path, each with the version of the file it was read from; the few files asked for lately. */
const summaries = new Map<string, { version: string; summary: ReportSummary | null }>();
const SUMMARIES_KEPT = 8;

/** The summary of the report at `path`, read again only when the file is another (inode, size, modification time). */
async function readReport(path: string): Promise<ReportSummary | null> {
  let handle;
  try {
    handle = await open(path, 'r');
  } catch {
    return null;
  }
  try {
    // Of the file opened, so that what is read and the version it is kept under are the same file's.
    const { ino, size, mtimeMs } = await handle.stat();
    const version = `${ino}:${size}:${mtimeMs}`;
    const known = summaries.get(path);
    if (known?.version === version) return known.summary;
    const summary = summarize(await handle.readFile('utf8'));
    summaries.delete(path);
    summaries.set(path, { version, summary });
    if (summaries.size > SUMMARIES_KEPT) summaries.delete(summaries.keys().next().value!);
    return summary;
  } catch {
    return null;
  } finally {
    await handle.close();
  }
}

async function servedRelease(dir: string, now: number): Promise<ServedRelease | null> {
  const id = await linkTarget(join(dir, 'current'));
  if (!id) return null;
  const [own, last] = await Promise.all([readReport(join(dir, 'reports', `${id}.json`)), readReport(join(dir, 'last-report.json'))]);
  const publishedAt = own?.finishedAt ?? null;
  const checkedAt = last?.release === id ? last.finishedAt : null;
  const content = own?.content ?? contentCounts(undefined);
  return { id, publishedAt, ageSeconds: secondsSince(publishedAt, now), checkedAt, checkedAgeSeconds: secondsSince(checkedAt, now), content };
}

async function purgeBacklog(dir: string, now: number): Promise<PurgeBacklog | null> {
  let owed: PendingPurge | null;
  try {
    owed = await readPendingPurge(dir);
  } catch (error) {
    // The rebuild refuses such a file too; the operator must see that something is owed.
    return { paths: 0, since: null, ageSeconds: null, attempts: 0, lastError: messageOf(error) };
  }
  if (!owed) return null;
  const since = owed.since || null;
  return { paths: owed.paths.length, since, ageSeconds: secondsSince(since, now), attempts: owed.attempts, lastError: owed.lastError };
}

export async function readFreshness(dir: string, now = Date.now()): Promise<Freshness> {
  const [release, purge] = await Promise.all([servedRelease(dir, now), purgeBacklog(dir, now)]);
  return { release, purge };
}

/** The signed status: the scheduler's, each pending change with its age, the served release and the purge backlog. */
export function detailedStatus(status: Status, freshness: Freshness, now = Date.now()): DetailedStatus {
  return {
    ...status,
    pending: status.pending.map((e) => ({ ...e, ageSeconds: secondsSince(e.acceptedAt, now) ?? 0 })),
    ...freshness,
  };
}

type Sample = [labels: string, value: number | null];

function metric(name: string, type: 'gauge' | 'counter', help: string, samples: Sample[]): string {
  const lines = samples.filter(([, v]) => v !== null && Number.isFinite(v)).map(([labels, v]) => `${name}${labels} ${Math.round(v! * 1000) / 1000}`);
  return lines.length ? `# HELP ${name} ${help}\n# TYPE ${name} ${type}\n${lines.join('\n')}\n` : '';
}

const unixSeconds = (iso: string | null | undefined) => (iso && !Number.isNaN(Date.parse(iso)) ? Date.parse(iso) / 1000 : null);

/** Prometheus text format (0.0.4): numbers only. `refusedConnections` counts connections closed by the per-address cap. */
export function metricsText(status: Status, freshness: Freshness, counters: { refusedConnections: number }, now = Date.now()): string {
  const { release, purge } = freshness;
  const oldest = status.pending.reduce<number>((max, e) => Math.max(max, secondsSince(e.acceptedAt, now) ?? 0), 0);
  const last = status.published.at(-1);
  return [
    metric('hokimiyat_release_published_timestamp_seconds', 'gauge', 'When the served release was published (the end of its rebuild).', [['', unixSeconds(release?.publishedAt)]]),
    metric('hokimiyat_release_age_seconds', 'gauge', 'Seconds since the served release was published.', [['', release?.ageSeconds ?? null]]),
    metric('hokimiyat_release_checked_timestamp_seconds', 'gauge', 'The last rebuild that published the served release or found nothing to change since.', [
      ['', unixSeconds(release?.checkedAt)],
    ]),
    metric('hokimiyat_pending_changes', 'gauge', 'Accepted changes not yet published.', [['', status.pending.length]]),
    metric('hokimiyat_oldest_pending_change_age_seconds', 'gauge', 'Seconds since the oldest change not yet published was accepted (0 when none waits).', [['', oldest]]),
    metric('hokimiyat_last_change_to_publish_seconds', 'gauge', 'From acceptance to publish, for the change published last.', [['', last?.secondsToPublish ?? null]]),
    metric('hokimiyat_rebuilds_total', 'counter', 'Rebuilds that ended since the listener started, by result.', [
      ['{result="ok"}', status.rebuilds.ok],
      ['{result="failed"}', status.rebuilds.failed],
    ]),
    metric('hokimiyat_rebuild_running', 'gauge', '1 while a rebuild runs.', [['', status.state === 'building' ? 1 : 0]]),
    metric('hokimiyat_purge_pending_paths', 'gauge', 'Paths the edge still holds old copies of (RELEASES_DIR/purge-pending.json).', [['', purge?.paths ?? 0]]),
    metric('hokimiyat_purge_pending_age_seconds', 'gauge', 'Seconds since the edge purge backlog began (0 when none).', [['', purge?.ageSeconds ?? 0]]),
    metric('hokimiyat_editor_dead_links', 'gauge', "Editors' links in the served release that lead nowhere on the site.", [['', release?.content.deadLinks ?? null]]),
    metric('hokimiyat_editor_documents_unavailable', 'gauge', 'Documents linked in the served release that the site could not keep.', [
      ['', release?.content.unavailableDocuments ?? null],
    ]),
    metric('hokimiyat_webhook_connections_refused_total', 'counter', 'Connections closed because their address already held its share of the slots.', [
      ['', counters.refusedConnections],
    ]),
  ].join('');
}
