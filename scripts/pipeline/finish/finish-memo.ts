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
 */
import { rmSync } from 'node:fs';
import { DatabaseSync } from 'node:sqlite';

export interface RememberedPages<Page> {
  /** The text of each page remembered for this basis, by site path (empty when the basis differs): `readPage` reads one. */
  pages: ReadonlyMap<string, string>;
  /** The files of the site the memo was made for that have gone since (site paths). */
  gone: ReadonlySet<string>;
  /**
   * Keeps `pages` and `files` for the next build: writes the pages that are not the text read (a page unchanged
   * is handed back as its text), removes those no longer there.
   */
  save(pages: ReadonlyMap<string, Page | string>, files: readonly string[]): void;
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

const SCHEMA = `
  CREATE TABLE IF NOT EXISTS memo (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
  CREATE TABLE IF NOT EXISTS pages (path TEXT PRIMARY KEY, memo TEXT NOT NULL) WITHOUT ROWID;
`;

/** Runs `use` on the memo's database, closed after whatever `use` does. */
function withDatabase<T>(file: string, use: (db: DatabaseSync) => T): T {
  const db = new DatabaseSync(file, { timeout: 10_000 });
  try {
    db.exec(SCHEMA);
    return use(db);
  } finally {
    db.close();
  }
}

const valueOf = (db: DatabaseSync, key: string) => (db.prepare('SELECT value FROM memo WHERE key = ?').get(key) as { value: string } | undefined)?.value;

/** Reads the memo in `file` for `basis` (the pass's code: any change forgets every page), for a site of `files`. */
export function rememberedPages<Page>(file: string, basis: string, files: ReadonlySet<string>): RememberedPages<Page> {
  const read = (db: DatabaseSync) => {
    const pages = new Map<string, string>();
    if (valueOf(db, 'basis') !== basis) return { same: false, pages, gone: new Set<string>() };
    // Rows as arrays, into a map: an object per row, and 45,000 paths as an object's keys, took twice as long.
    const rows = db.prepare('SELECT path, memo FROM pages');
    rows.setReturnArrays(true);
    for (const [path, memo] of rows.iterate() as Iterable<[string, string]>) pages.set(path, memo);
    // A file that has gone may be what some remembered page refers to: the pass's visitors say whether their findings hold.
    const gone = new Set((JSON.parse(valueOf(db, 'files') ?? '[]') as string[]).filter((f) => !files.has(f)));
    return { same: true, pages, gone };
  };
  let remembered: ReturnType<typeof read>;
  try {
    remembered = withDatabase(file, read);
  } catch {
    rmSync(file, { force: true });
    remembered = { same: false, pages: new Map(), gone: new Set() };
  }
  const { same, pages, gone } = remembered;
  return {
    pages,
    gone,
    save: (next, siteFiles) => {
      try {
        write(next, siteFiles);
      } catch {
        // A memo that cannot be written (damaged where reading does not look) is made again by the next build,
        // which then checks every page: never a failed build for it, never findings half written.
        rmSync(file, { force: true });
      }
    },
  };

  function write(next: ReadonlyMap<string, Page | string>, siteFiles: readonly string[]): void {
    withDatabase(file, (db) => {
      const put = db.prepare('INSERT OR REPLACE INTO pages (path, memo) VALUES (?, ?)');
      const remove = db.prepare('DELETE FROM pages WHERE path = ?');
      const setValue = db.prepare('INSERT OR REPLACE INTO memo (key, value) VALUES (?, ?)');
      db.exec('BEGIN IMMEDIATE');
      try {
        if (!same) db.exec('DELETE FROM pages');
        for (const [path, page] of next) if (pages.get(path) !== page) put.run(path, typeof page === 'string' ? page : JSON.stringify(page));
        if (same) for (const path of pages.keys()) if (!next.has(path)) remove.run(path);
        setValue.run('basis', basis);
        setValue.run('files', JSON.stringify(siteFiles));
        db.exec('COMMIT');
      } catch (error) {
        db.exec('ROLLBACK');
        throw error;
      }
    });
  }
}
