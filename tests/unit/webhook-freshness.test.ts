/**
 * The operator's view of freshness (scripts/webhook/freshness.ts): the served release and its age, the
 * last rebuild that checked it, the edge's purge backlog, read from a releases folder laid out as
 * `rebuild` leaves it; the signed status and the unsigned metrics of a running listener.
 */
import { mkdirSync, mkdtempSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { detailedStatus, metricsText, readFreshness, type DetailedStatus } from '../../scripts/webhook/freshness.ts';
import type { Status } from '../../scripts/webhook/scheduler.ts';
import { createWebhookServer, type WebhookServer } from '../../scripts/webhook/server.ts';
import { contentHeaders, statusHeaders } from '../helpers/webhook-client.ts';
import { idleStatus } from '../helpers/webhook-status.ts';

const SECRET = 'freshness-test-secret-0123456789';
const NOW = Date.parse('2030-01-02T03:30:00.000Z');

const dirs: string[] = [];
const hooks: WebhookServer[] = [];
afterEach(async () => {
  await Promise.all(hooks.splice(0).map((h) => h.close()));
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A releases folder with the given releases (id → report's finishedAt), `current` → `served`, and last-report.json. */
function releases(options: { reports?: Record<string, string>; served?: string; last?: { release: string; finishedAt: string }; purge?: unknown } = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'webhook-freshness-'));
  dirs.push(dir);
  mkdirSync(join(dir, 'reports'));
  for (const [id, finishedAt] of Object.entries(options.reports ?? {})) {
    mkdirSync(join(dir, id));
    writeFileSync(join(dir, 'reports', `${id}.json`), JSON.stringify({ id, release: id, finishedAt }));
  }
  if (options.served) symlinkSync(options.served, join(dir, 'current'));
  if (options.last) writeFileSync(join(dir, 'last-report.json'), JSON.stringify({ id: options.last.release, ...options.last, unchanged: true }));
  if (options.purge !== undefined) writeFileSync(join(dir, 'purge-pending.json'), typeof options.purge === 'string' ? options.purge : JSON.stringify(options.purge));
  return dir;
}

const idle = idleStatus();

/** The samples of a metrics text: name{labels} → value. */
const samples = (text: string) =>
  new Map(
    text
      .split('\n')
      .filter((l) => l && !l.startsWith('#'))
      .map((l) => [l.slice(0, l.lastIndexOf(' ')), Number(l.slice(l.lastIndexOf(' ') + 1))] as const),
  );

describe('reading the releases folder', () => {
  it('gives the served release, when it was published and how old it is, and the last rebuild that checked it', async () => {
    const dir = releases({
      reports: { '20300101T120000Z': '2030-01-01T12:01:40.000Z', '20300102T010000Z': '2030-01-02T01:02:00.000Z' },
      served: '20300101T120000Z',
      // A later run found nothing to change and said so about the same release.
      last: { release: '20300101T120000Z', finishedAt: '2030-01-02T03:29:00.000Z' },
    });
    expect(await readFreshness(dir, NOW)).toEqual({
      release: {
        id: '20300101T120000Z',
        publishedAt: '2030-01-01T12:01:40.000Z',
        ageSeconds: 15 * 3600 + 28 * 60 + 20,
        checkedAt: '2030-01-02T03:29:00.000Z',
        checkedAgeSeconds: 60,
        content: { deadLinks: 0, unavailableDocuments: 0, itemsWithRemovedElements: 0 },
      },
      purge: null,
    });
  });

  it("after a rollback: the older release's own publish time, and no check until a rebuild looks at it", async () => {
    const dir = releases({
      reports: { '20300101T120000Z': '2030-01-01T12:01:40.000Z', '20300102T010000Z': '2030-01-02T01:02:00.000Z' },
      served: '20300101T120000Z',
      last: { release: '20300102T010000Z', finishedAt: '2030-01-02T01:02:00.000Z' },
    });
    expect((await readFreshness(dir, NOW)).release).toMatchObject({ id: '20300101T120000Z', checkedAt: null, checkedAgeSeconds: null });
  });

  it('nothing published yet, or a release without a report', async () => {
    expect(await readFreshness(releases(), NOW)).toEqual({ release: null, purge: null });
    const dir = releases({ served: 'gone' });
    expect((await readFreshness(dir, NOW)).release).toEqual({
      id: 'gone',
      publishedAt: null,
      ageSeconds: null,
      checkedAt: null,
      checkedAgeSeconds: null,
      content: { deadLinks: 0, unavailableDocuments: 0, itemsWithRemovedElements: 0 },
    });
  });

  it('counts the paths the edge still owes a purge of, and says when the backlog file cannot be read', async () => {
    const purge = { paths: ['/', '/news', '/news/'], since: '2030-01-02T03:20:00.000Z', attempts: 4, lastError: 'the edge answered 503 to PURGE /news' };
    expect((await readFreshness(releases({ purge }), NOW)).purge).toEqual({
      paths: 3,
      since: purge.since,
      ageSeconds: 600,
      attempts: 4,
      lastError: purge.lastError,
    });
    const broken = releases({ purge: '{"paths": [' });
    expect((await readFreshness(broken, NOW)).purge).toMatchObject({ paths: 0, lastError: expect.stringContaining('purge-pending.json cannot be read') });
  });
});

describe('the signed status and the metrics', () => {
  const status: Status = {
    ...idle,
    state: 'building',
    pending: [
      { id: 7, changes: [{ type: 'post', id: 1 }], acceptedAt: '2030-01-02T03:25:00.000Z', attempts: 2, lastError: 'GET http://10.0.0.5/api/menu: 500' },
      { id: 8, changes: 'all', acceptedAt: '2030-01-02T03:29:30.000Z', attempts: 0, lastError: null },
    ],
    lastError: 'GET http://10.0.0.5/api/menu: 500',
    published: [
      { id: 5, changes: [{ type: 'menu' }], acceptedAt: '2030-01-02T01:00:00.000Z', publishedAt: '2030-01-02T01:00:40.000Z', release: 'r', secondsToPublish: 40, attempts: 0 },
      {
        id: 6,
        changes: [{ type: 'page', id: 2 }],
        acceptedAt: '2030-01-02T01:01:00.000Z',
        publishedAt: '2030-01-02T01:01:18.250Z',
        release: 'r',
        secondsToPublish: 18.25,
        attempts: 0,
      },
    ],
    rebuilds: { ok: 2, failed: 2 },
  };
  const freshness = {
    release: {
      id: 'r',
      publishedAt: '2030-01-02T01:01:18.250Z',
      ageSeconds: 8921.75,
      checkedAt: '2030-01-02T01:01:18.250Z',
      checkedAgeSeconds: 8921.75,
      content: { deadLinks: 3, unavailableDocuments: 1, itemsWithRemovedElements: 2 },
    },
    purge: { paths: 12, since: '2030-01-02T03:20:00.000Z', ageSeconds: 600, attempts: 3, lastError: 'PURGE /srv/x failed' },
  };

  it('the signed status gives every pending change its age, beside the release and the purge backlog', () => {
    const detailed = detailedStatus(status, freshness, NOW);
    expect(detailed.pending.map((e) => e.ageSeconds)).toEqual([300, 30]);
    expect(detailed).toMatchObject({ release: freshness.release, purge: freshness.purge, published: status.published, rebuilds: status.rebuilds });
  });

  it('the metrics are Prometheus text with numbers only: no path, URL or message', () => {
    const text = metricsText(status, freshness, { refusedConnections: 3 }, NOW);
    expect(text).not.toMatch(/10\.0\.0\.5|\/srv|\/news|PURGE|api/);
    for (const line of text.trimEnd().split('\n')) {
      expect(line).toMatch(/^(# (HELP|TYPE) hokimiyat_[a-z_]+ .+|hokimiyat_[a-z_]+(\{result="(ok|failed)"\})? -?\d+(\.\d+)?)$/);
    }
    expect(Object.fromEntries(samples(text))).toEqual({
      hokimiyat_release_published_timestamp_seconds: Date.parse('2030-01-02T01:01:18.250Z') / 1000,
      hokimiyat_release_age_seconds: 8921.75,
      hokimiyat_release_checked_timestamp_seconds: Date.parse('2030-01-02T01:01:18.250Z') / 1000,
      hokimiyat_pending_changes: 2,
      hokimiyat_oldest_pending_change_age_seconds: 300,
      hokimiyat_last_change_to_publish_seconds: 18.25,
      'hokimiyat_rebuilds_total{result="ok"}': 2,
      'hokimiyat_rebuilds_total{result="failed"}': 2,
      hokimiyat_rebuild_running: 1,
      hokimiyat_purge_pending_paths: 12,
      hokimiyat_purge_pending_age_seconds: 600,
      hokimiyat_editor_dead_links: 3,
      hokimiyat_editor_documents_unavailable: 1,
      hokimiyat_webhook_connections_refused_total: 3,
    });
    expect(text).toContain('# TYPE hokimiyat_rebuilds_total counter\n');
    expect(text).toContain('# TYPE hokimiyat_release_age_seconds gauge\n');
  });

  it('leaves out what is not known rather than saying 0 (no release, nothing published yet)', () => {
    const text = metricsText(idle, { release: null, purge: null }, { refusedConnections: 0 }, NOW);
    const names = [...samples(text).keys()];
    expect(names).not.toContain('hokimiyat_release_age_seconds');
    expect(names).not.toContain('hokimiyat_release_published_timestamp_seconds');
    expect(names).not.toContain('hokimiyat_last_change_to_publish_seconds');
    expect(samples(text).get('hokimiyat_pending_changes')).toBe(0);
    expect(samples(text).get('hokimiyat_purge_pending_paths')).toBe(0);
    expect(samples(text).get('hokimiyat_rebuild_running')).toBe(0);
  });
});

describe('through the listener', () => {
  it('GET /hooks/metrics answers anyone in text format; the signed status carries the release and the backlog; the unsigned one stays bare', async () => {
    const publishedAt = new Date(Date.now() - 90_000).toISOString();
    const dir = releases({
      reports: { '20300101T120000Z': publishedAt },
      served: '20300101T120000Z',
      purge: { paths: ['/a', '/b'], since: new Date().toISOString(), attempts: 1, lastError: 'the edge answered 500 to PURGE /a' },
    });
    const calls: ((report: unknown) => void)[] = [];
    const hook = await createWebhookServer({
      secret: SECRET,
      journalDir: dir,
      port: 0,
      host: '127.0.0.1',
      debounceMs: 0,
      rebuild: () => new Promise((resolve) => calls.push(resolve)),
      log: () => undefined,
    });
    hooks.push(hook);
    const body = '{"type":"post","id":3}';
    expect((await fetch(`${hook.url}/hooks/content`, { method: 'POST', body, headers: contentHeaders(SECRET, body) })).status).toBe(202);
    await vi.waitFor(() => expect(calls).toHaveLength(1));

    const metrics = await fetch(`${hook.url}/hooks/metrics`);
    expect(metrics.status).toBe(200);
    expect(metrics.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
    expect(metrics.headers.get('cache-control')).toBe('no-store');
    const during = samples(await metrics.text());
    expect(during.get('hokimiyat_rebuild_running')).toBe(1);
    expect(during.get('hokimiyat_pending_changes')).toBe(1);
    expect(during.get('hokimiyat_purge_pending_paths')).toBe(2);
    expect(during.get('hokimiyat_release_age_seconds')).toBeGreaterThanOrEqual(90);
    expect(during.get('hokimiyat_release_published_timestamp_seconds')).toBe(Date.parse(publishedAt) / 1000);
    const head = await fetch(`${hook.url}/hooks/metrics`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect((await fetch(`${hook.url}/hooks/metrics`, { method: 'POST' })).status).toBe(405);

    calls[0]!({ release: '20300101T120000Z' });
    await vi.waitFor(async () => expect(samples(await (await fetch(`${hook.url}/hooks/metrics`)).text()).get('hokimiyat_rebuild_running')).toBe(0));
    const after = samples(await (await fetch(`${hook.url}/hooks/metrics`)).text());
    expect(after.get('hokimiyat_pending_changes')).toBe(0);
    expect(after.get('hokimiyat_last_change_to_publish_seconds')).toBeLessThan(5);
    expect(after.get('hokimiyat_rebuilds_total{result="ok"}')).toBe(1);

    const signed = (await (await fetch(`${hook.url}/hooks/status`, { headers: statusHeaders(SECRET) })).json()) as DetailedStatus;
    expect(signed.release).toMatchObject({ id: '20300101T120000Z', publishedAt });
    expect(signed.purge).toMatchObject({ paths: 2, attempts: 1, lastError: 'the edge answered 500 to PURGE /a' });
    expect(signed.published).toMatchObject([{ changes: [{ type: 'post', id: 3 }], release: '20300101T120000Z', attempts: 0 }]);

    const bare = (await (await fetch(`${hook.url}/hooks/status`)).json()) as Record<string, unknown>;
    expect(Object.keys(bare).sort()).toEqual(['content', 'lastFinishedAt', 'lastStartedAt', 'lastSucceeded', 'pending', 'state']);
    // What the served release's editors' texts hold that it could not show as written, counted (its report has none here).
    expect(bare.content).toEqual({ deadLinks: 0, unavailableDocuments: 0, itemsWithRemovedElements: 0 });
  });

  it("GET /hooks/metrics reads the served release's report again only once it was replaced, not at every request", async () => {
    const id = '20300101T120000Z';
    const publishedAt = new Date(Date.now() - 60_000).toISOString();
    const dir = releases({ reports: { [id]: publishedAt }, served: id });
    const report = join(dir, 'reports', `${id}.json`);
    const written = new Date('2030-01-01T12:01:40.000Z');
    utimesSync(report, written, written);
    const hook = await createWebhookServer({ secret: SECRET, journalDir: dir, port: 0, host: '127.0.0.1', rebuild: async () => null, log: () => undefined });
    hooks.push(hook);
    const published = async () => samples(await (await fetch(`${hook.url}/hooks/metrics`)).text()).get('hokimiyat_release_published_timestamp_seconds');
    expect(await published()).toBe(Date.parse(publishedAt) / 1000);

    // Other bytes of the same size and time: a listener that reads the report at each request would see no report.
    writeFileSync(report, ' '.repeat(statSync(report).size));
    utimesSync(report, written, written);
    expect(await published()).toBe(Date.parse(publishedAt) / 1000);

    // The next rebuild's report is read.
    const later = new Date(Date.now() - 1000).toISOString();
    writeFileSync(report, JSON.stringify({ id, release: id, finishedAt: later, unchanged: true }));
    expect(await published()).toBe(Date.parse(later) / 1000);
  });
});
