/**
 * The webhook's promise on disk: RELEASES_DIR/webhook-journal.json holds every accepted change not yet
 * published (with when it was accepted, its failed attempts and the last error), the replay memory
 * (signatures and delivery ids with when they expire) and, for the status, the last changes published with
 * how long each took. A call is answered 202 only once the journal holding it is on disk; a change leaves
 * it only when a rebuild that included it succeeded. On start the pending changes are read back and
 * rebuilt, so a kill, a restart, an aborted or failed rebuild loses none.
 *
 * Every write replaces the whole file atomically (temporary file, fsync, rename, fsync of the folder), one
 * write at a time, readable by its owner only: it says which calls were taken. Each part is a JSON line of
 * its own, so that damage to one (a stray byte, a bad entry) loses only that part: above all, the replay
 * memory outlives damage to the pending changes. A damaged journal is moved aside, with a line saying where
 * and what was kept. When the replay memory is lost, calls signed before the start are refused, since any
 * of them may have been accepted already. A history entry that cannot be read is only dropped (it is
 * statistics, not a promise).
 */
import { chmod, mkdir, readdir, readFile, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { contentChange, type ContentChanges as Changes } from '../../src/content/changes.ts';
import { replaceFile } from '../lib/replace-file.ts';
import { PUBLISHED_KEPT, type PendingChange, type PublishedChange, type SchedulerState } from './scheduler.ts';
import { ReplayMemory } from './signature.ts';

export const JOURNAL_FILE = 'webhook-journal.json';
/** 2: a line per part; 1 (one JSON object, before the parts were kept apart) is still read. */
const VERSION = 2;
const FILE_MODE = 0o600;

interface JournalData {
  /** The id the next accepted change gets. */
  nextId: number;
  pending: PendingChange[];
  /** Replay memory: key → when it expires (ms since the epoch). */
  seen: Record<string, number>;
  /** Calls signed before this (ms) may have been accepted and forgotten (ReplayMemory). */
  lostBefore: number | null;
  /** The last changes published (none in a journal written before they were kept). */
  published: PublishedChange[];
}

const empty = (): JournalData => ({ nextId: 1, pending: [], seen: {}, lostBefore: null, published: [] });
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
    throw new Error(`pending[${i}]: ${messageOf(error)}`, { cause: error });
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

const parseOrUndefined = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
};

/** The parts of a journal's text, each as written; a line that cannot be read is named in `damage`. */
function splitParts(text: string): { parts: Record<string, unknown>; damage: string[] } {
  const whole = parseOrUndefined(text);
  if (isObject(whole) && whole.version === 1) return { parts: whole, damage: [] };
  const parts: Record<string, unknown> = {};
  const damage: string[] = [];
  text.split('\n').forEach((line, i) => {
    if (line.trim() === '') return;
    const value = parseOrUndefined(line);
    if (isObject(value)) Object.assign(parts, value);
    else damage.push(`line ${i + 1} cannot be read`);
  });
  if (parts.version !== undefined && parts.version !== VERSION) return { parts: {}, damage: [`it is not a version ${VERSION} journal`] };
  return { parts, damage };
}

/** `read(value)`, or null with what is wrong added to `damage`. */
function part<T>(name: string, value: unknown, read: (value: unknown) => T, damage: string[]): T | null {
  if (value === undefined) {
    damage.push(`${name}: missing`);
    return null;
  }
  try {
    return read(value);
  } catch (error) {
    damage.push(`${name}: ${messageOf(error)}`);
    return null;
  }
}

function readPending(value: unknown): PendingChange[] {
  if (!Array.isArray(value)) throw new Error('not a list');
  return value.map(readEntry);
}

function readMemory(seen: unknown, lostBefore: unknown): Pick<JournalData, 'seen' | 'lostBefore'> {
  if (!isObject(seen) || !Object.values(seen).every(Number.isFinite)) throw new Error('keys must map to times');
  if (lostBefore !== undefined && !Number.isFinite(lostBefore)) throw new Error('"lostBefore" must be a time');
  return { seen: seen as Record<string, number>, lostBefore: (lostBefore as number | undefined) ?? null };
}

/** What could be read of a journal's text: each part, or null for one that could not be; `damage` says what was wrong. */
function readJournal(text: string) {
  const { parts, damage } = splitParts(text);
  const pending = part('pending changes', parts.pending, readPending, damage);
  const memory = part('replay memory', parts.seen, (seen) => readMemory(seen, parts.lostBefore), damage);
  const published = readPublished(parts.published);
  const ids = [...(pending ?? []), ...published].map((e) => e.id + 1);
  const nextId = Math.max(Number.isSafeInteger(parts.nextId) ? (parts.nextId as number) : 1, ...ids);
  return { nextId, pending, memory, published, damage };
}

/**
 * Reads the journal; a missing file is an empty journal. A damaged one is moved aside (readable by its owner
 * only) with a line saying what was kept; when its replay memory is lost, calls signed before `now` are
 * refused until none of them can be fresh any more.
 */
async function load(file: string, log: (line: string) => void, now: number): Promise<JournalData> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return empty();
    throw error;
  }
  const read = readJournal(text);
  const data: JournalData = {
    nextId: read.nextId,
    pending: read.pending ?? [],
    seen: read.memory?.seen ?? {},
    lostBefore: read.memory ? read.memory.lostBefore : now,
    published: read.published,
  };
  if (!read.damage.length) return data;
  const aside = `${file}.damaged-${new Date(now).toISOString().replace(/[-:.]/g, '')}`;
  await rename(file, aside);
  await chmod(aside, FILE_MODE);
  const pending = read.pending
    ? `its ${read.pending.length} pending change(s) were read and are rebuilt`
    : 'its pending changes could not be read and are not rebuilt: read them there and send them again';
  const memory = read.memory
    ? 'its memory of the calls accepted lately was read'
    : `its memory of the calls accepted lately is lost, so calls signed before ${new Date(now).toISOString()} are refused (401)`;
  log(`webhook: the journal ${file} was damaged (${read.damage.join('; ')}); moved it to ${aside}. ${pending}; ${memory}.`);
  return data;
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
  #saving: Promise<void> | null = null;

  private constructor(file: string, data: JournalData) {
    this.file = file;
    this.replay = new ReplayMemory(data.seen, data.lostBefore);
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
    const journal = new Journal(file, await load(file, log, Date.now()));
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
    const lostBefore = this.replay.lostBefore(now);
    const lines = [
      { version: VERSION, nextId: this.#nextId },
      { seen: this.replay.saved(now, keys), ...(lostBefore === null ? {} : { lostBefore }) },
      { pending: state.pending },
      { published: state.published },
    ];
    await replaceFile(this.file, `${lines.map((line) => JSON.stringify(line)).join('\n')}\n`, { durable: true, mode: FILE_MODE });
    this.replay.remember(keys, now);
  }

  /**
   * Writes what `state()` says when its turn comes; a failure is logged (the next write carries the same).
   * Asked again before that turn, it is the same write: it will carry what both wanted.
   */
  save(state: () => SchedulerState, log: (line: string) => void): Promise<void> {
    this.#saving ??= this.exclusive(() => {
      this.#saving = null;
      return this.write(state());
    }).catch((error: unknown) => log(`webhook: cannot write the journal ${this.file}: ${messageOf(error)}`));
    return this.#saving;
  }

  /**
   * For a signed call that changes nothing (the status): false when its keys were seen lately; otherwise
   * they are remembered at once and saved with the journal, without the answer waiting for the disk.
   */
  admit(keys: readonly string[], state: () => SchedulerState, log: (line: string) => void, now = Date.now()): boolean {
    if (this.replay.has(keys, now)) return false;
    this.replay.remember(keys, now);
    void this.save(state, log);
    return true;
  }

  /** Resolves once no write is queued. */
  async idle(): Promise<void> {
    for (let seen: Promise<unknown> | null = null; seen !== this.#queue;) {
      seen = this.#queue;
      await seen;
    }
  }
}
