/**
 * When the webhook's rebuilds run, apart from HTTP and files (tests drive it with fake timers).
 *
 * It holds every accepted change not yet published (`pending`), each with when it was accepted, how many
 * rebuilds that included it failed and the last one's error. The first change of a batch opens a debounce
 * window of `debounceMs`; every change added in that window joins one rebuild whose changes are the union
 * (mergeChanges). Never two rebuilds at once: changes added while one runs make exactly one follow-up,
 * started when the running one ends (and not before its own window has elapsed).
 *
 * A change leaves `pending` only when a rebuild that included it resolved (a report saying nothing changed
 * counts). A rebuild that throws, or is aborted by close(), keeps its changes, counts an attempt and keeps
 * the error; the next attempt comes after a backoff that doubles with each failure in a row (5 s up to
 * 5 min by default), or sooner when a new change's window ends first. `onSettled` is told after each
 * rebuild, so that the journal can write what is still pending.
 *
 * For the operator's view of freshness it also keeps the last PUBLISHED_KEPT changes published, each with
 * how long it took from acceptance to the end of the rebuild that published it (the journal keeps them
 * across restarts), and counts the rebuilds that succeeded and failed since it started.
 */
import { describeChanges, mergeChanges, type ContentChanges as Changes } from '../../src/content/changes.ts';

export type RebuildFn = (changes: Changes, signal: AbortSignal) => Promise<unknown>;

/** One accepted call (or several alike) not yet published. */
export interface PendingChange {
  id: number;
  changes: Changes;
  acceptedAt: string;
  /** Rebuilds that included it and failed (or were aborted). */
  attempts: number;
  lastError: string | null;
}

/** A change that a successful rebuild included. */
export interface PublishedChange {
  id: number;
  changes: Changes;
  acceptedAt: string;
  /** When the rebuild that included it ended. */
  publishedAt: string;
  /** The release serving it, when the rebuild's report names one. */
  release: string | null;
  secondsToPublish: number;
  /** Rebuilds that included it and failed before this one. */
  attempts: number;
}

/** How many published changes are kept for the status. */
export const PUBLISHED_KEPT = 50;

/** Backoff after failed rebuilds: `firstMs` after the first, doubling with each failure in a row, at most `maxMs`. */
export interface RetryPolicy {
  firstMs: number;
  maxMs: number;
}

const DEFAULT_RETRY: RetryPolicy = { firstMs: 5_000, maxMs: 300_000 };

export interface Status {
  state: 'idle' | 'waiting' | 'building';
  /** The changes the next rebuild will take (`null` when none is scheduled). */
  queue: Changes | null;
  /** Every accepted change not yet published, including those of the running rebuild. */
  pending: PendingChange[];
  /** When failed changes are next tried, while that is scheduled. */
  nextAttemptAt: string | null;
  /** What the last successful rebuild resolved with. */
  lastReport: unknown;
  /** The last rebuild's error message; `null` when the last rebuild succeeded (or none ran). */
  lastError: string | null;
  lastStartedAt: string | null;
  lastFinishedAt: string | null;
  /** The last PUBLISHED_KEPT changes published, oldest first. */
  published: PublishedChange[];
  /** Rebuilds that ended since the listener started (an aborted one counts as failed). */
  rebuilds: { ok: number; failed: number };
}

/** What the journal keeps: the promise (`pending`) and the recent history (`published`). */
export interface SchedulerState {
  pending: PendingChange[];
  published: PublishedChange[];
}

export interface SchedulerOptions {
  rebuild: RebuildFn;
  debounceMs: number;
  retry?: RetryPolicy;
  log?: (line: string) => void;
  /** Called when a rebuild has ended and `pending()` changed accordingly. */
  onSettled?: () => void;
  /** Changes published before a restart (from the journal). */
  published?: readonly PublishedChange[];
}

interface Run {
  ids: Set<number>;
  controller: AbortController;
  done: Promise<void>;
}

const iso = (ms: number) => new Date(ms).toISOString();
const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));
const union = (entries: readonly PendingChange[]): Changes => entries.reduce<Changes | null>((all, e) => mergeChanges(all, e.changes), null) ?? [];
const copyChanges = (changes: Changes): Changes => (changes === 'all' ? 'all' : changes.map((c) => ({ ...c })));
const copyEntry = <T extends { changes: Changes }>(e: T): T => ({ ...e, changes: copyChanges(e.changes) });
const releaseOf = (report: unknown) =>
  typeof report === 'object' && report !== null && typeof (report as { release?: unknown }).release === 'string' ? (report as { release: string }).release : null;
/** `a` already asks for everything `b` does. */
const covers = (a: Changes, b: Changes) => a === 'all' || (b !== 'all' && b.every((c) => a.some((d) => d.type === c.type && d.id === c.id)));

export function retryDelay(failures: number, policy: RetryPolicy): number {
  return Math.min(policy.maxMs, policy.firstMs * 2 ** Math.min(Math.max(failures - 1, 0), 30));
}

export class RebuildScheduler {
  readonly #options: Required<Omit<SchedulerOptions, 'onSettled' | 'published'>> & Pick<SchedulerOptions, 'onSettled'>;
  /** Invariant: some entry outside the running rebuild ⇔ (timer !== null || due), unless closed. */
  #entries: PendingChange[] = [];
  #running: Run | null = null;
  #timer: { handle: NodeJS.Timeout; at: number } | null = null;
  /** A window has elapsed: the next rebuild starts as soon as the running one ends. */
  #due = false;
  #failures = 0;
  #closing: Promise<void> | null = null;
  #last = { report: null as unknown, error: null as string | null, startedAt: null as string | null, finishedAt: null as string | null };
  #published: PublishedChange[];
  #rebuilds = { ok: 0, failed: 0 };

  constructor(options: SchedulerOptions) {
    if (typeof options.rebuild !== 'function') throw new TypeError('RebuildScheduler: a rebuild function is required');
    if (!Number.isFinite(options.debounceMs) || options.debounceMs < 0) throw new TypeError('RebuildScheduler: debounceMs must be ≥ 0');
    const { published = [], ...rest } = options;
    this.#options = { ...rest, retry: options.retry ?? DEFAULT_RETRY, log: options.log ?? ((line) => console.log(line)) };
    this.#published = published.slice(-PUBLISHED_KEPT).map(copyEntry);
  }

  /**
   * The pending list once `entry` is added: an entry that a change waiting for the next rebuild already
   * covers is not kept apart (that rebuild starts later than now, so it publishes this call too).
   */
  pendingWith(entry?: PendingChange): PendingChange[] {
    const list = this.#entries.map(copyEntry);
    if (entry && !this.#waiting().some((e) => covers(e.changes, entry.changes))) list.push(copyEntry(entry));
    return list;
  }

  /** What the journal writes once `entry` is added (see pendingWith). */
  state(entry?: PendingChange): SchedulerState {
    return { pending: this.pendingWith(entry), published: this.#published.map(copyEntry) };
  }

  /** Takes an accepted change: it is rebuilt when its window (or a sooner one) ends. */
  add(entry: PendingChange): void {
    if (!this.#waiting().some((e) => covers(e.changes, entry.changes))) this.#entries.push(copyEntry(entry));
    this.#wakeIn(this.#options.debounceMs);
  }

  /** Takes changes an earlier run left unpublished, and starts their rebuild at once. */
  replay(entries: readonly PendingChange[]): void {
    this.#entries.push(...entries.map(copyEntry));
    if (!entries.length || this.#closing) return;
    this.#due = true;
    this.#start();
  }

  status(): Status {
    const waiting = this.#closing ? [] : this.#waiting();
    const { report, error, startedAt, finishedAt } = this.#last;
    return {
      state: this.#running ? 'building' : waiting.length ? 'waiting' : 'idle',
      queue: waiting.length ? copyChanges(union(waiting)) : null,
      pending: this.#entries.map(copyEntry),
      nextAttemptAt: this.#timer && waiting.some((e) => e.attempts > 0) ? iso(this.#timer.at) : null,
      lastReport: report,
      lastError: error,
      lastStartedAt: startedAt,
      lastFinishedAt: finishedAt,
      published: this.#published.map(copyEntry),
      rebuilds: { ...this.#rebuilds },
    };
  }

  /** Cancels the next rebuild and aborts the running one; resolves once it has settled. Changes stay pending. */
  close(): Promise<void> {
    this.#closing ??= (async () => {
      this.#clearTimer();
      this.#due = false;
      const waiting = this.#waiting();
      if (waiting.length) this.#options.log(`webhook: pending rebuild cancelled (${describeChanges(union(waiting))}); its changes stay pending`);
      const running = this.#running;
      if (running) {
        this.#options.log('webhook: shutting down, aborting the running rebuild and waiting for it to stop');
        running.controller.abort();
        await running.done;
      }
    })();
    return this.#closing;
  }

  #waiting(): PendingChange[] {
    const running = this.#running;
    return running ? this.#entries.filter((e) => !running.ids.has(e.id)) : this.#entries;
  }

  /** Makes the next rebuild start `ms` from now, unless one is due sooner. */
  #wakeIn(ms: number): void {
    if (this.#closing || this.#due) return;
    const at = Date.now() + ms;
    if (this.#timer && this.#timer.at <= at) return;
    this.#clearTimer();
    const handle = setTimeout(() => {
      this.#timer = null;
      this.#due = true;
      this.#start();
    }, ms);
    this.#timer = { handle, at };
  }

  #clearTimer(): void {
    if (this.#timer) clearTimeout(this.#timer.handle);
    this.#timer = null;
  }

  #start(): void {
    if (this.#closing || this.#running) return;
    this.#due = false;
    // The rebuild takes every waiting change, so nothing is left for a timer to start.
    this.#clearTimer();
    const batch = [...this.#entries];
    if (!batch.length) return;
    const changes = union(batch);
    const controller = new AbortController();
    const began = Date.now();
    this.#last.startedAt = iso(began);
    this.#options.log(`webhook: rebuild started (${describeChanges(changes)})`);
    const run: Run = { ids: new Set(batch.map((e) => e.id)), controller, done: Promise.resolve() };
    this.#running = run; // before calling rebuild: it may fail synchronously
    run.done = (async () => {
      try {
        const report = await this.#options.rebuild(changes, controller.signal);
        this.#options.log(`webhook: rebuild finished in ${Date.now() - began} ms`);
        this.#settle(run, { report: report ?? null });
      } catch (error) {
        const message = messageOf(error);
        this.#options.log(`webhook: rebuild ${controller.signal.aborted ? 'aborted' : 'failed'} after ${Date.now() - began} ms: ${message}`);
        this.#settle(run, { error: message });
      }
    })();
  }

  #settle(run: Run, outcome: { report: unknown } | { error: string }): void {
    this.#running = null;
    const now = Date.now();
    this.#last.finishedAt = iso(now);
    if ('report' in outcome) {
      this.#rebuilds.ok++;
      const release = releaseOf(outcome.report);
      for (const e of this.#entries.filter((e) => run.ids.has(e.id))) {
        const secondsToPublish = Math.max(0, (now - Date.parse(e.acceptedAt)) / 1000);
        this.#published.push({ id: e.id, changes: e.changes, acceptedAt: e.acceptedAt, publishedAt: iso(now), release, secondsToPublish, attempts: e.attempts });
      }
      this.#published.splice(0, Math.max(0, this.#published.length - PUBLISHED_KEPT));
      this.#entries = this.#entries.filter((e) => !run.ids.has(e.id));
      this.#failures = 0;
      this.#last.report = outcome.report;
      this.#last.error = null;
    } else {
      for (const e of this.#entries) if (run.ids.has(e.id)) Object.assign(e, { attempts: e.attempts + 1, lastError: outcome.error });
      this.#rebuilds.failed++;
      this.#failures++;
      this.#last.error = outcome.error;
    }
    this.#options.onSettled?.();
    if (this.#closing) return;
    if ('error' in outcome) this.#retry(run.ids.size);
    if (this.#due) this.#start();
  }

  #retry(kept: number): void {
    this.#wakeIn(retryDelay(this.#failures, this.#options.retry));
    const when = this.#due ? 'now' : `in ${Math.round((this.#timer!.at - Date.now()) / 1000)} s`;
    this.#options.log(`webhook: ${kept} pending change(s) kept after ${this.#failures} failed rebuild(s) in a row; next attempt ${when}`);
  }
}
