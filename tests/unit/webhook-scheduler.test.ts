/** scripts/webhook/scheduler.ts under fake timers: debounce, coalescing, one run at a time, retries with backoff. */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ContentChanges as Changes } from '../../src/content/changes.ts';
import { PUBLISHED_KEPT, RebuildScheduler, retryDelay, type PendingChange, type PublishedChange, type SchedulerOptions } from '../../scripts/webhook/scheduler.ts';

interface Call {
  changes: Changes;
  signal: AbortSignal;
  resolve(report: unknown): void;
  reject(error: unknown): void;
}

let nextId = 1;
const entry = (changes: Changes, attempts = 0): PendingChange => ({
  id: nextId++,
  changes,
  acceptedAt: new Date().toISOString(),
  attempts,
  lastError: attempts ? 'earlier failure' : null,
});

/** A scheduler whose rebuilds the test settles by hand (each rejects when aborted, as the real one does). */
function setup(options: Partial<SchedulerOptions> = {}) {
  const calls: Call[] = [];
  const lines: string[] = [];
  let active = 0;
  let maxActive = 0;
  let settled = 0;
  const rebuild = (changes: Changes, signal: AbortSignal) =>
    new Promise<unknown>((resolve, reject) => {
      maxActive = Math.max(maxActive, ++active);
      calls.push({ changes, signal, resolve, reject });
      signal.addEventListener('abort', () => reject(new Error('rebuild aborted before publishing')), { once: true });
    }).finally(() => active--);
  const scheduler = new RebuildScheduler({
    rebuild,
    debounceMs: 2000,
    retry: { firstMs: 5_000, maxMs: 300_000 },
    log: (l) => lines.push(l),
    onSettled: () => settled++,
    ...options,
  });
  return { scheduler, calls, lines, maxActive: () => maxActive, settled: () => settled };
}

/** Lets the promise reactions of a settled rebuild run. */
const flush = () => vi.advanceTimersByTimeAsync(0);

beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(new Date('2030-01-01T00:00:00Z'));
});
afterEach(() => {
  vi.useRealTimers();
});

describe('debounce and coalescing', () => {
  it('waits for the window, then runs one rebuild with the union of the changes', async () => {
    const { scheduler, calls } = setup();
    scheduler.add(entry([{ type: 'post', id: 1 }]));
    expect(scheduler.status()).toMatchObject({ state: 'waiting', queue: [{ type: 'post', id: 1 }], nextAttemptAt: null });
    await vi.advanceTimersByTimeAsync(1500);
    scheduler.add(entry([{ type: 'menu' }, { type: 'post', id: 1 }]));
    scheduler.add(entry([{ type: 'page', id: 3 }]));
    await vi.advanceTimersByTimeAsync(499);
    expect(calls).toHaveLength(0);
    // The window is the first call's: later calls join it without extending it.
    await vi.advanceTimersByTimeAsync(1);
    expect(calls).toHaveLength(1);
    expect(calls[0]!.changes).toEqual([{ type: 'post', id: 1 }, { type: 'menu' }, { type: 'page', id: 3 }]);
    expect(scheduler.status()).toMatchObject({ state: 'building', queue: null });
    expect(scheduler.status().pending).toHaveLength(3);
  });

  it('makes the whole batch "all" when one change is "all", and keeps a call an earlier waiting one covers only once', () => {
    const { scheduler } = setup();
    scheduler.add(entry('all'));
    scheduler.add(entry([{ type: 'post', id: 1 }]));
    scheduler.add(entry('all'));
    expect(scheduler.pendingWith(entry([{ type: 'menu' }]))).toHaveLength(1);
    expect(scheduler.status()).toMatchObject({ queue: 'all', pending: [{ changes: 'all' }] });
  });

  it('replays changes an earlier run left at once, without a window', async () => {
    const { scheduler, calls, lines } = setup();
    scheduler.replay([entry([{ type: 'post', id: 4 }], 2), entry([{ type: 'menu' }])]);
    expect(calls).toHaveLength(1);
    expect(calls[0]!.changes).toEqual([{ type: 'post', id: 4 }, { type: 'menu' }]);
    calls[0]!.resolve({ pages: 1 });
    await flush();
    expect(scheduler.status()).toMatchObject({ state: 'idle', pending: [], lastError: null });
    expect(lines).toContain('webhook: rebuild started (post#4, menu)');
  });
});

describe('one rebuild at a time', () => {
  it('gathers the calls made during a run into exactly one follow-up, after the run and the window', async () => {
    const { scheduler, calls, maxActive } = setup();
    scheduler.add(entry([{ type: 'post', id: 1 }]));
    await vi.advanceTimersByTimeAsync(2000);
    expect(calls).toHaveLength(1);
    scheduler.add(entry([{ type: 'menu' }]));
    await vi.advanceTimersByTimeAsync(10_000);
    scheduler.add(entry([{ type: 'page', id: 2 }]));
    expect(calls).toHaveLength(1);
    expect(scheduler.status()).toMatchObject({ state: 'building', queue: [{ type: 'menu' }, { type: 'page', id: 2 }] });

    calls[0]!.resolve({ pages: 1 });
    await flush();
    expect(calls).toHaveLength(2);
    expect(calls[1]!.changes).toEqual([{ type: 'menu' }, { type: 'page', id: 2 }]);
    // The first run's change is published; the follow-up's are pending until it resolves.
    expect(scheduler.status().pending.map((e) => e.changes)).toEqual([[{ type: 'menu' }], [{ type: 'page', id: 2 }]]);
    calls[1]!.resolve({ pages: 2 });
    await flush();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(calls).toHaveLength(2);
    expect(maxActive()).toBe(1);
    expect(scheduler.status()).toMatchObject({ state: 'idle', pending: [], lastReport: { pages: 2 } });
  });

  it('a follow-up whose window has not elapsed when the run ends waits for it', async () => {
    const { scheduler, calls } = setup();
    scheduler.add(entry([{ type: 'post', id: 1 }]));
    await vi.advanceTimersByTimeAsync(2000);
    scheduler.add(entry([{ type: 'menu' }]));
    calls[0]!.resolve({});
    await vi.advanceTimersByTimeAsync(1999);
    expect(calls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(calls).toHaveLength(2);
  });
});

describe('failures and retries', () => {
  it("keeps a failed rebuild's changes, retries with doubling backoff, and clears them on a later success", async () => {
    const { scheduler, calls, lines, settled } = setup();
    scheduler.add(entry([{ type: 'post', id: 7 }]));
    await vi.advanceTimersByTimeAsync(2000);
    calls[0]!.reject(new Error('API answered 500'));
    await flush();
    const failed = scheduler.status();
    expect(failed).toMatchObject({ state: 'waiting', queue: [{ type: 'post', id: 7 }], lastError: 'API answered 500' });
    expect(failed.pending).toMatchObject([{ changes: [{ type: 'post', id: 7 }], attempts: 1, lastError: 'API answered 500' }]);
    expect(failed.nextAttemptAt).toBe(new Date(Date.now() + 5_000).toISOString());
    expect(settled()).toBe(1);
    expect(lines.some((l) => l.includes('rebuild failed') && l.includes('API answered 500'))).toBe(true);
    expect(lines.some((l) => l.includes('next attempt in 5 s'))).toBe(true);

    // 5 s, then 10 s, then 20 s.
    for (const [n, wait] of [
      [1, 5_000],
      [2, 10_000],
      [3, 20_000],
    ] as const) {
      await vi.advanceTimersByTimeAsync(wait - 1);
      expect(calls).toHaveLength(n);
      await vi.advanceTimersByTimeAsync(1);
      expect(calls).toHaveLength(n + 1);
      expect(calls[n]!.changes).toEqual([{ type: 'post', id: 7 }]);
      if (n < 3) {
        calls[n]!.reject(new Error(`failure ${n + 1}`));
        await flush();
      }
    }
    expect(scheduler.status().pending).toMatchObject([{ attempts: 3, lastError: 'failure 3' }]);
    // Nothing changed since the published release: that is a success too.
    calls[3]!.resolve({ unchanged: true });
    await flush();
    expect(scheduler.status()).toMatchObject({ state: 'idle', pending: [], nextAttemptAt: null, lastError: null, lastReport: { unchanged: true } });
    expect(settled()).toBe(4);
    await vi.advanceTimersByTimeAsync(600_000);
    expect(calls).toHaveLength(4);
  });

  it('caps the backoff, and starts over after a success', async () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8, 50].map((n) => retryDelay(n, { firstMs: 5_000, maxMs: 300_000 }))).toEqual([
      5_000, 10_000, 20_000, 40_000, 80_000, 160_000, 300_000, 300_000, 300_000,
    ]);
    const { scheduler, calls } = setup({ retry: { firstMs: 100, maxMs: 250 } });
    scheduler.add(entry('all'));
    await vi.advanceTimersByTimeAsync(2000);
    for (const wait of [100, 200, 250, 250]) {
      calls.at(-1)!.reject(new Error('down'));
      await flush();
      const n = calls.length;
      await vi.advanceTimersByTimeAsync(wait);
      expect(calls).toHaveLength(n + 1);
    }
    calls.at(-1)!.resolve({});
    await flush();
    scheduler.add(entry('all'));
    await vi.advanceTimersByTimeAsync(2000);
    calls.at(-1)!.reject(new Error('down again'));
    await flush();
    expect(Date.parse(scheduler.status().nextAttemptAt!) - Date.now()).toBe(100);

    // Without a policy (or with `retry: undefined`): 5 s first.
    const plain = setup({ retry: undefined });
    plain.scheduler.add(entry('all'));
    await vi.advanceTimersByTimeAsync(2000);
    plain.calls[0]!.reject(new Error('down'));
    await flush();
    expect(Date.parse(plain.scheduler.status().nextAttemptAt!) - Date.now()).toBe(5_000);
  });

  it('a new call does not wait for the backoff: its window ends sooner, and its rebuild takes the failed changes along', async () => {
    const { scheduler, calls } = setup();
    scheduler.add(entry([{ type: 'post', id: 1 }]));
    await vi.advanceTimersByTimeAsync(2000);
    calls[0]!.reject(new Error('API down'));
    await flush();
    scheduler.add(entry([{ type: 'page', id: 2 }]));
    await vi.advanceTimersByTimeAsync(2000);
    expect(calls).toHaveLength(2);
    expect(calls[1]!.changes).toEqual([
      { type: 'post', id: 1 },
      { type: 'page', id: 2 },
    ]);
    calls[1]!.resolve({});
    await flush();
    expect(scheduler.status().pending).toEqual([]);
  });

  it('a failed run with a follow-up already due starts the follow-up at once, failed changes included', async () => {
    const { scheduler, calls } = setup();
    scheduler.add(entry([{ type: 'post', id: 1 }]));
    await vi.advanceTimersByTimeAsync(2000);
    scheduler.add(entry([{ type: 'menu' }]));
    await vi.advanceTimersByTimeAsync(2000);
    calls[0]!.reject(new Error('boom'));
    await flush();
    expect(calls).toHaveLength(2);
    expect(calls[1]!.changes).toEqual([{ type: 'post', id: 1 }, { type: 'menu' }]);
  });

  it('survives a rebuild that throws synchronously', async () => {
    const scheduler = new RebuildScheduler({
      rebuild: () => {
        throw new Error('sync failure');
      },
      debounceMs: 0,
      log: () => undefined,
    });
    scheduler.add(entry('all'));
    await vi.advanceTimersByTimeAsync(0);
    expect(scheduler.status()).toMatchObject({ state: 'waiting', lastError: 'sync failure', pending: [{ attempts: 1 }] });
    await scheduler.close();
  });
});

describe('what was published, and how long it took', () => {
  it('records each change a successful rebuild included, with the time from its acceptance to the end of that rebuild', async () => {
    const { scheduler, calls } = setup();
    const first = entry([{ type: 'post', id: 1 }]); // accepted at 00:00:00
    scheduler.add(first);
    await vi.advanceTimersByTimeAsync(1_000);
    const second = entry([{ type: 'menu' }]); // 00:00:01, joins the same window
    scheduler.add(second);
    await vi.advanceTimersByTimeAsync(1_000); // the rebuild starts at 00:00:02
    calls[0]!.reject(new Error('API down'));
    await flush();
    expect(scheduler.status().published).toEqual([]);
    await vi.advanceTimersByTimeAsync(5_000); // the retry starts at 00:00:07
    await vi.advanceTimersByTimeAsync(30_000);
    calls[1]!.resolve({ release: '20300101T000037Z', unchanged: false });
    await flush();
    const publishedAt = '2030-01-01T00:00:37.000Z';
    expect(scheduler.status().published).toEqual([
      { id: first.id, changes: first.changes, acceptedAt: first.acceptedAt, publishedAt, release: '20300101T000037Z', secondsToPublish: 37, attempts: 1 },
      { id: second.id, changes: second.changes, acceptedAt: second.acceptedAt, publishedAt, release: '20300101T000037Z', secondsToPublish: 36, attempts: 1 },
    ]);
    expect(scheduler.status().rebuilds).toEqual({ ok: 1, failed: 1 });
    // The journal writes the same history beside what is pending.
    expect(scheduler.state()).toEqual({ pending: [], published: scheduler.status().published });

    // A report that names no release (a test's, an old one) still counts the change as published.
    scheduler.add(entry('all'));
    await vi.advanceTimersByTimeAsync(2_000);
    calls[2]!.resolve(null);
    await flush();
    expect(scheduler.status().published.at(-1)).toMatchObject({ changes: 'all', release: null, secondsToPublish: 2, attempts: 0 });
  });

  it(`keeps the last ${PUBLISHED_KEPT}, and starts from the history it is given`, async () => {
    const old: PublishedChange = {
      id: 1,
      changes: [{ type: 'page', id: 1 }],
      acceptedAt: '2029-12-31T23:00:00.000Z',
      publishedAt: '2029-12-31T23:00:09.000Z',
      release: 'r1',
      secondsToPublish: 9,
      attempts: 0,
    };
    const { scheduler, calls } = setup({ published: [old], debounceMs: 0 });
    expect(scheduler.status().published).toEqual([old]);
    for (let i = 0; i < PUBLISHED_KEPT; i++) {
      scheduler.add(entry([{ type: 'post', id: 100 + i }]));
      await vi.advanceTimersByTimeAsync(0);
      calls.at(-1)!.resolve({});
      await flush();
    }
    const published = scheduler.status().published;
    expect(published).toHaveLength(PUBLISHED_KEPT);
    expect(published[0]!.changes).toEqual([{ type: 'post', id: 100 }]);
    expect(published.at(-1)!.changes).toEqual([{ type: 'post', id: 100 + PUBLISHED_KEPT - 1 }]);
    expect(scheduler.status().rebuilds).toEqual({ ok: PUBLISHED_KEPT, failed: 0 });
  });
});

describe('close', () => {
  it('aborts the running rebuild, keeps its changes with the error, and starts nothing more', async () => {
    const { scheduler, calls, lines, settled } = setup();
    scheduler.add(entry([{ type: 'post', id: 1 }]));
    await vi.advanceTimersByTimeAsync(2000);
    scheduler.add(entry([{ type: 'menu' }]));
    await scheduler.close();
    expect(calls[0]!.signal.aborted).toBe(true);
    expect(settled()).toBe(1);
    expect(scheduler.status()).toMatchObject({ state: 'idle', queue: null, nextAttemptAt: null });
    expect(scheduler.status().pending).toMatchObject([
      { changes: [{ type: 'post', id: 1 }], attempts: 1, lastError: 'rebuild aborted before publishing' },
      { changes: [{ type: 'menu' }], attempts: 0, lastError: null },
    ]);
    expect(lines.some((l) => l.includes('pending rebuild cancelled (menu)'))).toBe(true);
    expect(lines.some((l) => l.includes('rebuild aborted'))).toBe(true);
    // A change accepted while closing is kept, not run.
    scheduler.add(entry([{ type: 'page', id: 9 }]));
    await vi.advanceTimersByTimeAsync(600_000);
    expect(calls).toHaveLength(1);
    expect(scheduler.status().pending).toHaveLength(3);
  });

  it('refuses bad options', () => {
    expect(() => new RebuildScheduler({ rebuild: undefined as never, debounceMs: 0 })).toThrow(/rebuild function/);
    expect(() => new RebuildScheduler({ rebuild: async () => null, debounceMs: -1 })).toThrow(/debounceMs/);
  });
});
