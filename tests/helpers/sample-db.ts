/**
 * Direct access to the e2e sample API's SQLite file (its path is in E2E_API_DB, set by the global
 * setup), for what the API has no endpoint for: publishing a post after the site was built, and
 * counting the appeals it stored. WAL mode lets this connection and the server's work side by side.
 */
import { DatabaseSync } from 'node:sqlite';

function open(): DatabaseSync {
  const path = process.env.E2E_API_DB;
  if (!path) throw new Error('E2E_API_DB is not set: run through the Playwright global setup');
  const db = new DatabaseSync(path);
  db.exec('PRAGMA busy_timeout = 5000');
  return db;
}

export interface NewPost {
  /** Post type (1 news, 2 announcements, 4 official lectures). */
  type: number;
  title: string;
  brief: string;
  html: string;
  date: string;
}

/** Publishes a post in the given API languages under a fresh id (never one the build has), searchable; returns the id. */
export function publishPost(byLang: Partial<Record<1 | 2 | 3 | 4, NewPost>>): number {
  const db = open();
  try {
    const { id } = db.prepare('SELECT max(id) + 1000 + abs(random() % 100000) AS id FROM posts').get() as { id: number };
    for (const [lang, p] of Object.entries(byLang)) {
      db.prepare('INSERT INTO posts VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)').run(id, Number(lang), p.type, p.date, 0, null, p.title, p.brief, p.html);
      db.prepare('INSERT INTO search_index VALUES (?, ?, ?, ?, ?)').run(p.title, p.html.replace(/<[^>]*>/g, ' '), Number(lang), id, 0);
    }
    return id;
  } finally {
    db.close();
  }
}

/** Takes a post published by a test away again, so that the API's lists match the build for the other tests. */
export function unpublishPost(id: number): void {
  const db = open();
  try {
    db.prepare('DELETE FROM posts WHERE id = ?').run(id);
    db.prepare('DELETE FROM search_index WHERE ref_id = ?').run(id);
  } finally {
    db.close();
  }
}

/** How many appeals the API stored with this message text. */
export function appealsWithMessage(message: string): number {
  const db = open();
  try {
    return (db.prepare('SELECT count(*) AS n FROM appeals WHERE title = ?').get(message) as { n: number }).n;
  } finally {
    db.close();
  }
}

/** The id of the post whose Uzbek Latin text holds `words`. */
export function postWith(words: string): number {
  const db = open();
  try {
    const row = db.prepare("SELECT id FROM posts WHERE lang = 1 AND html LIKE '%' || ? || '%' ORDER BY id LIMIT 1").get(words) as { id: number } | undefined;
    if (!row) throw new Error(`no post of the sample holds ${words}`);
    return row.id;
  } finally {
    db.close();
  }
}
