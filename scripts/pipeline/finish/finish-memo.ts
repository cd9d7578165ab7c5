/**
 * The last pass's memo between builds (./finish-step.ts): what it found in each page, kept in SQLite beside
 * Astro's cache, one row a page, so that a build writes only the pages whose findings or stamps changed. At
 * 10,000 posts per language the memo as one JSON file (48 MB) cost some 1.5 s a build to write and read again;
 * as rows, 0.4 s to read every one and a few milliseconds to write those one edit changes (measured
 * 2026-12-05, docs/speed.md). A memo that cannot be read (not a database, a damaged one) or written is removed:
 * the next build then checks every page, as it does without a memo, and makes it again.
 *
 * Each page's row is handed over as its text, read when the pass reaches the page (`readPage`): 45,000 pages'
 * findings built at once as objects outlived the young heap and were copied by the collector, some 0.3 s of a
 * build at 10,000 news a language. A page unchanged is handed back as that same text and not written again.
 *
 * A row is in two parts: what the pass needs of every page (`memo`: the page's stamp, fragments, final hash and
 * what it replays), read whole by every build, and the rest (`detail`: the hash of its bytes, the files it refers
 * to), read only for a page that is read again, or for every page once a file has gone. Read with every row, the
 * second part was more than half of what a rebuild read (32 of 37 MB at 10,000 news a language).
 */
import { rmSync } from 'node:fs';
import { DatabaseSync, type StatementSync } from 'node:sqlite';

/** A page's memo as the pass wrote it: the part every build reads, and the part read when needed (`RememberedPages.detail`). */
export interface PageRows<Page, Detail> {
  memo: Page;
  detail: Detail;
}

export interface RememberedPages<Page, Detail> {
  /** The text of each page's memo remembered for this basis, by site path (empty when the basis differs): `readPage` reads one. */
  pages: ReadonlyMap<string, string>;
  /** The files of the site the memo was made for that have gone since (site paths). */
  gone: ReadonlySet<string>;
  /** A remembered page's detail, or undefined when there is none (or the memo cannot be read). */
  detail(path: string): Detail | undefined;
  /**
   * Keeps `pages` and `files` for the next build: writes the pages that are not the text read (a page unchanged
   * is handed back as its memo's text), removes those no longer there. Closes the memo.
   */
  save(pages: ReadonlyMap<string, PageRows<Page, Detail> | string>, files: readonly string[]): void;
  /** Closes the memo unsaved (a failed build). */
  close(): void;
}

/** A page's remembered text as the page it was written from, or undefined when it is not one (damaged: the page is checked again). */
export function readPage<Page>(text: string | undefined, isPage: (value: unknown) => value is Page): Page | undefined {
  if (text === undefined) return undefined;
  try {
    const page: unknown = JSON.parse(text);
    return isPage(page) ? page : undefined;
  } catch {
    return undefined;
  }
}

// The rows of an earlier version's memo (one part a page) are dropped: the pass's code changed, so none holds.
const SCHEMA = `
  CREATE TABLE IF NOT EXISTS memo (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
  DROP TABLE IF EXISTS pages;
  CREATE TABLE IF NOT EXISTS page_rows (path TEXT PRIMARY KEY, memo TEXT NOT NULL, detail TEXT NOT NULL) WITHOUT ROWID;
`;

const valueOf = (db: DatabaseSync, key: string) => (db.prepare('SELECT value FROM memo WHERE key = ?').get(key) as { value: string } | undefined)?.value;

/** Rows as arrays, into a map: an object per row, and 45,000 paths as an object's keys, took twice as long. */
function columnByPath(db: DatabaseSync, column: 'memo' | 'detail'): Map<string, string> {
  const rows = db.prepare(`SELECT path, ${column} FROM page_rows`);
  rows.setReturnArrays(true);
  const byPath = new Map<string, string>();
  for (const [path, text] of rows.iterate() as Iterable<[string, string]>) byPath.set(path, text);
  return byPath;
}

/**
 * Reads the memo in `file` for `basis` (the pass's code: any change forgets every page), for a site of `files`;
 * `isDetail` says whether a remembered detail is one the pass wrote (a damaged one: the page is checked again).
 */
export function rememberedPages<Page, Detail>(
  file: string,
  basis: string,
  files: ReadonlySet<string>,
  isDetail: (value: unknown) => value is Detail,
): RememberedPages<Page, Detail> {
  let db: DatabaseSync | null = null;
  let same = false;
  let pages = new Map<string, string>();
  let gone = new Set<string>();
  /** Every page's detail, read at once when a file has gone (each page's is then needed); else each read when asked for. */
  let details: Map<string, string> | null = null;
  const close = () => {
    db?.close();
    db = null;
  };
  /**
   * The memo that cannot be read (not a database, a damaged one) is removed: the next build checks every page, and
   * makes it again. One that cannot be removed either (a folder in its place) is only not used: never a failed build.
   */
  const forget = () => {
    try {
      close();
    } catch {
      db = null;
    }
    try {
      rmSync(file, { force: true });
    } catch {
      // Left as it is: this build checks every page, and its save fails the same way.
    }
  };
  let detailStatement: StatementSync | null = null;
  try {
    db = new DatabaseSync(file, { timeout: 10_000 });
    db.exec(SCHEMA);
    if (valueOf(db, 'basis') === basis) {
      // The files the memo was made for say which have gone since: without them, no remembered page can be trusted.
      const madeFor: unknown = JSON.parse(valueOf(db, 'files') ?? 'null');
      if (!Array.isArray(madeFor) || !madeFor.every((f) => typeof f === 'string')) throw new Error('a memo without its files');
      pages = columnByPath(db, 'memo');
      same = true;
      // A file that has gone may be what some remembered page refers to: the pass's visitors say whether their findings hold.
      gone = new Set((madeFor as string[]).filter((f) => !files.has(f)));
      if (gone.size) details = columnByPath(db, 'detail');
      else detailStatement = db.prepare('SELECT detail FROM page_rows WHERE path = ?');
    }
  } catch {
    forget();
    same = false;
    pages = new Map();
    gone = new Set();
    details = null;
    detailStatement = null;
  }
  const detailText = (path: string): string | undefined => {
    if (details) return details.get(path);
    try {
      return (detailStatement?.get(path) as { detail: string } | undefined)?.detail;
    } catch {
      return undefined;
    }
  };

  return {
    pages,
    gone,
    detail: (path) => (pages.has(path) ? readPage(detailText(path), isDetail) : undefined),
    save: (next, siteFiles) => {
      try {
        if (!db) db = new DatabaseSync(file, { timeout: 10_000 });
        write(db, next, siteFiles);
        close();
      } catch {
        // A memo that cannot be written (damaged where reading does not look) is made again by the next build,
        // which then checks every page: never a failed build for it, never findings half written.
        forget();
      }
    },
    close,
  };

  function write(db: DatabaseSync, next: ReadonlyMap<string, PageRows<Page, Detail> | string>, siteFiles: readonly string[]): void {
    db.exec(SCHEMA);
    const put = db.prepare('INSERT OR REPLACE INTO page_rows (path, memo, detail) VALUES (?, ?, ?)');
    const remove = db.prepare('DELETE FROM page_rows WHERE path = ?');
    const setValue = db.prepare('INSERT OR REPLACE INTO memo (key, value) VALUES (?, ?)');
    db.exec('BEGIN IMMEDIATE');
    try {
      if (!same) db.exec('DELETE FROM page_rows');
      for (const [path, page] of next) {
        // A page handed back as its text is the row as it is.
        if (typeof page !== 'string') put.run(path, JSON.stringify(page.memo), JSON.stringify(page.detail));
      }
      if (same) for (const path of pages.keys()) if (!next.has(path)) remove.run(path);
      setValue.run('basis', basis);
      setValue.run('files', JSON.stringify(siteFiles));
      db.exec('COMMIT');
    } catch (error) {
      db.exec('ROLLBACK');
      throw error;
    }
  }
}
