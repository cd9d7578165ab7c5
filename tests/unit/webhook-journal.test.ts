/**
 * The webhook's journal (scripts/webhook/journal.ts): what it keeps on disk, and that an accepted call
 * is published across a restart, a SIGKILL within the debounce window or during a rebuild, and a SIGTERM
 * of the real `scripts/webhook.ts`; that the replay memory survives a restart; and that a call the journal
 * cannot record is refused.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { appendFileSync, chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ContentChanges as Changes } from '../../src/content/changes.ts';
import { JOURNAL_FILE, Journal } from '../../scripts/webhook/journal.ts';
import type { PendingChange, PublishedChange, Status } from '../../scripts/webhook/scheduler.ts';
import { createWebhookServer, type WebhookServer } from '../../scripts/webhook/server.ts';
import { contentHeaders, statusHeaders } from '../helpers/webhook-client.ts';
import { readJournalParts } from '../helpers/webhook-journal.ts';

const SECRET = 'journal-test-secret-0123456789';
const ROOT = new URL('../..', import.meta.url).pathname;

const dirs: string[] = [];
const children: ChildProcess[] = [];
const hooks: WebhookServer[] = [];
afterEach(async () => {
  for (const c of children.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  await Promise.all(hooks.splice(0).map((h) => h.close()));
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
const tempDir = () => {
  const d = mkdtempSync(join(tmpdir(), 'webhook-journal-'));
  dirs.push(d);
  return d;
};

interface JournalFile {
  nextId: number;
  pending: PendingChange[];
  seen: Record<string, number>;
  published: PublishedChange[];
}
const readJournal = (dir: string) => readJournalParts(dir) as unknown as JournalFile;

/**
 * A rebuild that records its calls and resolves each one once the test says so (or at once with `auto`);
 * it rejects when aborted, as the real one does.
 */
function recordingRebuild({ auto = false } = {}) {
  const calls: { changes: Changes; resolve(report: unknown): void }[] = [];
  const rebuild = (changes: Changes, signal: AbortSignal) =>
    new Promise<unknown>((resolve, reject) => {
      calls.push({ changes, resolve });
      signal.addEventListener('abort', () => reject(new Error('aborted')), { once: true });
      if (auto) resolve({ pages: 1 });
    });
  return { rebuild, calls };
}

async function startHook(journalDir: string, rebuild: (changes: Changes, signal: AbortSignal) => Promise<unknown>, debounceMs = 0) {
  const lines: string[] = [];
  const hook = await createWebhookServer({ secret: SECRET, rebuild, journalDir, port: 0, host: '127.0.0.1', debounceMs, log: (l) => lines.push(l) });
  hooks.push(hook);
  return Object.assign(hook, { lines });
}

function post(url: string, body: string, delivery?: string, now?: number) {
  return fetch(`${url}/hooks/content`, { method: 'POST', body, headers: contentHeaders(SECRET, body, { delivery, now }) });
}

async function signedStatus(url: string): Promise<Status> {
  const res = await fetch(`${url}/hooks/status`, { headers: statusHeaders(SECRET) });
  expect(res.status).toBe(200);
  return (await res.json()) as Status;
}

/** A loopback port nothing listens on (it was free a moment ago). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Starts `node <args>` and resolves once a line of its stdout matches `ready` (with the match). */
function startProcess(args: string[], env: Record<string, string>, ready: RegExp) {
  const child = spawn(process.execPath, args, { cwd: ROOT, env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let out = '';
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const match = new Promise<RegExpMatchArray>((resolve, reject) => {
    const look = () => {
      const m = out.match(ready);
      if (m) resolve(m);
    };
    child.stdout!.on('data', (d) => ((out += d), look()));
    child.stderr!.on('data', (d) => (out += d));
    void exited.then((code) => reject(new Error(`exited with ${code} before ${ready}:\n${out}`)));
  });
  return { child, match, exited, output: () => out };
}

describe('the journal file', () => {
  it('is created on open, and keeps pending changes, the replay memory and the next id across a reopen', async () => {
    const dir = join(tempDir(), 'releases'); // not there yet
    const log: string[] = [];
    const journal = await Journal.open(dir, (l) => log.push(l));
    expect(readJournal(dir)).toEqual({ version: 2, nextId: 1, pending: [], seen: {}, published: [] });
    // One line per part, so that damage to one does not lose the others.
    expect(
      readFileSync(join(dir, JOURNAL_FILE), 'utf8')
        .split('\n')
        .map((l) => Object.keys(l ? JSON.parse(l) : {})),
    ).toEqual([['version', 'nextId'], ['seen'], ['pending'], ['published'], []]);
    const now = Date.now();
    const a = journal.entry([{ type: 'post', id: 3 }], now);
    const b = journal.entry('all', now);
    expect([a.id, b.id]).toEqual([1, 2]);
    await journal.exclusive(() => journal.write({ pending: [a, { ...b, attempts: 2, lastError: 'API down' }], published: [] }, ['sig:abc', 'id:d-1'], now));
    expect(journal.replay.has(['id:d-1'], now)).toBe(true);
    // No temporary file is left beside it.
    expect(readdirSync(dir)).toEqual([JOURNAL_FILE]);

    writeFileSync(join(dir, `${JOURNAL_FILE}.tmp-999999`), '{"half": '); // left by a listener killed while writing
    const again = await Journal.open(dir, (l) => log.push(l));
    expect(readdirSync(dir)).toEqual([JOURNAL_FILE]);
    expect(again.loaded).toEqual([a, { ...b, attempts: 2, lastError: 'API down' }]);
    expect(again.replay.has(['sig:abc'], now)).toBe(true);
    expect(again.replay.has(['sig:abc'], now + 11 * 60_000)).toBe(false);
    expect(again.entry('all', now).id).toBe(3);
    expect(log).toEqual([]);
  });

  it('moves a damaged journal aside with a line saying where and what it kept', async () => {
    const pending = { id: 4, changes: [{ type: 'post', id: 2 }], acceptedAt: '2030-01-01T00:00:00.000Z', attempts: 0, lastError: null };
    const v2 = (parts: { seen?: string; pending?: string }) =>
      ['{"version":2,"nextId":5}', parts.seen ?? '{"seen":{"id:d-7":9999999999999}}', parts.pending ?? `{"pending":[${JSON.stringify(pending)}]}`, '{"published":[]}', ''].join(
        '\n',
      );
    const cases = [
      // text, pending changes kept, replay memory kept
      ['{"version":1,"pending":[', 0, false],
      ['[]', 0, false],
      ['{"version":1,"nextId":1,"pending":[{"id":1,"changes":[{"type":"blog"}]}],"seen":{"id:d-7":9999999999999}}', 0, true],
      [v2({ pending: '{"pending":[{"id":4,"chan' }), 0, true],
      [v2({ seen: '{"seen":{"id:d-7":99999' }), 1, false],
      [`${v2({})}x`, 1, true],
    ] as const;
    for (const [text, kept, memory] of cases) {
      const dir = tempDir();
      writeFileSync(join(dir, JOURNAL_FILE), text);
      const log: string[] = [];
      const journal = await Journal.open(dir, (l) => log.push(l));
      expect(journal.loaded, text).toHaveLength(kept);
      expect(journal.replay.has(['id:d-7'], Date.now()), text).toBe(memory);
      // Without the memory, calls signed before this start are refused.
      expect(journal.replay.signedBeforeLoss(String(Math.floor(Date.now() / 1000) - 1), Date.now()), text).toBe(!memory);
      const aside = readdirSync(dir).find((f) => f.startsWith(`${JOURNAL_FILE}.damaged-`));
      expect(aside, text).toBeDefined();
      expect(readFileSync(join(dir, aside!), 'utf8')).toBe(text);
      expect(log, text).toHaveLength(1);
      expect(log[0]).toContain(`the journal ${join(dir, JOURNAL_FILE)} was damaged`);
      expect(log[0]).toContain(`moved it to ${join(dir, aside!)}`);
      expect(log[0]).toMatch(kept ? /its 1 pending change\(s\) were read/ : /its pending changes could not be read/);
      expect(log[0]).toMatch(memory ? /memory of the calls accepted lately was read/ : /memory of the calls accepted lately is lost, so calls signed before \S+ are refused/);
      expect(readJournal(dir).pending).toHaveLength(kept);
    }
  });
});

describe('the history of published changes', () => {
  const published = (id: number): PublishedChange => ({
    id,
    changes: [{ type: 'post', id }],
    acceptedAt: '2030-01-01T00:00:00.000Z',
    publishedAt: '2030-01-01T00:00:12.500Z',
    release: '20300101T000001Z',
    secondsToPublish: 12.5,
    attempts: 0,
  });

  it('is read back on open; a journal without one (written before it was kept) loads with none', async () => {
    const dir = tempDir();
    const journal = await Journal.open(dir, () => undefined);
    await journal.exclusive(() => journal.write({ pending: [], published: [published(1), published(2)] }));
    expect((await Journal.open(dir, () => undefined)).published).toEqual([published(1), published(2)]);

    writeFileSync(join(dir, JOURNAL_FILE), JSON.stringify({ version: 1, nextId: 3, pending: [], seen: {} }));
    const old = await Journal.open(dir, () => undefined);
    expect(old.published).toEqual([]);
    expect(readJournal(dir)).toMatchObject({ nextId: 3, published: [] });
  });

  it('drops an entry it cannot read, and keeps the journal and its pending changes', async () => {
    const dir = tempDir();
    const pending: PendingChange = { id: 9, changes: 'all', acceptedAt: '2030-01-01T00:00:00.000Z', attempts: 0, lastError: null };
    const bad = [{ ...published(3), secondsToPublish: -1 }, { ...published(4), changes: [{ type: 'blog' }] }, { ...published(5), publishedAt: 'yesterday' }, 'x'];
    writeFileSync(join(dir, JOURNAL_FILE), JSON.stringify({ version: 1, nextId: 10, pending: [pending], seen: {}, published: [published(1), ...bad, published(2)] }));
    const log: string[] = [];
    const journal = await Journal.open(dir, (l) => log.push(l));
    expect(journal.loaded).toEqual([pending]);
    expect(journal.published).toEqual([published(1), published(2)]);
    expect(log).toEqual([]);
    expect(readdirSync(dir)).toEqual([JOURNAL_FILE]);
  });

  it('survives a restart of the listener: the signed status still shows how long each change took', async () => {
    const dir = tempDir();
    const first = await startHook(dir, recordingRebuild({ auto: true }).rebuild);
    expect((await post(first.url, '{"type":"post","id":31}')).status).toBe(202);
    await vi.waitFor(() => expect(readJournal(dir).published).toHaveLength(1));
    await first.close();

    const second = await startHook(dir, recordingRebuild({ auto: true }).rebuild);
    const status = await signedStatus(second.url);
    expect(status.published).toEqual([
      {
        id: 1,
        changes: [{ type: 'post', id: 31 }],
        acceptedAt: expect.any(String),
        publishedAt: expect.any(String),
        release: null,
        secondsToPublish: expect.any(Number),
        attempts: 0,
      },
    ]);
    expect(status.published[0]!.secondsToPublish).toBeLessThan(5);
    // Counters are the listener's own since it started.
    expect(status.rebuilds).toEqual({ ok: 0, failed: 0 });
  });
});

describe('accepted means published, across restarts', () => {
  it('replays the journal on start: the changes are rebuilt at once and cleared once that succeeded', async () => {
    const dir = tempDir();
    // A first listener accepts two calls within its (long) window and is stopped before rebuilding.
    const first = await startHook(dir, recordingRebuild().rebuild, 60_000);
    expect((await post(first.url, '{"type":"post","id":5}')).status).toBe(202);
    expect((await post(first.url, '{"type":"menu"}')).status).toBe(202);
    await first.close();
    expect(readJournal(dir).pending.map((e) => e.changes)).toEqual([[{ type: 'post', id: 5 }], [{ type: 'menu' }]]);

    const fake = recordingRebuild();
    const second = await startHook(dir, fake.rebuild, 60_000);
    // At once, not after the window.
    await vi.waitFor(() => expect(fake.calls).toHaveLength(1));
    expect(fake.calls[0]!.changes).toEqual([{ type: 'post', id: 5 }, { type: 'menu' }]);
    expect(second.lines.some((l) => l.includes('replaying 2 pending change(s)'))).toBe(true);
    // Until the rebuild resolves, the journal still holds them.
    expect(readJournal(dir).pending).toHaveLength(2);
    expect((await signedStatus(second.url)).pending).toHaveLength(2);
    fake.calls[0]!.resolve({ pages: 2 });
    await vi.waitFor(() => expect(readJournal(dir).pending).toEqual([]));
    expect((await signedStatus(second.url)).pending).toEqual([]);
  });

  it('remembers accepted deliveries across a restart: the same call to a new listener is refused with 409', async () => {
    const dir = tempDir();
    const body = '{"type":"page","id":4}';
    const headers = contentHeaders(SECRET, body, { delivery: 'delivery-77' });
    const first = await startHook(dir, recordingRebuild({ auto: true }).rebuild);
    expect((await fetch(`${first.url}/hooks/content`, { method: 'POST', body, headers })).status).toBe(202);
    await first.close();

    const fake = recordingRebuild({ auto: true });
    const second = await startHook(dir, fake.rebuild);
    const replay = await fetch(`${second.url}/hooks/content`, { method: 'POST', body, headers });
    expect(replay.status).toBe(409);
    // The same delivery id freshly signed is a repeat too; another id is a new call.
    expect((await post(second.url, body, 'delivery-77', Date.now() + 1000)).status).toBe(409);
    expect((await post(second.url, body, 'delivery-78', Date.now() + 1000)).status).toBe(202);
  });

  it('answers 503 and accepts nothing when the journal cannot be written; the same call is taken once it can', async () => {
    const dir = tempDir();
    const fake = recordingRebuild();
    const hook = await startHook(dir, fake.rebuild);
    // A folder where the journal file should be: the write's rename fails.
    rmSync(join(dir, JOURNAL_FILE));
    mkdirSync(join(dir, JOURNAL_FILE));
    writeFileSync(join(dir, JOURNAL_FILE, 'blocker'), '');
    const body = '{"type":"post","id":1}';
    const headers = contentHeaders(SECRET, body, { delivery: 'd-503' });
    const refused = await fetch(`${hook.url}/hooks/content`, { method: 'POST', body, headers });
    expect(refused.status).toBe(503);
    expect(((await refused.json()) as { error: string }).error).toMatch(/nothing was accepted/);
    expect(hook.lines.some((l) => l.includes('cannot write the journal') && l.includes('refused with 503'))).toBe(true);
    expect(hook.status()).toMatchObject({ state: 'idle', pending: [] });
    expect(readdirSync(dir).filter((f) => f.includes('.tmp-'))).toEqual([]);
    await new Promise((r) => setTimeout(r, 50));
    expect(fake.calls).toHaveLength(0);

    rmSync(join(dir, JOURNAL_FILE), { recursive: true });
    // The refused call was not remembered: sent again, it is accepted.
    expect((await fetch(`${hook.url}/hooks/content`, { method: 'POST', body, headers })).status).toBe(202);
    await vi.waitFor(() => expect(fake.calls).toHaveLength(1));
    expect(readJournal(dir).pending).toHaveLength(1);
  });
});

describe('a damaged journal', () => {
  it('with one stray byte appended: the next listener still refuses a replayed call, rebuilds what was pending, and says the journal was damaged', async () => {
    const dir = tempDir();
    const body = '{"type":"page","id":4}';
    const headers = contentHeaders(SECRET, body, { delivery: 'delivery-91' });
    const first = await startHook(dir, recordingRebuild().rebuild, 60_000);
    expect((await fetch(`${first.url}/hooks/content`, { method: 'POST', body, headers })).status).toBe(202);
    await first.close();
    appendFileSync(join(dir, JOURNAL_FILE), 'x');

    const fake = recordingRebuild();
    const second = await startHook(dir, fake.rebuild, 60_000);
    expect((await fetch(`${second.url}/hooks/content`, { method: 'POST', body, headers })).status).toBe(409);
    await vi.waitFor(() => expect(fake.calls.map((c) => c.changes)).toEqual([[{ type: 'page', id: 4 }]]));
    expect(second.lines.filter((l) => l.includes(`the journal ${join(dir, JOURNAL_FILE)} was damaged`))).toHaveLength(1);
  });

  it('that cannot be read at all: calls signed before the listener started are refused, also after another restart; new ones are taken', async () => {
    const dir = tempDir();
    const body = '{"type":"post","id":8}';
    const headers = contentHeaders(SECRET, body, { delivery: 'delivery-92' });
    const first = await startHook(dir, recordingRebuild({ auto: true }).rebuild);
    expect((await fetch(`${first.url}/hooks/content`, { method: 'POST', body, headers })).status).toBe(202);
    await first.close();
    writeFileSync(join(dir, JOURNAL_FILE), 'not a journal');

    const second = await startHook(dir, recordingRebuild({ auto: true }).rebuild);
    const replay = await fetch(`${second.url}/hooks/content`, { method: 'POST', body, headers });
    expect(replay.status).toBe(401);
    expect(((await replay.json()) as { error: string }).error).toMatch(/signed before this listener started/);
    const line = second.lines.find((l) => l.includes('was damaged'));
    expect(line).toMatch(/calls signed before .* are refused/);
    // Signed after the start: taken.
    expect((await post(second.url, '{"type":"post","id":9}', 'delivery-93', Date.now() + 1000)).status).toBe(202);
    await second.close();

    const third = await startHook(dir, recordingRebuild({ auto: true }).rebuild);
    expect((await fetch(`${third.url}/hooks/content`, { method: 'POST', body, headers })).status).toBe(401);
  });
});

describe('who may read what the listener writes', () => {
  it("the journal is its owner's alone, also when it replaces one an older listener left world-readable, and so is a damaged one moved aside", async () => {
    const dir = tempDir();
    const file = join(dir, JOURNAL_FILE);
    writeFileSync(file, JSON.stringify({ version: 1, nextId: 1, pending: [], seen: {}, published: [] }));
    chmodSync(file, 0o644);
    const mode = (path: string) => statSync(path).mode & 0o777;
    const hook = await startHook(dir, recordingRebuild().rebuild, 60_000);
    expect(mode(file)).toBe(0o600);
    expect((await post(hook.url, '{"type":"menu"}', 'mode-1')).status).toBe(202);
    expect(mode(file)).toBe(0o600);
    await hook.close();

    chmodSync(file, 0o644);
    appendFileSync(file, 'x');
    await startHook(dir, recordingRebuild().rebuild, 60_000);
    const aside = readdirSync(dir).filter((f) => f.startsWith(`${JOURNAL_FILE}.`));
    expect(aside).toHaveLength(1);
    expect(mode(join(dir, aside[0]!))).toBe(0o600);
    expect(mode(file)).toBe(0o600);
  });
});

describe('killed and restarted', () => {
  const helper = join(ROOT, 'tests/helpers/webhook-process.ts');

  for (const [when, debounceMs, ready] of [
    ['within the debounce window', '60000', /POST \/hooks\/content 202/],
    ['during the rebuild', '0', /rebuild started/],
  ] as const) {
    it(`a listener killed with SIGKILL ${when}: the next one on the same journal rebuilds the change once`, async () => {
      const dir = tempDir();
      const proc = startProcess([helper, dir, debounceMs], { WEBHOOK_SECRET: SECRET }, /listening (http:\/\/\S+)/);
      const url = (await proc.match)[1]!;
      expect((await post(url, '{"type":"post","id":12}', 'kill-1')).status).toBe(202);
      await vi.waitFor(() => expect(proc.output()).toMatch(ready), { timeout: 5000 });
      proc.child.kill('SIGKILL');
      await proc.exited;

      const fake = recordingRebuild({ auto: true });
      const next = await startHook(dir, fake.rebuild);
      await vi.waitFor(() => expect(readJournal(dir).pending).toEqual([]));
      expect(fake.calls.map((c) => c.changes)).toEqual([[{ type: 'post', id: 12 }]]);
      // And it is not sent again, nor taken twice.
      expect((await post(next.url, '{"type":"post","id":12}', 'kill-1')).status).toBe(409);
      await new Promise((r) => setTimeout(r, 100));
      expect(fake.calls).toHaveLength(1);
    });
  }

  it('scripts/webhook.ts keeps a call whose rebuild failed in its signed status and, after SIGTERM, in the journal', async () => {
    const dir = tempDir();
    const env = {
      RELEASES_DIR: dir,
      // Nothing answers there: the real rebuild fails in its pull, before building anything.
      API_BASE: `http://127.0.0.1:${await closedPort()}`,
      SITE_URL: 'https://qorakul.example',
      HCAPTCHA_SITEKEY: '10000000-ffff-ffff-ffff-000000000001',
      WEBHOOK_SECRET: SECRET,
      WEBHOOK_PORT: '0',
      WEBHOOK_DEBOUNCE_MS: '0',
    };
    const proc = startProcess(['scripts/webhook.ts'], env, /listening on (http:\/\/[^/\s]+)\/hooks\/content/);
    const url = (await proc.match)[1]!;
    expect((await post(url, '{"type":"gallery","id":3}', 'real-1')).status).toBe(202);
    let status: Status | undefined;
    await vi.waitFor(
      async () => {
        status = await signedStatus(url);
        expect(status.pending[0]?.attempts).toBeGreaterThan(0);
      },
      { timeout: 20_000, interval: 100 },
    );
    expect(status!.pending).toMatchObject([{ changes: [{ type: 'gallery', id: 3 }], lastError: expect.any(String) }]);
    expect(status!.lastError).toBe(status!.pending[0]!.lastError);
    expect(status!.nextAttemptAt).toEqual(expect.any(String));
    const unsigned = (await (await fetch(`${url}/hooks/status`)).json()) as Record<string, unknown>;
    expect(unsigned).toMatchObject({ pending: 1, lastSucceeded: false });
    expect(JSON.stringify(unsigned)).not.toContain(env.API_BASE);

    proc.child.kill('SIGTERM');
    expect(await proc.exited).toBe(0);
    expect(readJournal(dir).pending).toMatchObject([{ changes: [{ type: 'gallery', id: 3 }], attempts: expect.any(Number) }]);

    const fake = recordingRebuild({ auto: true });
    await startHook(dir, fake.rebuild);
    await vi.waitFor(() => expect(readJournal(dir).pending).toEqual([]));
    expect(fake.calls.map((c) => c.changes)).toEqual([[{ type: 'gallery', id: 3 }]]);
    expect(existsSync(join(dir, 'current'))).toBe(false);
  }, 60_000);
});
