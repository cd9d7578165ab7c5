/**
 * The build-time pull: every post, page, employee list, gallery, survey and
 * menu, for each of the four languages, into one snapshot file that the pages
 * read. Requests run with bounded concurrency and each distinct request is made
 * once. Any endpoint that still fails after the client's retries fails the
 * pull, so a half-empty site is never built.
 *
 * A pull told what changed (a webhook's `{type: 'post', id}`) reads each list
 * only as far as the change reaches (list-reading.ts), and the details only of
 * the named posts and pages and of posts the previous snapshot does not have;
 * the others come from the previous snapshot. The pull says which items were added, changed and
 * removed: an item taken from the previous snapshot is unchanged, any other is compared by its hash.
 */
import { createHash } from 'node:crypto';
import { statSync } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { readText } from '../../../src/content/read-text.ts';
import { replaceFile } from '../../lib/replace-file.ts';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ApiError, createApiClient, type ApiClient } from '../../../src/api/client.ts';
import { itemKey, type ContentChanges } from '../../../src/content/changes.ts';
import {
  EMPLOYEE_CATEGORIES,
  POST_TYPES,
  type ApiWarning,
  type ContentPage,
  type Employee,
  type EmployeeCategory,
  type Post,
  type PostListPage,
  type PostTypeName,
} from '../../../src/api/types.ts';
import { diffByKey } from '../../lib/hash-diff.ts';
import { createLimiter } from '../../lib/limit.ts';
import { restOfList, type Named } from './list-reading.ts';
import { layOutListPages } from './list-pages.ts';
import { LIST_PAGE_SIZE } from '../../../src/constants.ts';
import { LANGUAGES, type LangCode, type Language } from '../../../src/i18n/languages.ts';
import { codeTexts } from '../../lib/code-graph.ts';
import { filesOfPost, findTextFiles, foundNothing, type TextFiles } from '../../../src/content/text-files.ts';
import { removedElements } from '../../../src/lib/editor-content.ts';
import {
  EARLIER_SNAPSHOT_FILES,
  hasSettledSummaries,
  parseSnapshot,
  SNAPSHOT_FILE,
  snapshotFileText,
  summaryOf,
  type LanguageContent,
  type Snapshot,
} from '../../../src/content/snapshot.ts';
import { missingBodyGroups, postsFileOf, removeBodiesExcept, writePostGroups } from '../../../src/content/post-bodies.ts';

export interface PullOptions {
  apiBase: string;
  /** Where the texts' relative pictures and documents are: the files each post names are found against it (src/content/text-files.ts). */
  mediaBase: string;
  contentDir: string;
  concurrency?: number;
  timeoutMs?: number;
  retries?: number;
  /** First retry delay of a failing request (doubles each time). */
  backoffMs?: number;
  /** What changed, if known: only those details are fetched again. Default: everything. */
  changes?: ContentChanges;
  log?: (line: string) => void;
}

/**
 * The next steps' work on the snapshot just pulled (its pictures, its documents), started before the snapshot's file
 * is written: writing it is a third of a second of one core at 10,000 news a language, done while that work waits on
 * the network instead of before it starts. `written` settles once the snapshot's file is in place (rejected if it
 * could not be written): a file the pages read beside the snapshot is written only after it, so the content folder
 * never holds a map newer than its snapshot.
 */
export type AlongsideWriting<T> = (pulled: {
  snapshot: Snapshot;
  diff: PullSummary['diff'];
  /** The snapshot `diff` is against (null: there was none, and everything is added). */
  previous: Snapshot | null;
  written: Promise<void>;
}) => Promise<T>;

export interface PullSummary {
  requests: number;
  items: number;
  warnings: ApiWarning[];
  ms: number;
  file: string;
  /** Item keys (`post:12@ru`, `page:3@en` …) that differ from the previous snapshot. */
  diff: { added: string[]; changed: string[]; removed: string[] };
}

/** A short stable hash of an item's content. */
function itemHash(item: unknown): string {
  return createHash('sha256').update(JSON.stringify(item)).digest('base64url').slice(0, 16);
}

/**
 * Every item of one language of a snapshot by key, its posts as the digests the pull took of them (the same
 * `itemHash`) unless `postsApart`.
 */
function itemsByKey(c: LanguageContent | undefined, code: string, postsApart: boolean): Map<string, unknown> {
  const out = new Map<string, unknown>();
  if (!c) return out;
  if (!postsApart) {
    const digests = c.postDigests;
    if (digests) for (const id in digests) out.set(itemKey('post', code, id), digests[id as unknown as number]!);
    else for (const p of Object.values(c.posts)) out.set(itemKey('post', code, p.id), itemHash(p));
  }
  for (const p of Object.values(c.pages)) out.set(itemKey('page', code, p.id), p);
  for (const [cat, people] of Object.entries(c.employees)) for (const e of people) out.set(itemKey('employee', code, `${cat}/${e.id}`), e);
  for (const g of c.photoGroups) out.set(itemKey('gallery', code, g.id), g);
  for (const v of c.videos) out.set(itemKey('video', code, v.id), v);
  for (const s of c.surveys) out.set(itemKey('survey', code, s.id), s);
  out.set(itemKey('menu', code), c.menus);
  out.set(itemKey('lists', code), [c.lists, c.listPages, c.settledLatest]);
  return out;
}

/** Any other item this pull took from the previous snapshot is the same object there and here: known unchanged without a hash. */
const sameItem = (old: unknown, now: unknown) => old === now || (typeof old === 'object' && typeof now === 'object' && itemHash(old) === itemHash(now));

/**
 * Which items were added, changed and removed, language by language, each language's posts first. Posts are
 * compared by their digests, taken once when each was read (a group of posts whose file is gone, parseSnapshot's
 * 'leave out', is still known by them), and a post is given its key only when it differs: 40,000 keys were made
 * and looked up at 10,000 news a language to find two. A pull hashes a few items, not the whole archive again.
 */
function diffItems(previous: Snapshot | null, snapshot: Snapshot): PullSummary['diff'] {
  const diff: PullSummary['diff'] = { added: [], changed: [], removed: [] };
  // What each language lost, listed in the previous snapshot's order of languages, as its items are.
  const removedIn = new Map<string, string[]>();
  for (const code of new Set([...Object.keys(snapshot.languages), ...Object.keys(previous?.languages ?? {})])) {
    const removed: string[] = [];
    removedIn.set(code, removed);
    const old = previous?.languages[code as LangCode];
    const now = snapshot.languages[code as LangCode];
    // A language missing on one side has no posts there.
    const oldDigests = old ? old.postDigests : {};
    const nowDigests = now ? now.postDigests : {};
    const postsApart = oldDigests !== undefined && nowDigests !== undefined;
    if (postsApart) {
      const postKey = (id: string) => itemKey('post', code, id);
      const posts = diffByKey<string>(oldDigests, nowDigests);
      diff.added.push(...posts.added.map(postKey));
      diff.changed.push(...posts.changed.map(postKey));
      removed.push(...posts.removed.map(postKey));
    }
    const others = diffByKey(itemsByKey(old, code, postsApart), itemsByKey(now, code, postsApart), sameItem);
    diff.added.push(...others.added);
    diff.changed.push(...others.changed);
    removed.push(...others.removed);
  }
  diff.removed = Object.keys(previous?.languages ?? {}).flatMap((code) => removedIn.get(code) ?? []);
  return diff;
}

/**
 * The previous snapshot, if any; the posts of a group whose file is gone left out, to be read again. Only the newest
 * of the snapshot's files counts: code rolled back pulls into its own file and leaves this version's as it was, so
 * rolled forward again, this version's is older than what the site shows and would hide the changes pulled
 * meanwhile. The latest earlier version's (`content.json`) is read when it is the newest (after an upgrade, or a
 * rollback to it); an older version's, whose shape this does not read, means none: everything is pulled.
 */
async function readSnapshot(contentDir: string): Promise<Snapshot | null> {
  const files = [SNAPSHOT_FILE, ...EARLIER_SNAPSHOT_FILES].flatMap((name) => {
    const written = statSync(join(contentDir, name), { throwIfNoEntry: false })?.mtimeMs;
    return written === undefined ? [] : [{ name, written }];
  });
  const newest = files.sort((a, b) => b.written - a.written)[0]?.name;
  if (newest === undefined || (newest !== SNAPSHOT_FILE && newest !== EARLIER_SNAPSHOT_FILES.at(-1))) return null;
  try {
    const read = parseSnapshot(await readText(join(contentDir, newest)), contentDir, 'leave out');
    return wellFormed(read) ? read : null;
  } catch {
    return null;
  }
}

/** Whether a snapshot read has what a pull takes from it: a damaged or foreign file is no previous snapshot. */
const wellFormed = (snapshot: Snapshot) =>
  typeof snapshot.languages === 'object' &&
  snapshot.languages !== null &&
  Object.values(snapshot.languages).every((c) => typeof c?.posts === 'object' && c.posts !== null && typeof c.lists === 'object' && c.lists !== null);

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
/** What finds a post's files and what the sanitiser removes from it (`findInPost`). */
const FINDING_MODULES = ['src/content/text-files.ts', 'src/lib/editor-content.ts'];

/** What the pull keeps of a post's text: the files it names, and what the sanitiser removes from it (src/content/text-files.ts). */
function findInPost(html: string, mediaBase: string): TextFiles {
  const removed = removedElements(html, mediaBase);
  return { ...findTextFiles(html, mediaBase), ...(Object.keys(removed).length ? { removed } : {}) };
}

/**
 * A digest of the code that finds the files of a text and what the sanitiser removes from it, the packages it
 * uses included (package-lock.json stands for them): when it changes, a pull finds every post's again.
 */
async function textFilesCodeDigest(): Promise<string> {
  return createHash('sha256')
    .update(JSON.stringify(await codeTexts(FINDING_MODULES, ROOT)))
    .digest('base64url');
}

/** Which details must be fetched again: all, or the named ones of each type. */
function refetchRule(changes: ContentChanges, type: 'post' | 'page') {
  if (changes === 'all' || changes.some((c) => c.type === type && c.id === undefined)) return () => true;
  const ids = new Set(changes.filter((c) => c.type === type).map((c) => c.id));
  return (id: number) => ids.has(id);
}

/** What the pull reports, and the snapshot it wrote, for the steps of the pull that read it; and what `alongside` made of it. */
export async function pullContent<T = undefined>(options: PullOptions & { alongside?: AlongsideWriting<T> }): Promise<PullSummary & { snapshot: Snapshot; alongside: T }> {
  const { concurrency = 6, log = (l) => console.log(l) } = options;
  const started = performance.now();
  const startedAt = Date.now();
  const warnings: ApiWarning[] = [];
  let requests = 0;
  const client = createApiClient({
    baseUrl: options.apiBase,
    timeoutMs: options.timeoutMs ?? 20_000,
    retries: options.retries ?? 3,
    backoffMs: options.backoffMs ?? 300,
    onWarning: (w) => {
      warnings.push(w);
      log(`warning: skipped item ${JSON.stringify(w.id)} of ${w.endpoint} (language ${w.lang}): ${w.problem}`);
    },
    onRequest: () => void requests++,
  });
  const limit = createLimiter(concurrency);

  const file = join(options.contentDir, SNAPSHOT_FILE);
  const previous = await readSnapshot(options.contentDir);
  const changes = previous && previous.apiBase === options.apiBase ? (options.changes ?? 'all') : 'all';
  const [refetchPost, refetchPage] = [refetchRule(changes, 'post'), refetchRule(changes, 'page')];
  const foundWith = { mediaBase: options.mediaBase, code: await textFilesCodeDigest() };
  const sameFinding = previous?.postFilesFoundWith?.mediaBase === foundWith.mediaBase && previous.postFilesFoundWith.code === foundWith.code;
  // A post whose body's file has gone (removed by hand, a disk restored in part) is read again.
  const bodyGone = new Map(LANGUAGES.map((lang) => [lang.code, missingBodyGroups(previous?.languages[lang.code], options.contentDir)]));
  const reuse: Reuse = {
    post: (lang, id) => (refetchPost(id) || bodyGone.get(lang.code)!(id) ? undefined : previous?.languages[lang.code]?.posts[id]),
    page: (lang, id) => (refetchPage(id) ? undefined : previous?.languages[lang.code]?.pages[id]),
    previous: (lang) => (changes === 'all' || changes.some((c) => c.type === 'post' && c.id === undefined) ? undefined : previous?.languages[lang.code]),
    named: changes === 'all' ? new Set() : new Set(changes.flatMap((c) => (c.type === 'post' && typeof c.id === 'number' ? [c.id] : []))),
    // Every pull of the same API, told what changed or not, keeps the pages the site has published.
    listPages: (lang) => (previous?.apiBase === options.apiBase ? previous.languages[lang.code]?.listPages : undefined),
    // A pull told what changed keeps the side list of the archive's pages as it is; a full pull (the nightly one) renews it.
    settledLatest: (lang) => {
      const before = previous?.languages[lang.code];
      return changes === 'all' || !hasSettledSummaries(before) ? undefined : before!.settledLatest;
    },
    postDigest: (lang, post) => {
      const before = previous?.languages[lang.code];
      return before?.posts[post.id] === post ? before.postDigests?.[post.id] : undefined;
    },
    postFiles: (lang, post) => {
      const before = previous?.languages[lang.code];
      return before?.posts[post.id] === post && sameFinding ? filesOfPost(before, post.id) : undefined;
    },
  };
  const languages = await Promise.all(LANGUAGES.map((lang) => pullLanguage(client, lang, limit, reuse, options.mediaBase)));
  const snapshot: Snapshot = {
    pulledAt: new Date().toISOString(),
    apiBase: options.apiBase,
    postFilesFoundWith: foundWith,
    languages: Object.fromEntries(languages.map((c, i) => [LANGUAGES[i]!.code, c])) as Snapshot['languages'],
  };
  const items = languages.reduce(
    (n, c) => n + Object.keys(c.posts).length + Object.keys(c.pages).length + c.photoGroups.length + c.videos.length + c.surveys.length + Object.values(c.employees).flat().length,
    0,
  );

  const diff = diffItems(previous, snapshot);
  await mkdir(options.contentDir, { recursive: true });
  const written = Promise.withResolvers<void>();
  // Heard whether or not the work awaits it.
  written.promise.catch(() => undefined);
  // Its outcome taken at once: a failure while the snapshot is still being written must not end the process unheard.
  const alongside = options.alongside && settle(options.alongside({ snapshot, diff, previous, written: written.promise }));
  try {
    // Written beside, then renamed: a reader never sees half a snapshot. The posts' bodies first, in files of their
    // own that no snapshot names until this one is in place; those no snapshot names any more, after.
    for (const [code, c] of Object.entries(snapshot.languages)) {
      const groups = await writePostGroups(options.contentDir, c.posts, c.postDigests!, (f, text) => replaceFile(f, text), previous?.languages[code as LangCode]);
      c.postBodies = groups.files;
      c.postGroupBytes = groups.bytes;
    }
    await replaceFile(file, snapshotFileText(snapshot));
    const named = (s: Snapshot | null) => Object.values(s?.languages ?? {}).flatMap((c) => Object.values(c.postBodies ?? {}).flatMap((name) => [name, postsFileOf(name)]));
    removeBodiesExcept(options.contentDir, new Set([...named(snapshot), ...named(previous)]), startedAt);
    // Code rolled back to an earlier version finds no snapshot it would misread (its posts elsewhere than it looks), and pulls everything.
    for (const earlier of EARLIER_SNAPSHOT_FILES) await rm(join(options.contentDir, earlier), { force: true });
  } catch (error) {
    written.reject(error);
    // Not left running: the snapshot's failure is the one to tell.
    await alongside;
    throw error;
  }
  written.resolve();

  const ms = Math.round(performance.now() - started);
  log(
    `pulled ${items} items in ${LANGUAGES.length} languages with ${requests} requests in ${ms} ms, ${warnings.length} warning(s); ` +
      `${diff.added.length} added, ${diff.changed.length} changed, ${diff.removed.length} removed`,
  );
  const outcome = await alongside;
  if (outcome && !outcome.ok) throw outcome.error;
  // Undefined, as T is, when no work was given.
  return { requests, items, warnings, ms, file, diff, snapshot, alongside: outcome?.value as T };
}

/** A promise's outcome, as a value: a rejection is handled the moment the promise exists. */
function settle<T>(promise: Promise<T>): Promise<{ ok: true; value: T } | { ok: false; error: unknown }> {
  return promise.then(
    (value) => ({ ok: true as const, value }),
    (error: unknown) => ({ ok: false as const, error }),
  );
}

/** The previous snapshot's copy of a detail that need not be fetched again, if any. */
type Reuse = {
  post: (lang: Language, id: number) => Post | undefined;
  page: (lang: Language, id: number) => ContentPage | undefined;
  /** The previous pull's content, when this pull is told what changed and may read lists only in part (list-reading.ts). */
  previous: (lang: Language) => LanguageContent | undefined;
  /** Posts named as changed. */
  named: ReadonlySet<number>;
  /** The site's pages of each list as the previous pull of this API laid them out (list-pages.ts). */
  listPages: (lang: Language) => LanguageContent['listPages'] | undefined;
  /** The side list of the archive's pages that the previous pull settled, when this pull keeps it. */
  settledLatest: (lang: Language) => LanguageContent['settledLatest'] | undefined;
  /** The previous pull's digest of a post this pull took from it (the very same object), if it has one. */
  postDigest: (lang: Language, post: Post) => string | undefined;
  /** The files the previous pull found in such a post, if it found them with the same media base and code. */
  postFiles: (lang: Language, post: Post) => TextFiles | undefined;
};

async function pullLanguage(client: ApiClient, language: Language, limit: ReturnType<typeof createLimiter>, reuse: Reuse, mediaBase: string): Promise<LanguageContent> {
  const lang = language.number;
  const postTypes = Object.entries(POST_TYPES) as [PostTypeName, (typeof POST_TYPES)[PostTypeName]][];
  const ids = (page: PostListPage) => page.items.map((item) => item.id);
  const readAll = async ([name, type]: (typeof postTypes)[number]) => {
    const first = await limit(() => client.postList(type, lang, 1));
    const rest = await Promise.all(Array.from({ length: Math.max(0, first.pageCount - 1) }, (_, i) => limit(() => client.postList(type, lang, i + 2))));
    return [name, [first, ...rest].map(ids)] as const;
  };
  const previous = reuse.previous(language);
  // The named posts first: whether each is gone or dated anew decides how far a list must be read.
  const namedIds = previous ? [...reuse.named] : [];
  const namedPosts = new Map(await Promise.all(namedIds.map(async (id) => [id, await limit(() => skipMissing(client.post(id, lang)))] as const)));
  const named: Named = {
    gone: new Set(namedIds.filter((id) => !namedPosts.get(id))),
    moved: new Set(namedIds.filter((id) => namedPosts.get(id) && namedPosts.get(id)!.date !== previous?.posts[id]?.date)),
  };
  /** Page after page until the rest is the previous pull's (list-reading.ts). */
  const readChanged = async ([name, type]: (typeof postTypes)[number]) => {
    const before = previous!.lists[name] ?? [];
    const first = await limit(() => client.postList(type, lang, 1));
    const fetched = [ids(first)];
    for (;;) {
      const whole = restOfList(fetched, before, first.pageCount, named);
      if (whole) return [name, whole] as const;
      fetched.push(ids(await limit(() => client.postList(type, lang, fetched.length + 1))));
    }
  };
  // Menus and lists in one Promise.all: whichever fails first fails the pull, and no rejection goes unhandled.
  const [menus, readLists] = await Promise.all([limit(() => client.menus(lang)), Promise.all(postTypes.map(previous ? readChanged : readAll))]);
  let listEntries = readLists;
  // A named post that no list shows and the previous pull did not have may stand anywhere in a list: read them all.
  const shown = new Set(listEntries.flatMap(([, pages]) => pages.flat()));
  if (namedIds.some((id) => namedPosts.get(id) && !shown.has(id) && !previous?.posts[id])) listEntries = await Promise.all(postTypes.map(readAll));

  // Each id once, however many lists or menu items name it.
  const postIds = [...new Set(listEntries.flatMap(([, pages]) => pages.flat()))];
  const details = await Promise.all(postIds.map((id) => (namedPosts.has(id) ? namedPosts.get(id) : (reuse.post(language, id) ?? limit(() => skipMissing(client.post(id, lang)))))));
  const posts: Record<number, Post> = {};
  for (const post of details) if (post) posts[post.id] = post;
  const postDigests = Object.fromEntries(Object.values(posts).map((post) => [post.id, reuse.postDigest(language, post) ?? itemHash(post)]));
  const postFiles: Record<number, TextFiles> = {};
  for (const post of Object.values(posts)) {
    const files = reuse.postFiles(language, post) ?? findInPost(post.html, mediaBase);
    if (!foundNothing(files)) postFiles[post.id] = files;
  }
  // A post whose detail could not be read is left out of every list, so no link leads nowhere.
  const lists = Object.fromEntries(listEntries.map(([name, pages]) => [name, pages.map((page) => page.filter((id) => id in posts))])) as LanguageContent['lists'];
  const laidOut = reuse.listPages(language);
  const listPages = Object.fromEntries(
    Object.entries(lists).map(([name, pages]) => [name, layOutListPages(pages.flat(), laidOut?.[name as PostTypeName], LIST_PAGE_SIZE)]),
  ) as LanguageContent['listPages'];
  // Kept word for word, a post since deleted or retitled included: the archive's pages keep their bytes until the
  // nightly full pull, and the address of a deleted post says it was removed (src/lib/section-pages.ts).
  const settledLatest =
    reuse.settledLatest(language) ??
    (Object.fromEntries(Object.entries(lists).map(([name, pages]) => [name, (pages[0] ?? []).map((id) => summaryOf(posts[id]!))])) as LanguageContent['settledLatest']);

  const pageIds = [...new Set(menus.flatMap((g) => g.items.flatMap((i) => (i.target.kind === 'page' ? [i.target.pageId] : []))))];
  const pageList = await Promise.all(pageIds.map((id) => reuse.page(language, id) ?? limit(() => skipMissing(client.page(id, lang)))));
  const pages: Record<number, ContentPage> = {};
  for (const page of pageList) if (page) pages[page.id] = page;

  const categories = Object.values(EMPLOYEE_CATEGORIES);
  const [employeeLists, photoGroups, videos, surveys] = await Promise.all([
    Promise.all(categories.map((c) => limit(() => client.employees(c, lang)))),
    limit(() => client.photoGroups(lang)),
    limit(() => client.videos(lang)),
    limit(() => client.surveys(lang)),
  ]);
  const employees = Object.fromEntries(categories.map((c, i) => [c, employeeLists[i]!])) as Record<EmployeeCategory, Employee[]>;

  return { lang, menus, lists, listPages, settledLatest, posts, postDigests, postFiles, pages, employees, photoGroups, videos, surveys };
}

/** A detail that is gone (404) between the list and the detail call is skipped, not fatal. */
async function skipMissing<T>(p: Promise<T | null>): Promise<T | null> {
  try {
    return await p;
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) return null;
    throw err;
  }
}
