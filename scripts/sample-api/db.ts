/**
 * The sample API's SQLite database: schema, seeding from the versioned files in
 * ./seed, and the generated pictures. Content is stored one row per item and
 * language; appeals and survey answers are never dropped by a reseed. With
 * `photos: 'distinct'` every post, employee and gallery photo gets a URL of its
 * own under /media/ (drawn on request, see media.ts) instead of a shared
 * /uploads/ picture.
 */
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { latinToCyrillic } from './transliterate.ts';
import { drawnPicture, type PictureKind } from './images.ts';
import type { PhotoMode } from './media.ts';

const SEED_DIR = new URL('./seed/', import.meta.url);
/** Bump when the schema or the way seeds are loaded changes, so stored databases are reseeded. */
const SCHEMA_VERSION = 2;

export type Texts = { uz: string; ru: string; en: string };
const LANGS = [1, 2, 3, 4] as const;

/** The text of a seed entry in API language `lang`; Uzbek Cyrillic is transliterated from Latin. */
function textIn(t: Texts, lang: number): string {
  if (lang === 2) return latinToCyrillic(t.uz);
  if (lang === 3) return t.ru;
  if (lang === 4) return t.en;
  return t.uz;
}

const CONTENT_SCHEMA = `
CREATE TABLE posts (id INTEGER NOT NULL, lang INTEGER NOT NULL, type INTEGER NOT NULL, date TEXT, views INTEGER,
  image TEXT, title TEXT NOT NULL, brief TEXT NOT NULL, html TEXT NOT NULL, PRIMARY KEY (id, lang));
CREATE INDEX posts_by_type ON posts (lang, type, date DESC, id DESC);
CREATE TABLE pages (id INTEGER NOT NULL, lang INTEGER NOT NULL, views INTEGER, title TEXT NOT NULL, html TEXT NOT NULL,
  PRIMARY KEY (id, lang));
CREATE TABLE menu_groups (id INTEGER NOT NULL, lang INTEGER NOT NULL, position INTEGER NOT NULL, is_top INTEGER NOT NULL,
  title TEXT NOT NULL, PRIMARY KEY (id, lang));
CREATE TABLE menu_items (id INTEGER NOT NULL, lang INTEGER NOT NULL, group_id INTEGER NOT NULL, position INTEGER NOT NULL,
  page TEXT NOT NULL, is_page INTEGER NOT NULL, title TEXT NOT NULL, PRIMARY KEY (id, lang));
CREATE TABLE employees (id INTEGER NOT NULL, lang INTEGER NOT NULL, category INTEGER NOT NULL, image TEXT, fio TEXT NOT NULL,
  position TEXT NOT NULL, briefly TEXT NOT NULL, biography TEXT NOT NULL, obligation TEXT NOT NULL, PRIMARY KEY (id, lang));
CREATE TABLE photo_groups (id INTEGER NOT NULL, lang INTEGER NOT NULL, date TEXT, title TEXT NOT NULL, photos TEXT NOT NULL,
  PRIMARY KEY (id, lang));
CREATE TABLE videos (id INTEGER NOT NULL, lang INTEGER NOT NULL, url TEXT NOT NULL, title TEXT NOT NULL, PRIMARY KEY (id, lang));
CREATE TABLE surveys (id INTEGER NOT NULL, lang INTEGER NOT NULL, title TEXT NOT NULL, brief TEXT NOT NULL, author TEXT NOT NULL,
  PRIMARY KEY (id, lang));
CREATE TABLE survey_seed_counts (id INTEGER PRIMARY KEY, likes INTEGER NOT NULL, dislikes INTEGER NOT NULL);
CREATE TABLE media_versions (path TEXT PRIMARY KEY, version INTEGER NOT NULL, modified INTEGER NOT NULL);
CREATE VIRTUAL TABLE search_index USING fts5(title, body, lang UNINDEXED, ref_id UNINDEXED, is_page UNINDEXED,
  tokenize = 'unicode61 remove_diacritics 2');
`;
const CONTENT_TABLES = ['posts', 'pages', 'menu_groups', 'menu_items', 'employees', 'photo_groups', 'videos', 'surveys', 'survey_seed_counts', 'search_index', 'media_versions'];

const KEPT_SCHEMA = `
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS appeals (id INTEGER PRIMARY KEY AUTOINCREMENT, received_at TEXT NOT NULL, lang INTEGER NOT NULL,
  fio TEXT NOT NULL, tel TEXT NOT NULL, email TEXT NOT NULL, title TEXT NOT NULL, description TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS survey_answers (id INTEGER PRIMARY KEY AUTOINCREMENT, survey_id INTEGER NOT NULL,
  is_like INTEGER NOT NULL, answered_at TEXT NOT NULL);
`;

interface SeedPost {
  type: number;
  date: string | null;
  views: number | null;
  image: string | null;
  title: Texts;
  brief: Texts;
  html: Texts;
}
interface SeedPage {
  id: number;
  views: number;
  title: Texts;
  html: Texts;
}
interface SeedMenuGroup {
  title: Texts;
  isTop: boolean;
  items: { title: Texts; page: string; isPage: boolean }[];
}
interface SeedEmployee {
  category: number;
  fio: Texts;
  position: Texts;
  briefly: Texts;
  biography: Texts;
  obligation: Texts;
  image: string;
}
interface SeedGalleries {
  photoGroups: { title: Texts; date: string; photos: string[] }[];
  videos: { title: Texts; url: string }[];
}
interface SeedSurvey {
  title: Texts;
  brief: Texts;
  author: Texts;
  likes: number;
  dislikes: number;
}

function readSeed<T>(file: string): T {
  return JSON.parse(readFileSync(new URL(file, SEED_DIR), 'utf8')) as T;
}

/** Identifies the seed files' content and the options they were loaded with. */
function seedVersion(scale: number, photos: PhotoMode): string {
  const hash = createHash('sha256').update(`schema ${SCHEMA_VERSION} scale ${scale} photos ${photos}\n`);
  for (const f of readdirSync(SEED_DIR).sort()) hash.update(f).update(readFileSync(new URL(f, SEED_DIR)));
  return hash.digest('hex').slice(0, 16);
}

export interface OpenOptions {
  dataDir: string;
  /** Drop and reload the content from the seed files. */
  reset?: boolean;
  /** Extra generated news posts per language, for benchmarks. */
  scale?: number;
  /** `shared` (default): the seed's /uploads/ pictures, shared by many posts; `distinct`: one /media/ URL per item. */
  photos?: PhotoMode;
  log?: (line: string) => void;
}

export function openDatabase({ dataDir, reset = false, scale = 0, photos = 'shared', log = () => {} }: OpenOptions): DatabaseSync {
  mkdirSync(join(dataDir, 'uploads'), { recursive: true });
  const db = new DatabaseSync(join(dataDir, 'sample.db'));
  db.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL;');
  db.exec(KEPT_SCHEMA);
  migrateKept(db);
  const wanted = seedVersion(scale, photos);
  const row = db.prepare("SELECT value FROM meta WHERE key = 'seed'").get() as { value: string } | undefined;
  if (reset || row?.value !== wanted) {
    const started = performance.now();
    seed(db, dataDir, scale, photos);
    db.prepare("INSERT OR REPLACE INTO meta (key, value) VALUES ('seed', ?)").run(wanted);
    log(`seeded ${reset ? '(reset) ' : ''}in ${Math.round(performance.now() - started)} ms`);
  }
  return db;
}

/**
 * Changes to the kept tables, made in place: appeals are never dropped, so a column they lack is added.
 * `idempotency_key`: the form's random id per appeal draft; a repeat of a stored key is
 * answered with the first appeal's number instead of storing a second one. Nullable, since appeals from
 * before it (and from clients that do not send one) have none; a unique index allows many NULLs.
 */
export function migrateKept(db: DatabaseSync): void {
  const columns = db.prepare('PRAGMA table_info(appeals)').all() as { name: string }[];
  if (!columns.some((c) => c.name === 'idempotency_key')) db.exec('ALTER TABLE appeals ADD COLUMN idempotency_key TEXT');
  db.exec('CREATE UNIQUE INDEX IF NOT EXISTS appeals_by_idempotency_key ON appeals (idempotency_key)');
}

/** The URL of a seed picture for an item (`post/101`, `employee/3`, `gallery/2-5`); null when the seed gives it none. */
type PictureOf = (name: string | null, own: string, kind?: PictureKind) => string | null;

function seed(db: DatabaseSync, dataDir: string, scale: number, photos: PhotoMode): void {
  const pictures = new Map<string, PictureKind>();
  // The seed pictures are drawn in both modes: posts' HTML may show them too.
  const picture: PictureOf = (name, own, kind = 'landscape') => {
    if (!name) return null;
    pictures.set(name, kind);
    return photos === 'distinct' ? `/media/${own}.jpg` : `/uploads/${kind}-${name}.png`;
  };

  db.exec('BEGIN');
  try {
    for (const t of CONTENT_TABLES) db.exec(`DROP TABLE IF EXISTS ${t}`);
    db.exec(CONTENT_SCHEMA);
    const searchable = searchIndexer(db);
    seedPosts(db, scale, picture, searchable);
    seedPages(db, searchable);
    seedMenu(db);
    seedEmployees(db, picture);
    seedGalleries(db, picture);
    seedSurveys(db);
    db.exec('COMMIT');
  } catch (err) {
    db.exec('ROLLBACK');
    throw err;
  }

  // A picture depends only on its name and kind, so one already there is kept.
  for (const [name, kind] of pictures) {
    const file = join(dataDir, 'uploads', `${kind}-${name}.png`);
    if (!existsSync(file)) copyFileSync(drawnPicture(name, kind), file);
  }
}

type Searchable = (lang: number, id: number, isPage: boolean, title: string, html: string) => void;

/** Adds an item's words to the search index (its HTML without tags). */
function searchIndexer(db: DatabaseSync): Searchable {
  const addSearch = db.prepare('INSERT INTO search_index VALUES (?, ?, ?, ?, ?)');
  return (lang, id, isPage, title, html) => void addSearch.run(title, html.replace(/<[^>]*>/g, ' '), lang, id, isPage ? 1 : 0);
}

function seedPosts(db: DatabaseSync, scale: number, picture: PictureOf, searchable: Searchable): void {
  const posts = readSeed<SeedPost[]>('posts.json');
  const addPost = db.prepare('INSERT INTO posts VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)');
  let postId = 100;
  for (const p of posts) {
    postId++;
    for (const lang of LANGS) {
      const title = textIn(p.title, lang);
      const html = textIn(p.html, lang);
      addPost.run(postId, lang, p.type, p.date, p.views, picture(p.image, `post/${postId}`), title, textIn(p.brief, lang), html);
      searchable(lang, postId, false, title, html);
    }
  }
  // Benchmark scale: older news generated from the seed news, so every one is distinct.
  const news = posts.filter((p) => p.type === 1);
  for (let k = 0; k < scale; k++) {
    const base = news[k % news.length]!;
    const date = new Date(Date.parse('2024-01-01T09:00:00+05:00') - k * 3_600_000).toISOString();
    postId++;
    for (const lang of LANGS) {
      const title = `${textIn(base.title, lang)} (${k + 1})`;
      addPost.run(postId, lang, 1, date, k % 500, picture(base.image, `post/${postId}`), title, textIn(base.brief, lang), textIn(base.html, lang));
    }
  }
}

function seedPages(db: DatabaseSync, searchable: Searchable): void {
  const addPage = db.prepare('INSERT INTO pages VALUES (?, ?, ?, ?, ?)');
  for (const p of readSeed<SeedPage[]>('pages.json')) {
    for (const lang of LANGS) {
      const title = textIn(p.title, lang);
      const html = textIn(p.html, lang);
      addPage.run(p.id, lang, p.views, title, html);
      searchable(lang, p.id, true, title, html);
    }
  }
}

function seedMenu(db: DatabaseSync): void {
  const addGroup = db.prepare('INSERT INTO menu_groups VALUES (?, ?, ?, ?, ?)');
  const addItem = db.prepare('INSERT INTO menu_items VALUES (?, ?, ?, ?, ?, ?, ?)');
  let itemId = 0;
  readSeed<SeedMenuGroup[]>('menu.json').forEach((g, gi) => {
    for (const lang of LANGS) addGroup.run(gi + 1, lang, gi, g.isTop ? 1 : 0, textIn(g.title, lang));
    g.items.forEach((item, ii) => {
      itemId++;
      for (const lang of LANGS) addItem.run(itemId, lang, gi + 1, ii, item.page, item.isPage ? 1 : 0, textIn(item.title, lang));
    });
  });
}

function seedEmployees(db: DatabaseSync, picture: PictureOf): void {
  const addEmployee = db.prepare('INSERT INTO employees VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)');
  readSeed<SeedEmployee[]>('employees.json').forEach((e, i) => {
    for (const lang of LANGS) {
      addEmployee.run(
        i + 1,
        lang,
        e.category,
        picture(e.image, `employee/${i + 1}`, 'portrait'),
        textIn(e.fio, lang),
        textIn(e.position, lang),
        textIn(e.briefly, lang),
        textIn(e.biography, lang),
        textIn(e.obligation, lang),
      );
    }
  });
}

function seedGalleries(db: DatabaseSync, picture: PictureOf): void {
  const galleries = readSeed<SeedGalleries>('galleries.json');
  const addPhotoGroup = db.prepare('INSERT INTO photo_groups VALUES (?, ?, ?, ?, ?)');
  galleries.photoGroups.forEach((g, i) => {
    const urls = JSON.stringify(g.photos.map((name, n) => picture(name, `gallery/${i + 1}-${n + 1}`)));
    for (const lang of LANGS) addPhotoGroup.run(i + 1, lang, g.date, textIn(g.title, lang), urls);
  });
  const addVideo = db.prepare('INSERT INTO videos VALUES (?, ?, ?, ?)');
  galleries.videos.forEach((vid, i) => {
    for (const lang of LANGS) addVideo.run(i + 1, lang, vid.url, textIn(vid.title, lang));
  });
}

function seedSurveys(db: DatabaseSync): void {
  const addSurvey = db.prepare('INSERT INTO surveys VALUES (?, ?, ?, ?, ?)');
  const addCounts = db.prepare('INSERT INTO survey_seed_counts VALUES (?, ?, ?)');
  readSeed<SeedSurvey[]>('surveys.json').forEach((s, i) => {
    addCounts.run(i + 1, s.likes, s.dislikes);
    for (const lang of LANGS) addSurvey.run(i + 1, lang, textIn(s.title, lang), textIn(s.brief, lang), textIn(s.author, lang));
  });
}
