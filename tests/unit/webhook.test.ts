/** The webhook's HTTP side (scripts/webhook/server.ts) with a rebuild the tests finish by hand. */
import { createHmac } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { mergeChanges, type ContentChanges as Changes } from '../../src/content/changes.ts';
import type { DetailedStatus } from '../../scripts/webhook/freshness.ts';
import { clientKey, createWebhookServer, MAX_CONNECTIONS_PER_CLIENT, parseChanges, type WebhookOptions, type WebhookServer } from '../../scripts/webhook/server.ts';
import { sign, verifySignature } from '../../scripts/webhook/signature.ts';
import { contentHeaders, statusHeaders } from '../helpers/webhook-client.ts';
import { readJournalParts } from '../helpers/webhook-journal.ts';
import { idleStatus } from '../helpers/webhook-status.ts';

const SECRET = 'test-secret-0123456789';
const MAX = 64 * 1024;

interface Call {
  changes: Changes;
  signal: AbortSignal;
  resolve(report: unknown): void;
  reject(error: unknown): void;
}

/**
 * A rebuild the test finishes by hand; it records every call and how many run at once. Unless
 * `honourAbort` is false it rejects as soon as its signal aborts, like a well-behaved rebuild.
 */
function controlledRebuild({ honourAbort = true } = {}) {
  const calls: Call[] = [];
  const waiters: { n: number; wake(): void }[] = [];
  let active = 0;
  let maxActive = 0;
  const rebuild = (changes: Changes, signal: AbortSignal) =>
    new Promise<unknown>((resolve, reject) => {
      active++;
      maxActive = Math.max(maxActive, active);
      calls.push({ changes, signal, resolve, reject });
      if (honourAbort) signal.addEventListener('abort', () => reject(signal.reason), { once: true });
      for (const w of waiters.filter((w) => calls.length >= w.n)) w.wake();
    }).finally(() => active--);
  /** Resolves with the n-th call (1-based) once it has been made. */
  const call = (n: number, timeoutMs = 5000): Promise<Call> =>
    calls.length >= n
      ? Promise.resolve(calls[n - 1]!)
      : new Promise((resolve, reject) => {
          const timer = setTimeout(() => reject(new Error(`rebuild #${n} was not called within ${timeoutMs} ms`)), timeoutMs);
          waiters.push({ n, wake: () => (clearTimeout(timer), resolve(calls[n - 1]!)) });
        });
  return { rebuild, calls, call, maxActive: () => maxActive };
}

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A listener with a journal of its own; a failed rebuild is retried only after a minute (tests that want a retry call again). */
async function start(rebuild: WebhookOptions['rebuild'], debounceMs = 20): Promise<WebhookServer & { lines: string[]; journalDir: string }> {
  const lines: string[] = [];
  const journalDir = mkdtempSync(join(tmpdir(), 'webhook-test-'));
  dirs.push(journalDir);
  const retry = { firstMs: 60_000, maxMs: 60_000 };
  const hook = await createWebhookServer({ secret: SECRET, rebuild, journalDir, port: 0, host: '127.0.0.1', debounceMs, retry, log: (l) => lines.push(l) });
  return { ...hook, lines, journalDir };
}

const journalOf = (hook: { journalDir: string }) => readJournalParts(hook.journalDir) as { pending: { changes: Changes; attempts: number; lastError: string | null }[] };

/** Runs `body` against a fresh server and always closes it. */
async function withServer(debounceMs: number, body: (hook: WebhookServer & { lines: string[]; journalDir: string }, fake: ReturnType<typeof controlledRebuild>) => Promise<void>) {
  const fake = controlledRebuild();
  const hook = await start(fake.rebuild, debounceMs);
  try {
    await body(hook, fake);
  } finally {
    await hook.close(); // aborts a running rebuild, which the fake honours
  }
}

const nowS = () => Math.floor(Date.now() / 1000);

/** The signature of a `POST /hooks/content` of `body` without a delivery id. */
const signContent = (secret: string, body: string, timestamp: number | string) => sign(secret, { method: 'POST', path: '/hooks/content', timestamp, body });

/** A call signed as docs/webhook.md says (no delivery id), or with the given signature, or none (`null`). */
function post(hook: WebhookServer, body: string, signature?: string | null, extra: Record<string, string> = {}) {
  const timestamp = String(nowS());
  const auth: Record<string, string> = signature === null ? {} : { 'x-hook-timestamp': timestamp, 'x-hub-signature-256': signature ?? signContent(SECRET, body, timestamp) };
  return fetch(`${hook.url}/hooks/content`, { method: 'POST', body, headers: { 'content-type': 'application/json', ...auth, ...extra } });
}

/** The operator's (signed) view of the status. */
async function getStatus(hook: WebhookServer): Promise<DetailedStatus> {
  const res = await fetch(`${hook.url}/hooks/status`, { headers: statusHeaders(SECRET) });
  expect(res.status).toBe(200);
  return (await res.json()) as DetailedStatus;
}

/** Polls the status endpoint until `ok` holds (bounded). */
async function statusUntil(hook: WebhookServer, ok: (s: DetailedStatus) => boolean, timeoutMs = 5000): Promise<DetailedStatus> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const s = await getStatus(hook);
    if (ok(s)) return s;
    if (Date.now() > deadline) throw new Error(`status never matched; last: ${JSON.stringify(s)}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('sign / verifySignature / parseChanges', () => {
  it('signs the timestamp, method, path, delivery id and exact bytes, and verifies with or without the sha256= prefix', () => {
    const call = { method: 'POST', path: '/hooks/content', timestamp: '1700000000', delivery: 'd-1', body: '{"type":"post"}' };
    const sig = sign(SECRET, call);
    expect(sig).toMatch(/^sha256=[0-9a-f]{64}$/);
    // The documented recipe: HMAC-SHA256 of "<timestamp>\n<METHOD>\n<path>\n<delivery id>\n<body>".
    expect(sig).toBe(`sha256=${createHmac('sha256', SECRET).update('1700000000\nPOST\n/hooks/content\nd-1\n{"type":"post"}').digest('hex')}`);
    // Without a delivery id, its line is empty.
    expect(sign(SECRET, { ...call, delivery: undefined })).toBe(
      `sha256=${createHmac('sha256', SECRET).update('1700000000\nPOST\n/hooks/content\n\n{"type":"post"}').digest('hex')}`,
    );
    const received = { ...call, body: Buffer.from(call.body) };
    expect(verifySignature(SECRET, received, sig)).toBe(true);
    expect(verifySignature(SECRET, received, sig.slice('sha256='.length))).toBe(true);
    for (const [what, other] of [
      ['timestamp', { timestamp: '1700000001' }],
      ['no timestamp', { timestamp: undefined }],
      ['body', { body: Buffer.from('{"type":"post"} ') }],
      ['method', { method: 'GET' }],
      ['path', { path: '/hooks/status' }],
      ['delivery id', { delivery: 'd-2' }],
      ['no delivery id', { delivery: undefined }],
    ] as const) {
      expect(verifySignature(SECRET, { ...received, ...other }, sig), what).toBe(false);
    }
    expect(verifySignature('other-secret', received, sig)).toBe(false);
    // The worked example of docs/webhook.md, which senders check their code against.
    const key = '0123456789abcdef0123456789abcdef';
    const example = { method: 'POST', path: '/hooks/content', timestamp: 1700000000, delivery: '3f1c9a52-delivery-1', body: '{"type":"post","id":123}' };
    expect(sign(key, example)).toBe('sha256=33c2231c6aecd0dfb9f0c3a1d8e1a4a388d424d7ea29d376c577b376b13ad210');
    expect(sign(key, { method: 'GET', path: '/hooks/status', timestamp: 1700000000, body: '' })).toBe('sha256=292463b20d3b0b4ba382f85766bafe7c931d8f877ec6b395700823cc8670edee');
    expect(verifySignature(SECRET, received, undefined)).toBe(false);
    expect(verifySignature(SECRET, received, 'sha256=abc')).toBe(false);
  });

  it('reads the body meaning and merges changes', () => {
    expect(parseChanges('')).toBe('all');
    expect(parseChanges(' {} ')).toBe('all');
    expect(parseChanges('{"type":"post","id":5}')).toEqual([{ type: 'post', id: 5 }]);
    expect(parseChanges('[{"type":"menu"},{"type":"menu"},{"type":"page","id":2}]')).toEqual([{ type: 'menu' }, { type: 'page', id: 2 }]);
    for (const bad of ['{', '[]', '{"type":"blog"}', '{"type":"post","id":"5"}', '{"type":"post","id":1.5}', '[{"type":"post"},3]', '"post"', 'null']) {
      expect(() => parseChanges(bad), bad).toThrow();
    }
    expect(mergeChanges([{ type: 'post', id: 1 }], [{ type: 'post', id: 1 }, { type: 'post' }])).toEqual([{ type: 'post', id: 1 }, { type: 'post' }]);
    expect(mergeChanges([{ type: 'post', id: 1 }], 'all')).toBe('all');
    expect(mergeChanges('all', [{ type: 'menu' }])).toBe('all');
  });
});

describe('requests', () => {
  it('accepts a signed call with 202 at once, without waiting for the rebuild', () =>
    withServer(0, async (hook, fake) => {
      const res = await post(hook, '{"type":"post","id":7}');
      expect(res.status).toBe(202);
      expect(await res.json()).toEqual({ queued: true });
      const first = await fake.call(1);
      expect(first.changes).toEqual([{ type: 'post', id: 7 }]);
      // The rebuild is still running and a second call is still answered at once.
      const bare = '{"type":"menu"}';
      const ts = String(nowS());
      const again = await post(hook, bare, signContent(SECRET, bare, ts).slice('sha256='.length), { 'x-hook-timestamp': ts });
      expect(again.status).toBe(202);
      expect(hook.lines.some((l) => l.includes('POST /hooks/content 202'))).toBe(true);
      expect(hook.lines.some((l) => l.includes('rebuild started'))).toBe(true);
    }));

  it('refuses a missing or wrong signature with 401', () =>
    withServer(0, async (hook, fake) => {
      const missing = await post(hook, '{"type":"post"}', null);
      expect(missing.status).toBe(401);
      expect(await missing.json()).toHaveProperty('error');
      const ts = nowS();
      const wrong = await post(hook, '{"type":"post"}', signContent('not-the-secret', '{"type":"post"}', ts), { 'x-hook-timestamp': String(ts) });
      expect(wrong.status).toBe(401);
      const otherBody = await post(hook, '{"type":"page"}', signContent(SECRET, '{"type":"post"}', ts), { 'x-hook-timestamp': String(ts) });
      // The delivery id is signed too.
      const otherId = await post(hook, '{"type":"post"}', signContent(SECRET, '{"type":"post"}', ts), { 'x-hook-timestamp': String(ts), 'x-hook-delivery': 'added-later' });
      expect(otherId.status).toBe(401);
      expect(otherBody.status).toBe(401);
      const garbage = await post(hook, '{"type":"post"}', 'sha256=zz');
      expect(garbage.status).toBe(401);
      // Signature is checked before the body is read as JSON.
      expect((await post(hook, '{not json', null)).status).toBe(401);
      expect((await getStatus(hook)).state).toBe('idle');
      expect(fake.calls).toHaveLength(0);
    }));

  it('answers 413 to a body over 64 KiB, declared or streamed, and takes exactly 64 KiB', () =>
    withServer(0, async (hook, fake) => {
      const big = '{"type":"post"}'.padEnd(MAX + 1, ' ');
      const declared = await post(hook, big);
      expect(declared.status).toBe(413);
      expect(await declared.json()).toHaveProperty('error');

      // No content-length: the server must stop reading once past the limit, not after the whole body.
      let sent = 0;
      const total = 1024 * 1024;
      const stream = new ReadableStream<Uint8Array>({
        pull(controller) {
          if (sent >= total) return controller.close();
          sent += 16 * 1024;
          controller.enqueue(new Uint8Array(16 * 1024).fill(0x20));
        },
      });
      const streamed = await fetch(`${hook.url}/hooks/content`, { method: 'POST', body: stream, duplex: 'half' } as RequestInit);
      expect(streamed.status).toBe(413);
      await streamed.body?.cancel();

      const exact = '{"type":"post"}'.padEnd(MAX, ' ');
      expect((await post(hook, exact)).status).toBe(202);
      expect((await fake.call(1)).changes).toEqual([{ type: 'post' }]);
    }));

  it('answers 405 with Allow to other methods on /hooks/content, and 404 elsewhere', () =>
    withServer(0, async (hook, fake) => {
      for (const method of ['GET', 'PUT', 'DELETE']) {
        const res = await fetch(`${hook.url}/hooks/content`, { method });
        expect(res.status, method).toBe(405);
        expect(res.headers.get('allow')).toBe('POST');
        await res.body?.cancel();
      }
      const putStatus = await fetch(`${hook.url}/hooks/status`, { method: 'PUT' });
      expect(putStatus.status).toBe(405);
      expect(putStatus.headers.get('allow')).toContain('GET');
      await putStatus.body?.cancel();
      for (const path of ['/', '/hooks', '/hooks/content/x', '/hooks/other']) {
        const res = await fetch(`${hook.url}${path}`, { method: 'POST' });
        expect(res.status, path).toBe(404);
        await res.body?.cancel();
      }
      expect(fake.calls).toHaveLength(0);
    }));

  it('answers 400 to malformed JSON or an unknown type, after a valid signature', () =>
    withServer(0, async (hook, fake) => {
      for (const body of ['{"type":', '{"type":"blog"}', '[{"type":"post"},{"type":"nope"}]', '{"type":"post","id":"x"}', '[]', '42']) {
        const res = await post(hook, body);
        expect(res.status, body).toBe(400);
        expect(((await res.json()) as { error: string }).error, body).toBeTruthy();
      }
      expect((await getStatus(hook)).state).toBe('idle');
      expect(fake.calls).toHaveLength(0);
    }));
});

describe('scheduling', () => {
  it('reads an empty body and {} as "everything changed"', () =>
    withServer(0, async (hook, fake) => {
      expect((await post(hook, '')).status).toBe(202);
      expect((await fake.call(1)).changes).toBe('all');
      fake.calls[0]!.resolve({});
      await statusUntil(hook, (s) => s.state === 'idle');
      expect((await post(hook, '{}')).status).toBe(202);
      expect((await fake.call(2)).changes).toBe('all');
    }));

  it('coalesces calls within the debounce window into one rebuild with the union of changes', () =>
    // The window is generous so that three local requests always fall inside it.
    withServer(200, async (hook, fake) => {
      const responses = await Promise.all([post(hook, '{"type":"post","id":1}'), post(hook, '[{"type":"menu"},{"type":"post","id":1}]'), post(hook, '{"type":"page","id":3}')]);
      expect(responses.map((r) => r.status)).toEqual([202, 202, 202]);
      const call = await fake.call(1);
      expect(call.changes).toEqual(expect.arrayContaining([{ type: 'post', id: 1 }, { type: 'menu' }, { type: 'page', id: 3 }]));
      expect(call.changes).toHaveLength(3);
      call.resolve({ ok: true });
      await statusUntil(hook, (s) => s.state === 'idle');
      expect(fake.calls).toHaveLength(1);
    }));

  it('turns the whole batch into "all" when any call says everything changed', () =>
    withServer(200, async (hook, fake) => {
      await Promise.all([post(hook, '{"type":"post","id":1}'), post(hook, ''), post(hook, '{"type":"menu"}')]);
      expect((await fake.call(1)).changes).toBe('all');
    }));

  it('never runs two rebuilds at once: calls during a rebuild make exactly one follow-up', () =>
    withServer(20, async (hook, fake) => {
      expect((await post(hook, '{"type":"post","id":1}')).status).toBe(202);
      const first = await fake.call(1);
      expect(first.changes).toEqual([{ type: 'post', id: 1 }]);

      expect((await post(hook, '{"type":"menu"}')).status).toBe(202);
      expect((await post(hook, '[{"type":"page","id":2},{"type":"menu"}]')).status).toBe(202);
      // Well past the follow-up's own window, the first rebuild still runs alone.
      await sleep(80);
      expect(fake.calls).toHaveLength(1);
      const during = await getStatus(hook);
      expect(during.state).toBe('building');
      expect(during.queue).toEqual([{ type: 'menu' }, { type: 'page', id: 2 }]);

      expect((await post(hook, '{"type":"employee","id":4}')).status).toBe(202);
      first.resolve({ pages: 1 });
      const second = await fake.call(2);
      expect(second.changes).toEqual([{ type: 'menu' }, { type: 'page', id: 2 }, { type: 'employee', id: 4 }]);
      second.resolve({ pages: 2 });
      const after = await statusUntil(hook, (s) => s.state === 'idle');
      expect(after.queue).toBeNull();
      expect(after.lastReport).toEqual({ pages: 2 });
      expect(fake.calls).toHaveLength(2);
      expect(fake.maxActive()).toBe(1);
    }));

  it('reports idle, waiting, building and the last report in /hooks/status', async () => {
    // A long window, so "waiting" is observed reliably; close() then cancels it.
    await withServer(60_000, async (hook, fake) => {
      const idle = await getStatus(hook);
      expect(idle).toEqual({ ...idleStatus(), release: null, purge: null });
      await post(hook, '{"type":"gallery","id":9}');
      const waiting = await getStatus(hook);
      expect(waiting.state).toBe('waiting');
      expect(waiting.queue).toEqual([{ type: 'gallery', id: 9 }]);
      expect(waiting.pending).toEqual([
        { id: 1, changes: [{ type: 'gallery', id: 9 }], acceptedAt: expect.any(String), attempts: 0, lastError: null, ageSeconds: expect.any(Number) },
      ]);
      const { release, purge, ...scheduled } = waiting;
      expect(hook.status()).toEqual({ ...scheduled, pending: waiting.pending.map(({ ageSeconds, ...e }) => e) });
      expect(fake.calls).toHaveLength(0);
    });

    await withServer(0, async (hook, fake) => {
      await post(hook, '{"type":"survey"}');
      const call = await fake.call(1);
      const building = await getStatus(hook);
      expect(building.state).toBe('building');
      expect(building.queue).toBeNull();
      expect(building.lastStartedAt).toEqual(expect.any(String));
      expect(building.lastFinishedAt).toBeNull();
      call.resolve({ pages: 42, changed: ['survey'] });
      const done = await statusUntil(hook, (s) => s.state === 'idle');
      expect(done.lastReport).toEqual({ pages: 42, changed: ['survey'] });
      expect(done.lastError).toBeNull();
      expect(Date.parse(done.lastFinishedAt!)).toBeGreaterThanOrEqual(Date.parse(done.lastStartedAt!));
      expect(hook.lines.some((l) => l.includes('rebuild finished'))).toBe(true);
    });
  });

  it('records a failing rebuild, keeps its change pending for a retry, and publishes it with the next call', () =>
    withServer(0, async (hook, fake) => {
      await post(hook, '{"type":"post"}');
      (await fake.call(1)).reject(new Error('API answered 500 on /api/menu'));
      const failed = await statusUntil(hook, (s) => s.state !== 'building' && s.lastError !== null);
      expect(failed).toMatchObject({ state: 'waiting', queue: [{ type: 'post' }], lastError: 'API answered 500 on /api/menu', lastReport: null });
      expect(failed.pending).toEqual([
        { id: 1, changes: [{ type: 'post' }], acceptedAt: expect.any(String), attempts: 1, lastError: 'API answered 500 on /api/menu', ageSeconds: expect.any(Number) },
      ]);
      // The retry is a minute away (this test's backoff).
      expect(Date.parse(failed.nextAttemptAt!) - Date.now()).toBeGreaterThan(50_000);
      expect(hook.lines.some((l) => l.includes('rebuild failed'))).toBe(true);
      await vi.waitFor(() => expect(journalOf(hook).pending).toMatchObject([{ changes: [{ type: 'post' }], attempts: 1, lastError: 'API answered 500 on /api/menu' }]));

      // A new call does not wait for the backoff, and its rebuild takes the failed change along.
      // Not the first call's bytes again: within the same second that would be refused as a replay.
      expect((await post(hook, '{"type":"post","id":2}')).status).toBe(202);
      const second = await fake.call(2);
      expect(second.changes).toEqual([{ type: 'post' }, { type: 'post', id: 2 }]);
      second.resolve({ pages: 3, unchanged: true });
      const ok = await statusUntil(hook, (s) => s.state === 'idle' && s.lastReport !== null);
      expect(ok).toMatchObject({ lastError: null, lastReport: { pages: 3, unchanged: true }, pending: [], nextAttemptAt: null });
      await vi.waitFor(() => expect(journalOf(hook).pending).toEqual([]));
    }));

  it('survives a rebuild that throws synchronously', () =>
    (async () => {
      let n = 0;
      const hook = await start(() => {
        n++;
        throw new Error('sync failure');
      }, 0);
      try {
        await post(hook, '');
        const s = await statusUntil(hook, (s) => s.lastError !== null);
        expect(s).toMatchObject({ state: 'waiting', lastError: 'sync failure', pending: [{ attempts: 1, lastError: 'sync failure' }] });
        expect(n).toBe(1);
      } finally {
        await hook.close();
      }
    })());
});

describe('graceful shutdown', () => {
  it('close() during a rebuild aborts its signal and resolves only after the rebuild settles', async () => {
    const fake = controlledRebuild({ honourAbort: false });
    const hook = await start(fake.rebuild, 0);
    try {
      await post(hook, '{"type":"post","id":1}');
      // A call queued during the rebuild must be dropped by close(), not run.
      const call = await fake.call(1);
      await post(hook, '{"type":"menu"}');
      expect(call.signal.aborted).toBe(false);

      let closed = false;
      const closing = hook.close().then(() => (closed = true));
      expect(call.signal.aborted).toBe(true);
      await sleep(20);
      expect(closed).toBe(false);
      // The rebuild notices the abort and stops (the fake rejects the way fetch does).
      call.reject(call.signal.reason);
      await closing;
      expect(closed).toBe(true);
      expect(fake.calls).toHaveLength(1);
      expect(hook.status()).toMatchObject({ state: 'idle', queue: null });
      // Neither change was published: both stay in the journal for the next start, the aborted one with its error.
      expect(journalOf(hook).pending).toMatchObject([
        { changes: [{ type: 'post', id: 1 }], attempts: 1, lastError: expect.stringMatching(/abort/i) },
        { changes: [{ type: 'menu' }], attempts: 0, lastError: null },
      ]);
      expect(hook.lines.some((l) => l.includes('rebuild aborted'))).toBe(true);
      await expect(fetch(`${hook.url}/hooks/status`)).rejects.toThrow();
      expect(await hook.close()).toBeUndefined(); // idempotent
    } finally {
      for (const c of fake.calls) c.resolve(null);
      await hook.close();
    }
  });

  it('close() with a pending debounced rebuild cancels it', async () => {
    const fake = controlledRebuild();
    const hook = await start(fake.rebuild, 100);
    try {
      expect((await post(hook, '{"type":"post"}')).status).toBe(202);
      expect(hook.status().state).toBe('waiting');
      await hook.close();
      expect(hook.status()).toMatchObject({ state: 'idle', queue: null, pending: [{ changes: [{ type: 'post' }], attempts: 0 }] });
      expect(journalOf(hook).pending).toMatchObject([{ changes: [{ type: 'post' }], attempts: 0 }]);
      await sleep(150); // past the window that was cancelled
      expect(fake.calls).toHaveLength(0);
    } finally {
      await hook.close();
    }
  });
});

/** Sends raw bytes over a socket and resolves with everything the server sent back before closing (or after `waitMs`). */
function raw(url: string, bytes: string, waitMs = 2000): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.write(bytes));
    let text = '';
    const timer = setTimeout(() => (socket.destroy(), resolve(text)), waitMs);
    socket.on('data', (d) => (text += d.toString('latin1')));
    socket.on('close', () => (clearTimeout(timer), resolve(text)));
    socket.on('error', reject);
  });
}

describe('hostile input', () => {
  it('answers 400 to a request target that is not a URL and keeps serving', () =>
    withServer(0, async (hook) => {
      const answer = await raw(hook.url, 'GET // HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
      expect(answer).toMatch(/^HTTP\/1\.1 400 /);
      const garbage = await raw(hook.url, 'NOT-HTTP\r\n\r\n');
      expect(garbage).toMatch(/^HTTP\/1\.1 400 /);
      // The listener is still there.
      expect((await fetch(`${hook.url}/hooks/status`)).status).toBe(200);
      expect((await post(hook, '{}')).status).toBe(202);
    }));

  it(
    'closes a connection that never finishes its headers within a few seconds',
    () =>
      withServer(0, async (hook) => {
        const began = Date.now();
        // Headers started but never ended: a slowloris client.
        const answer = await raw(hook.url, 'POST /hooks/content HTTP/1.1\r\nHost: x\r\n', 15_000);
        const took = Date.now() - began;
        expect(took).toBeLessThan(9_000);
        expect(answer === '' || /^HTTP\/1\.1 408 /.test(answer)).toBe(true);
      }),
    20_000,
  );

  it(
    'closes an idle keep-alive connection after a few seconds',
    () =>
      withServer(0, async (hook) => {
        const began = Date.now();
        const answer = await raw(hook.url, 'GET /hooks/status HTTP/1.1\r\nHost: x\r\n\r\n', 15_000);
        expect(answer).toMatch(/^HTTP\/1\.1 200 /);
        expect(Date.now() - began).toBeLessThan(9_000);
      }),
    20_000,
  );

  it('bounds the number of connections', () =>
    withServer(0, async (hook) => {
      expect(hook.server.maxConnections).toBeGreaterThan(0);
      expect(hook.server.maxConnections).toBeLessThanOrEqual(64);
      expect(MAX_CONNECTIONS_PER_CLIENT).toBeLessThan(hook.server.maxConnections / 4);
    }));

  it('answers a signed call at once while one client holds every connection it may', () =>
    withServer(0, async (hook) => {
      // More slow connections than the global cap, from another loopback address (Linux routes all of
      // 127/8 to lo): each starts its headers and never ends them.
      const slow = Array.from({ length: hook.server.maxConnections + 8 }, () => {
        const socket = connect({ host: '127.0.0.1', port: Number(new URL(hook.url).port), localAddress: '127.0.0.2' }, () =>
          socket.write('POST /hooks/content HTTP/1.1\r\nHost: x\r\n'),
        );
        socket.on('error', () => undefined); // the refused ones are reset
        return socket;
      });
      try {
        const closed = () => slow.filter((s) => s.closed).length;
        await vi.waitFor(() => expect(closed()).toBe(slow.length - MAX_CONNECTIONS_PER_CLIENT), { timeout: 5000 });
        const began = Date.now();
        const res = await fetch(`${hook.url}/hooks/status`, { headers: statusHeaders(SECRET) });
        expect(res.status).toBe(200);
        expect(Date.now() - began).toBeLessThan(1000);
        expect((await post(hook, '{"type":"post","id":1}')).status).toBe(202);
        // The ones it kept are still open (the header timeout, not the cap, will close them).
        expect(slow.filter((s) => !s.closed)).toHaveLength(MAX_CONNECTIONS_PER_CLIENT);
        const metrics = await (await fetch(`${hook.url}/hooks/metrics`)).text();
        expect(metrics).toContain(`hokimiyat_webhook_connections_refused_total ${slow.length - MAX_CONNECTIONS_PER_CLIENT}\n`);
        expect(hook.lines.filter((l) => l.includes('127.0.0.2'))).toHaveLength(1); // one line, not one per refusal
      } finally {
        for (const s of slow) s.destroy();
      }
    }));

  it('counts an IPv4 address, or the /64 of an IPv6 one, as one client', () => {
    expect(clientKey('203.0.113.7')).toBe('203.0.113.7');
    expect(clientKey('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(clientKey('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64');
    expect(clientKey('2001:db8:1:2:bbbb:cccc:dddd:eeee')).toBe('2001:db8:1:2::/64');
    expect(clientKey('2001:0db8:0001:0002::')).toBe('2001:db8:1:2::/64');
    expect(clientKey('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(clientKey('::1')).toBe('0:0:0:0::/64');
    expect(clientKey('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    expect(clientKey('2001:db8:1:3::1')).not.toBe(clientKey('2001:db8:1:2::1'));
  });
});

describe('replay protection', () => {
  it('refuses a signed call whose timestamp is older than 5 minutes, or from the future', () =>
    withServer(0, async (hook, fake) => {
      const body = '{"type":"post"}';
      const old = contentHeaders(SECRET, body, { now: Date.now() - 6 * 60_000 });
      const res = await fetch(`${hook.url}/hooks/content`, { method: 'POST', body, headers: old });
      expect(res.status).toBe(401);
      expect(((await res.json()) as { error: string }).error).toMatch(/x-hook-timestamp/);
      const future = contentHeaders(SECRET, body, { now: Date.now() + 6 * 60_000 });
      expect((await fetch(`${hook.url}/hooks/content`, { method: 'POST', body, headers: future })).status).toBe(401);
      // Signatures of the older schemes, the body alone or "<timestamp>.<body>", are not enough.
      const ts = String(nowS());
      for (const text of [body, `${ts}.${body}`]) {
        const headers = { 'x-hook-timestamp': ts, 'x-hub-signature-256': `sha256=${createHmac('sha256', SECRET).update(text).digest('hex')}` };
        expect((await fetch(`${hook.url}/hooks/content`, { method: 'POST', body, headers })).status, text).toBe(401);
      }
      expect(fake.calls).toHaveLength(0);
    }));

  it('refuses the same call sent twice, and a repeated delivery id', () =>
    withServer(0, async (hook, fake) => {
      const body = '{"type":"page","id":4}';
      const headers = contentHeaders(SECRET, body, { delivery: 'delivery-1' });
      expect((await fetch(`${hook.url}/hooks/content`, { method: 'POST', body, headers })).status).toBe(202);
      const replay = await fetch(`${hook.url}/hooks/content`, { method: 'POST', body, headers });
      expect(replay.status).toBe(409);
      expect(((await replay.json()) as { error: string }).error).toMatch(/already received/);
      // Same delivery id, freshly signed a second later: still a repeat.
      const later = contentHeaders(SECRET, body, { delivery: 'delivery-1', now: Date.now() + 1000 });
      expect((await fetch(`${hook.url}/hooks/content`, { method: 'POST', body, headers: later })).status).toBe(409);
      const other = contentHeaders(SECRET, body, { delivery: 'delivery-2', now: Date.now() + 1000 });
      expect((await fetch(`${hook.url}/hooks/content`, { method: 'POST', body, headers: other })).status).toBe(202);
      expect((await fake.call(1)).changes).toEqual([{ type: 'page', id: 4 }]);
    }));

  it('refuses a signed status request sent to /hooks/content, and the same status request sent twice', () =>
    withServer(0, async (hook, fake) => {
      const status = statusHeaders(SECRET);
      expect((await fetch(`${hook.url}/hooks/status`, { headers: status })).status).toBe(200);
      const asContent = await fetch(`${hook.url}/hooks/content`, { method: 'POST', body: '', headers: status });
      expect(asContent.status).toBe(401);
      const again = await fetch(`${hook.url}/hooks/status`, { headers: status });
      expect(again.status).toBe(409);
      expect(((await again.json()) as { error: string }).error).toMatch(/already received/);
      // Nor the other way round: an empty call signed for /hooks/content (everything changed) asks for the detail.
      const content = contentHeaders(SECRET, '');
      expect((await fetch(`${hook.url}/hooks/status`, { headers: content })).status).toBe(401);
      await sleep(50);
      expect(fake.calls).toHaveLength(0);
    }));
});

describe('status for anyone', () => {
  it('gives an unsigned caller the bare state, never the error text; a signed caller gets the detail', () =>
    withServer(0, async (hook, fake) => {
      await post(hook, '{"type":"post"}');
      (await fake.call(1)).reject(new Error('GET http://10.0.0.5:8080/api/menu failed; see /srv/hokimiyat-site/.releases'));
      await statusUntil(hook, (s) => s.lastError !== null);
      const res = await fetch(`${hook.url}/hooks/status`);
      expect(res.status).toBe(200);
      const text = await res.text();
      expect(text).not.toContain('10.0.0.5');
      expect(text).not.toContain('/srv/');
      // The failed change waits for its retry; anyone sees only how many changes wait.
      expect(JSON.parse(text)).toEqual({
        state: 'waiting',
        lastStartedAt: expect.any(String),
        lastFinishedAt: expect.any(String),
        lastSucceeded: false,
        pending: 1,
        content: null,
      });
      const forged = await fetch(`${hook.url}/hooks/status`, { headers: statusHeaders('wrong-secret-0123456789') });
      expect(forged.status).toBe(401);
      expect((await getStatus(hook)).lastError).toContain('10.0.0.5');
    }));
});
