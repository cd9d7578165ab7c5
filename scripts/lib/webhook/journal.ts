/**
 * The webhook's promise on disk: RELEASES_DIR/webhook-journal.json holds every accepted change not yet
 * published (with when it was accepted, its failed attempts and the last error), the replay memory
 * (signatures and delivery ids with when they expire) and, for the status, the last changes published with
 * how long each took. A call is answered 202 only once the journal holding it is on disk; a change leaves
 * it only when a rebuild that included it succeeded. On start the pending changes are read back and
 * rebuilt, so a kill, a restart, an aborted or failed rebuild loses none.
 *
 * Every write replaces the whole file atomically (temporary file, fsync, rename, fsync of the folder), one
 * write at a time. A file that cannot be read as a journal is moved aside, with a line saying where; a
 * history entry that cannot be read is only dropped (it is statistics, not a promise).
 */
import { mkdir, readdir, readFile, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { contentChange, type ContentChanges as Changes } from '../../../src/content/changes.ts';
import { writeFileDurably } from '../files.ts';
import { PUBLISHED_KEPT, type PendingChange, type PublishedChange, type SchedulerState } from './scheduler.ts';
import { ReplayMemory } from './signature.ts';

export const JOURNAL_FILE = 'webhook-journal.json';
const VERSION = 1;

interface JournalData {
  version: typeof VERSION;
  /** The id the next accepted change gets. */
  nextId: number;
  pending: PendingChange[];
  /** Replay memory: key → when it expires (ms since the epoch). */
  seen: Record<string, number>;
  /** The last changes published (none in a journal written before they were kept). */
  published: PublishedChange[];
}

const empty = (): JournalData => ({ version: VERSION, nextId: 1, pending: [], seen: {}, published: [] });
const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function readChanges(value: unknown): Changes {
  if (value === 'all') return 'all';
  if (!Array.isArray(value) || !value.length) throw new Error('"changes" must be "all" or a non-empty list');
  return value.map((c: unknown) => {
    if (!isObject(c)) throw new Error('a change must be an object');
    return contentChange(c.type, c.id);
  });
}

function readEntry(value: unknown, i: number): PendingChange {
  try {
    if (!isObject(value)) throw new Error('not an object');
    const { id, changes, acceptedAt, attempts, lastError } = value;
    if (!Number.isSafeInteger(id) || (id as number) < 1) throw new Error('"id" must be a positive integer');
    if (typeof acceptedAt !== 'string' || Number.isNaN(Date.parse(acceptedAt))) throw new Error('"acceptedAt" must be a date');
    if (!Number.isSafeInteger(attempts) || (attempts as number) < 0) throw new Error('"attempts" must be a non-negative integer');
    if (lastError !== null && typeof lastError !== 'string') throw new Error('"lastError" must be a string or null');
    return { id: id as number, changes: readChanges(changes), acceptedAt, attempts: attempts as number, lastError };
  } catch (error) {
    throw new Error(`pending[${i}]: ${messageOf(error)}`);
  }
}

const isDate = (v: unknown) => typeof v === 'string' && !Number.isNaN(Date.parse(v));

/** The history entries that read as such; it is only for the status, so a bad one is not worth the journal. */
function readPublished(value: unknown): PublishedChange[] {
  if (!Array.isArray(value)) return [];
  return value.slice(-PUBLISHED_KEPT).flatMap((v: unknown) => {
    if (!isObject(v)) return [];
    const { id, changes, acceptedAt, publishedAt, release, secondsToPublish, attempts } = v;
    try {
      if (!Number.isSafeInteger(id) || !isDate(acceptedAt) || !isDate(publishedAt) || !Number.isSafeInteger(attempts)) return [];
      if (typeof secondsToPublish !== 'number' || !(secondsToPublish >= 0) || (release !== null && typeof release !== 'string')) return [];
      const entry: PublishedChange = {
        id: id as number,
        changes: readChanges(changes),
        acceptedAt: acceptedAt as string,
        publishedAt: publishedAt as string,
        release,
        secondsToPublish,
        attempts: attempts as number,
      };
      return [entry];
    } catch {
      return [];
    }
  });
}

/** The journal's text read back; throws saying what is wrong with it. */
function parseJournal(text: string): JournalData {
  const value: unknown = JSON.parse(text);
  if (!isObject(value) || value.version !== VERSION) throw new Error(`not a version ${VERSION} journal`);
  if (!Array.isArray(value.pending)) throw new Error('"pending" must be a list');
  if (!isObject(value.seen) || !Object.values(value.seen).every(Number.isFinite)) throw new Error('"seen" must map keys to times');
  const pending = value.pending.map(readEntry);
  const nextId = Math.max(Number.isSafeInteger(value.nextId) ? (value.nextId as number) : 1, ...pending.map((e) => e.id + 1));
  return { version: VERSION, nextId, pending, seen: value.seen as Record<string, number>, published: readPublished(value.published) };
}

/** Reads the journal; a missing file is an empty journal, one that is not a journal is moved aside. */
async function load(file: string, log: (line: string) => void): Promise<JournalData> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return empty();
    throw error;
  }
  try {
    return parseJournal(text);
  } catch (error) {
    const aside = `${file}.corrupt-${new Date().toISOString().replace(/[-:.]/g, '')}`;
    await rename(file, aside);
    log(
      `webhook: the journal ${file} is corrupt (${messageOf(error)}); moved it to ${aside} and started with an empty one. ` +
        'Changes it held are not replayed: read it and send them again.',
    );
    return empty();
  }
}

export class Journal {
  readonly file: string;
  readonly replay: ReplayMemory;
  /** The changes the journal held when it was opened: accepted by an earlier run and not yet published. */
  readonly loaded: readonly PendingChange[];
  /** The history it held when it was opened. */
  readonly published: readonly PublishedChange[];
  #nextId: number;
  #queue: Promise<unknown> = Promise.resolve();

  private constructor(file: string, data: JournalData) {
    this.file = file;
    this.replay = new ReplayMemory(data.seen);
    this.loaded = data.pending;
    this.published = data.published;
    this.#nextId = data.nextId;
  }

  /** Opens (or creates) the journal of `dir`, and writes it back at once, so that a journal that cannot be written stops the start. */
  static async open(dir: string, log: (line: string) => void): Promise<Journal> {
    await mkdir(dir, { recursive: true });
    const file = join(dir, JOURNAL_FILE);
    // Temporary files of a listener killed while writing (one listener per folder, so none is in use).
    for (const name of await readdir(dir)) if (name.startsWith(`${JOURNAL_FILE}.tmp-`)) await rm(join(dir, name), { force: true });
    const journal = new Journal(file, await load(file, log));
    await journal.exclusive(() => journal.write({ pending: [...journal.loaded], published: [...journal.published] }));
    return journal;
  }

  /** A new entry for a change accepted at `now` (not yet written). */
  entry(changes: Changes, now: number): PendingChange {
    return { id: this.#nextId++, changes, acceptedAt: new Date(now).toISOString(), attempts: 0, lastError: null };
  }

  /** Runs `work` once every write queued before it is done; no other `exclusive` work runs meanwhile. */
  exclusive<T>(work: () => Promise<T>): Promise<T> {
    const result = this.#queue.then(work);
    this.#queue = result.catch(() => undefined);
    return result;
  }

  /**
   * Replaces the file with `state` and the replay memory plus `keys`, which are remembered only once
   * that is on disk. Throws when the write fails. Call it from `exclusive` work.
   */
  async write(state: SchedulerState, keys: readonly string[] = [], now = Date.now()): Promise<void> {
    const data: JournalData = { version: VERSION, nextId: this.#nextId, pending: state.pending, seen: this.replay.saved(now, keys), published: state.published };
    await writeFileDurably(this.file, `${JSON.stringify(data, null, 2)}\n`);
    this.replay.remember(keys, now);
  }

  /** Writes what `state()` says when its turn comes; a failure is logged (the next write carries the same). */
  save(state: () => SchedulerState, log: (line: string) => void): Promise<void> {
    return this.exclusive(() => this.write(state())).catch((error: unknown) =>
      log(`webhook: cannot write the journal ${this.file}: ${messageOf(error)}`),
    );
  }

  /** Resolves once no write is queued. */
  async idle(): Promise<void> {
    for (let seen: Promise<unknown> | null = null; seen !== this.#queue; ) {
      seen = this.#queue;
      await seen;
    }
  }
}
