/**
 * The bundled sample API: a real HTTP server that speaks the administration's
 * API contract (docs/rules.md, The API's calls, with the shapes fixed in the foundation issue), backed
 * by SQLite. It stands in for the real API on machines with no outside network.
 * Its pictures, their caching headers and its latency can be made to behave like
 * the real API's (media.ts).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { DatabaseSync } from 'node:sqlite';
import { readBody, sendJson } from '../lib/http.ts';
import { openDatabase, type OpenOptions } from './db.ts';
import { sampleDocument } from './documents.ts';
import { createFaultInjector, describeRule, faultsFromEnv, validateRules, type FaultRule } from './faults.ts';
import {
  createMediaStore,
  fromLoopback,
  latencyFromEnv,
  mediaHeadersFromEnv,
  MediaNotFoundError,
  parseLatency,
  parseMediaHeaderMode,
  parsePhotoMode,
  photosFromEnv,
  sendPicture,
  type MediaHeaderMode,
  type MediaInfo,
  type MediaStore,
  type PhotoMode,
} from './media.ts';

/** Posts per page of `api/post/{type}`. */
const PAGE_SIZE = 10;
/** Every appeal field at least 10 characters (docs/rules.md, Appeal form), enforced here as the real server does (400). */
const MIN_FIELD_LENGTH = 10;
const MAX_BODY_BYTES = 64 * 1024;
/** An idempotency key longer than this is not one the form made: it is ignored, not stored. */
const MAX_IDEMPOTENCY_KEY_LENGTH = 100;

/** The API's own answers, in its four languages (1 uz-Latn, 2 uz-Cyrl, 3 ru, 4 en). */
const MESSAGES = {
  appealReceived: [
    'Murojaatingiz qabul qilindi. Raqami: {n}',
    'Мурожаатингиз қабул қилинди. Рақами: {n}',
    'Ваше обращение принято. Номер: {n}',
    'Your appeal has been received. Number: {n}',
  ],
  captchaMissing: ['Captcha tasdiqlanmadi', 'Captcha тасдиқланмади', 'Капча не подтверждена', 'The captcha was not confirmed'],
  emptyQuery: ['Qidiruv soʻzini kiriting', 'Қидирув сўзини киритинг', 'Введите поисковый запрос', 'Enter a search term'],
} as const;

export interface SampleApiOptions extends Omit<OpenOptions, 'log' | 'photos'> {
  host?: string;
  /** 0 picks a free port. */
  port?: number;
  /** Print one line per request. */
  logRequests?: boolean;
  log?: (line: string) => void;
  /** Fault injection rules (see faults.ts); when absent, SAMPLE_API_FAULTS is read. */
  faults?: FaultRule[];
  /** `shared` or `distinct` pictures (see media.ts); when absent, SAMPLE_API_PHOTOS is read (default shared). */
  photos?: PhotoMode;
  /** Caching headers of pictures (see media.ts); when absent, SAMPLE_API_MEDIA_HEADERS is read (default max-age). */
  mediaHeaders?: MediaHeaderMode;
  /** Milliseconds every answer waits before its first byte; when absent, SAMPLE_API_LATENCY_MS is read (default 0). */
  latencyMs?: number;
}

export interface SampleApi {
  url: string;
  db: DatabaseSync;
  /** Gives the picture at this path (or URL) other bytes at the same URL (see media.ts). */
  replaceMedia(path: string): Promise<MediaInfo>;
  close(): Promise<void>;
}

export async function startSampleApi(options: SampleApiOptions): Promise<SampleApi> {
  const { host = '127.0.0.1', port = 0, logRequests = false, log = (l) => console.log(l) } = options;
  const faults = faultInjector(options, log, logRequests);
  const photos = options.photos !== undefined ? parsePhotoMode(options.photos) : photosFromEnv();
  const mediaHeaders = options.mediaHeaders !== undefined ? parseMediaHeaderMode(options.mediaHeaders) : mediaHeadersFromEnv();
  const latencyMs = options.latencyMs !== undefined ? parseLatency(options.latencyMs) : latencyFromEnv();
  if (photos !== 'shared' || mediaHeaders !== 'max-age' || latencyMs > 0) {
    log(`behaving like a real API: ${photos} photos, media headers ${mediaHeaders}, latency ${latencyMs} ms`);
  }
  const db = openDatabase({ ...options, photos, log });
  const media = createMediaStore(db, options.dataDir);
  const handle = router(db, media, mediaHeaders);
  /** Answers waiting out `latencyMs`. */
  const delayed = new Set<NodeJS.Timeout>();

  const server = createServer((req, res) => {
    const started = performance.now();
    res.on('finish', () => {
      if (logRequests) log(`${req.method} ${req.url} ${res.statusCode} ${Math.round(performance.now() - started)}ms`);
    });
    const answer = () => {
      cors(req, res);
      if (req.method === 'OPTIONS') return void res.writeHead(204).end();
      const respond = () =>
        void handle(req, res).catch((err: unknown) => {
          log(`error on ${req.method} ${req.url}: ${err instanceof Error ? err.stack : String(err)}`);
          if (!res.headersSent) sendJson(res, 500, { errorMsg: 'Internal error' });
          else res.destroy();
        });
      if (faults) return faults.handle(req, res, respond);
      respond();
    };
    if (latencyMs === 0) return answer();
    // The network's delay, before anything else (faults included) happens: a timer, so other answers go on meanwhile.
    const timer = setTimeout(() => {
      delayed.delete(timer);
      if (!res.destroyed) answer();
    }, latencyMs);
    delayed.add(timer);
    res.once('close', () => {
      clearTimeout(timer);
      delayed.delete(timer);
    });
  });
  try {
    await new Promise<void>((ok, fail) => {
      server.once('error', fail);
      server.listen(port, host, ok);
    });
  } catch (error) {
    // Nothing else will close them: a caller that tries another port opens its own.
    faults?.close();
    db.close();
    throw error;
  }
  const address = server.address() as AddressInfo;
  return {
    url: `http://${host}:${address.port}`,
    db,
    replaceMedia: (path) => media.replace(path),
    close: () =>
      new Promise<void>((ok) => {
        faults?.close();
        for (const timer of delayed) clearTimeout(timer);
        delayed.clear();
        server.closeAllConnections();
        server.close(() => {
          db.close();
          ok();
        });
      }),
  };
}

// ---- fault injection hook (scripts/sample-api/faults.ts) -------------------

/**
 * The injector for the configured rules, or null when there are none (the normal path stays untouched).
 * Each injected fault is logged when requests are.
 */
function faultInjector(options: SampleApiOptions, log: (line: string) => void, logRequests: boolean) {
  const rules = options.faults ? validateRules(options.faults) : faultsFromEnv();
  if (rules.length === 0) return null;
  log(`fault injection on: ${rules.map(describeRule).join(', ')}`);
  return createFaultInjector(rules, { log: logRequests ? log : undefined });
}

/** The site may be served from any origin its operator chooses, so the API reflects the caller's origin. */
function cors(req: IncomingMessage, res: ServerResponse): void {
  const origin = req.headers.origin;
  if (!origin) return;
  res.setHeader('access-control-allow-origin', origin);
  res.setHeader('vary', 'origin');
  res.setHeader('access-control-allow-methods', 'GET, POST, OPTIONS');
  res.setHeader('access-control-allow-headers', 'accept, content-type, langType, langTypeQorakul');
  res.setHeader('access-control-max-age', '600');
}

function langOf(req: IncomingMessage, header = 'langtype'): number {
  const n = Number(req.headers[header]);
  return n >= 1 && n <= 4 ? n : 1;
}

function message(key: keyof typeof MESSAGES, lang: number, n?: number): string {
  return MESSAGES[key][lang - 1]!.replace('{n}', String(n ?? ''));
}

/** The body as text, or null when it is larger than the sample API takes (or the client went away). */
async function readText(req: IncomingMessage): Promise<string | null> {
  const read = await readBody(req, MAX_BODY_BYTES);
  return read.ok ? read.body.toString('utf8') : null;
}

/** A user's words as an FTS5 query: each word quoted (so no operator syntax leaks in) and prefix-matched. */
function ftsQuery(q: string, uzLatin = false): string {
  // Uzbek Latin content writes oʻ, gʻ (U+02BB) and the tutuq belgisi (U+02BC); people type ' or ‘ for both.
  const nfc = q.normalize('NFC');
  const typed = !uzLatin ? nfc : nfc.replace(/([oOgG])['‘’`ʼ](?=\p{L})/gu, '$1\u02BB').replace(/(?<=\p{L})['‘’`](?=\p{L})/gu, '\u02BC');
  const words = typed.match(/[\p{L}\p{N}]+/gu) ?? [];
  return words
    .slice(0, 8)
    .map((w) => `"${w}"*`)
    .join(' ');
}

/** The sample API's SQL, prepared once. */
function prepareQueries(db: DatabaseSync) {
  return {
    postList: db.prepare(`SELECT id, title, brief AS berifDescription, image AS imageUrl, date, views AS countViews
      FROM posts WHERE lang = ? AND type = ? ORDER BY date DESC, id DESC LIMIT ? OFFSET ?`),
    postCount: db.prepare('SELECT count(*) AS n FROM posts WHERE lang = ? AND type = ?'),
    post: db.prepare(`SELECT id, title, brief AS berifDescription, html AS description, image AS imageUrl, date,
      views AS countViews FROM posts WHERE lang = ? AND id = ?`),
    page: db.prepare('SELECT html AS text, views AS countViews FROM pages WHERE lang = ? AND id = ?'),
    surveys: db.prepare(`SELECT s.id, s.title, s.brief AS berifDescription, s.author,
      c.likes + (SELECT count(*) FROM survey_answers a WHERE a.survey_id = s.id AND a.is_like = 1) AS likeCount,
      c.dislikes + (SELECT count(*) FROM survey_answers a WHERE a.survey_id = s.id AND a.is_like = 0) AS disLikeCount
      FROM surveys s JOIN survey_seed_counts c ON c.id = s.id WHERE s.lang = ? ORDER BY s.id`),
    surveyExists: db.prepare('SELECT 1 FROM survey_seed_counts WHERE id = ?'),
    answer: db.prepare('INSERT INTO survey_answers (survey_id, is_like, answered_at) VALUES (?, ?, ?)'),
    groups: db.prepare('SELECT id, title, is_top FROM menu_groups WHERE lang = ? ORDER BY position'),
    items: db.prepare('SELECT group_id, title, page, is_page FROM menu_items WHERE lang = ? ORDER BY group_id, position'),
    employees: db.prepare(`SELECT id, fio, position, briefly, image AS imageUrl, biography, obligation
      FROM employees WHERE lang = ? AND category = ? ORDER BY id`),
    photos: db.prepare('SELECT id, title, date AS photoDate, photos FROM photo_groups WHERE lang = ? ORDER BY date DESC, id'),
    videos: db.prepare('SELECT id, title, url AS urlVideo FROM videos WHERE lang = ? ORDER BY id'),
    search: db.prepare(`SELECT ref_id AS id, title, is_page FROM search_index
      WHERE search_index MATCH ? AND lang = ? ORDER BY rank LIMIT 30`),
    appeal: db.prepare(`INSERT INTO appeals (received_at, lang, fio, tel, email, title, description, idempotency_key)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?)`),
    appealByKey: db.prepare('SELECT id, lang FROM appeals WHERE idempotency_key = ?'),
  };
}

type Queries = ReturnType<typeof prepareQueries>;

/** Answers every call of the API's contract; the answers themselves are the functions below. */
function router(db: DatabaseSync, media: MediaStore, mediaHeaders: MediaHeaderMode) {
  const q = prepareQueries(db);
  return async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const path = url.pathname.replace(/\/+$/, '');
    const lang = langOf(req);
    const get = req.method === 'GET' || req.method === 'HEAD';
    const post = req.method === 'POST';
    let m: RegExpMatchArray | null;

    if (get && (m = path.match(/^\/api\/post\/(\d+)$/))) return answerPosts(q, res, url, lang, Number(m[1]));
    if (get && (m = path.match(/^\/api\/page\/(\d+)$/))) return answerRow(res, q.page.get(lang, Number(m[1])));
    if (get && path === '/api/survey/getAll') return sendJson(res, 200, { data: q.surveys.all(lang) });
    if (post && path === '/api/survey/answer') return answerSurvey(q, req, res);
    if (get && path === '/api/search') return answerSearch(q, req, res, url);
    if (get && path === '/api/home/menus') return sendJson(res, 200, { data: menus(q, lang) });
    if (get && (m = path.match(/^\/api\/employee\/([123])$/))) return sendJson(res, 200, { data: q.employees.all(lang, Number(m[1])) });
    if (get && path === '/api/gallery/photos') return sendJson(res, 200, { data: photoGroups(q, lang) });
    if (get && path === '/api/gallery/videos') return sendJson(res, 200, { data: q.videos.all(lang) });
    if (post && path === '/api/apply') return apply(q, req, res, lang);
    if (get && /^\/(?:uploads\/[\w.-]+\.png|media\/\w+\/[\w-]+\.jpg)$/.test(path)) {
      const picture = await media.get(path);
      return picture ? sendPicture(req, res, picture, mediaHeaders) : notFound(res);
    }
    if (get && (m = path.match(/^\/media\/hujjatlar\/([\w.-]+)$/))) {
      const document = sampleDocument(m[1]!);
      return document ? sendPicture(req, res, document, mediaHeaders) : notFound(res);
    }
    if (post && path === '/_sample/replace-media') return replaceMedia(media, req, res, url);
    return notFound(res);
  };
}

const notFound = (res: ServerResponse) => sendJson(res, 404, { errorMsg: 'Not found' });
const answerRow = (res: ServerResponse, row: unknown) => (row ? sendJson(res, 200, { data: row }) : notFound(res));

/** `api/post/{type}`: a list call carries pageNumber, a detail call (the same path, the post's id) never does. */
function answerPosts(q: Queries, res: ServerResponse, url: URL, lang: number, n: number): void {
  if (!url.searchParams.has('pageNumber')) return answerRow(res, q.post.get(lang, n));
  const { n: total } = q.postCount.get(lang, n) as { n: number };
  const maxPageNumber = Math.max(1, Math.ceil(total / PAGE_SIZE));
  const page = Math.min(Math.max(1, Number.parseInt(url.searchParams.get('pageNumber')!, 10) || 1), maxPageNumber);
  const list = q.postList.all(lang, n, PAGE_SIZE, (page - 1) * PAGE_SIZE);
  return sendJson(res, 200, { success: true, data: { list, maxPageNumber, currentPageNumber: page } });
}

function answerSearch(q: Queries, req: IncomingMessage, res: ServerResponse, url: URL): void {
  const searchLang = langOf(req, 'langtypeqorakul');
  const match = ftsQuery(url.searchParams.get('q') ?? '', searchLang === 1);
  if (!match) return sendJson(res, 200, { errorMsg: message('emptyQuery', searchLang) });
  const rows = q.search.all(match, searchLang) as { id: number; title: string; is_page: number }[];
  return sendJson(
    res,
    200,
    rows.map((r) => ({ id: r.id, title: r.title, ispage: r.is_page === 1 })),
  );
}

/** For tests: a picture replaced at the same URL (media.ts). Never answered to another machine. */
async function replaceMedia(media: MediaStore, req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
  if (!fromLoopback(req)) return sendJson(res, 403, { errorMsg: 'Forbidden' });
  try {
    return sendJson(res, 200, await media.replace(url.searchParams.get('path') ?? ''));
  } catch (err) {
    if (err instanceof MediaNotFoundError) return sendJson(res, 404, { errorMsg: err.message });
    throw err;
  }
}

async function answerSurvey(q: Queries, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const raw = await readText(req);
  if (raw === null) return sendJson(res, 413, { errorMsg: 'Too large' });
  let body: { surveyId?: unknown; isLike?: unknown };
  try {
    body = JSON.parse(raw) as typeof body;
  } catch {
    return sendJson(res, 400, { errorMsg: 'Invalid JSON' });
  }
  if (typeof body.isLike !== 'boolean' || !q.surveyExists.get(Number(body.surveyId))) {
    return sendJson(res, 400, { errorMsg: 'Invalid answer' });
  }
  q.answer.run(Number(body.surveyId), body.isLike ? 1 : 0, new Date().toISOString());
  return sendJson(res, 200, { success: true });
}

function menus(q: Queries, lang: number) {
  const groups = q.groups.all(lang) as { id: number; title: string; is_top: number }[];
  const items = q.items.all(lang) as { group_id: number; title: string; page: string; is_page: number }[];
  return groups.map((g) => ({
    title: g.title,
    isTop: g.is_top === 1,
    items: items.filter((i) => i.group_id === g.id).map((i) => ({ title: i.title, page: i.page, isPage: i.is_page === 1 })),
  }));
}

function photoGroups(q: Queries, lang: number) {
  const groups = q.photos.all(lang) as { id: number; title: string; photoDate: string; photos: string }[];
  return groups.map((g) => {
    const photos = (JSON.parse(g.photos) as string[]).map((imageUrl) => ({ imageUrl }));
    return { ...g, photosCount: photos.length, photos };
  });
}

async function apply(q: Queries, req: IncomingMessage, res: ServerResponse, lang: number): Promise<void> {
  const raw = await readText(req);
  if (raw === null) return sendJson(res, 413, { errorMsg: 'Too large' });
  const form = new URLSearchParams(raw);
  const fields = ['FIO', 'Tel', 'Email', 'Title', 'Description'].map((k) => (form.get(k) ?? '').trim());
  if (fields.some((f) => f.length < MIN_FIELD_LENGTH)) return sendJson(res, 400, { errorMsg: 'Validation failed' });
  if (!form.get('h-captcha-response')) return sendJson(res, 200, { errorMsg: message('captchaMissing', lang) });
  const [fio, tel, email, title, description] = fields as [string, string, string, string, string];
  // A resend after a lost answer carries the draft's key: answer as the first time, store nothing.
  // The look-up and the insert run without an await between them, so two concurrent repeats cannot
  // both insert (and the unique index would refuse the second anyway).
  const rawKey = form.get('IdempotencyKey')?.trim() ?? '';
  const key = rawKey && rawKey.length <= MAX_IDEMPOTENCY_KEY_LENGTH ? rawKey : null;
  const first = key ? (q.appealByKey.get(key) as { id: number; lang: number } | undefined) : undefined;
  if (first) return sendJson(res, 200, { data: { msg: message('appealReceived', first.lang, first.id) } });
  const { lastInsertRowid } = q.appeal.run(new Date().toISOString(), lang, fio, tel, email, title, description, key);
  return sendJson(res, 200, { data: { msg: message('appealReceived', lang, Number(lastInsertRowid)) } });
}
