/** The shape of the build-time content snapshot that pages read (one per language). */
import type { ContentPage, Employee, EmployeeCategory, NavGroup, PhotoGroup, Post, PostSummary, PostTypeName, Survey, Video } from '../api/types.ts';
import type { LangCode, LangNumber } from '../i18n/languages.ts';
import { itemKey, parseItemKey } from './changes.ts';
import { attachBodies, readPosts, type BodyFiles, type GroupBytes } from './post-bodies.ts';
import type { TextFiles } from './text-files.ts';

const summaries = new WeakMap<PostSummary, PostSummary>();

/**
 * What a list or side list shows of a post: never its body, so editing a body re-renders only that post's pages.
 * Made once for a post object, so that a page's key can tell it for that post's (`isSummaryOf`) without walking it.
 */
export function summaryOf(post: PostSummary): PostSummary {
  let summary = summaries.get(post);
  if (!summary) {
    const { id, title, brief, imageUrl, date, views } = post;
    summaries.set(post, (summary = { id, title, brief, imageUrl, date, views }));
  }
  return summary;
}

/** Whether `value` is the summary `summaryOf` made of `post`, with nothing in it but what the post holds. */
export const isSummaryOf = (value: object, post: PostSummary): boolean => summaries.get(post) === value;

/** The settled side lists as this version keeps them (what each post showed, not only its id); false for an earlier version's. */
export const hasSettledSummaries = (content: Partial<LanguageContent> | undefined): boolean =>
  !!content?.settledLatest && Object.values(content.settledLatest).every((list) => Array.isArray(list) && list.every((entry) => typeof entry === 'object' && entry !== null));

/**
 * The file, inside CONTENT_DIR, that the pull writes and the pages read. Its name changes when its shape does in a
 * way earlier code would misread (now: the posts in files of their own, post-bodies.ts): code rolled back finds no
 * snapshot of its own and pulls everything.
 */
export const SNAPSHOT_FILE = 'content-posts-apart.json';
/**
 * The snapshot's files of earlier versions. A pull removes them, so that code rolled back to one of them finds no
 * snapshot and pulls everything, rather than read posts that are not there. The latest (`content.json`, whose posts
 * are in it without their bodies) is read as the previous snapshot when it is the newest: after an upgrade, or after
 * code rolled back to it pulled (scripts/pipeline/pull/pull-content.ts `readSnapshot`).
 */
export const EARLIER_SNAPSHOT_FILES = ['snapshot.json', 'content.json'] as const;

export interface LanguageContent {
  lang: LangNumber;
  menus: NavGroup[];
  /** Post ids of each category, page by page as the API paginates them. */
  lists: Record<PostTypeName, number[][]>;
  /**
   * The site's own pages of each list, oldest first, numbered from the oldest post; the last is the list's
   * first page, the newest posts (scripts/pipeline/pull/list-pages.ts).
   */
  listPages: Record<PostTypeName, number[][]>;
  /**
   * The latest posts of each list as the last full pull read them (the nightly rebuild's), titles, dates and
   * counts as they were then: the side list beside the posts of the numbered list pages, so that a new post, a
   * new title or a deletion, told by the webhook, changes only the pages of the list's first page and not the
   * whole archive's. A full pull brings it up to date; until then a post deleted since is still named there, and
   * its address says it was removed (src/lib/section-pages.ts).
   */
  settledLatest: Record<PostTypeName, PostSummary[]>;
  posts: Record<number, Post>;
  /**
   * A digest of each post as the pull read it, which the page keys use in place of the post (a post's body is
   * some kilobytes, on 40,000 pages at 10,000 news per language: src/content/cache-key.ts). Absent in a
   * snapshot of an earlier version: the posts are then keyed whole.
   */
  postDigests?: Record<number, string>;
  /**
   * The files each post's text names and what the sanitiser removes from it (text-files.ts), found when the pull
   * read it and kept with its digest: the page keys and the build's report take them from here rather than read
   * every text again. A post that names none and loses nothing is left out. Absent in a snapshot of an earlier
   * version: the texts are then searched.
   */
  postFiles?: Record<number, TextFiles>;
  /**
   * The file of each group of the posts' bodies (post-bodies.ts), beside which its posts' own file is: the
   * snapshot's file holds neither. Absent in a snapshot of an earlier version, whose posts carry their bodies.
   */
  postBodies?: BodyFiles;
  /**
   * The sizes of each group's two files as the pull wrote them: a file of another size is not whole, and a pull
   * writes it again. Absent in a snapshot of an earlier version.
   */
  postGroupBytes?: GroupBytes;
  /** Content pages that the menu references. */
  pages: Record<number, ContentPage>;
  employees: Record<EmployeeCategory, Employee[]>;
  photoGroups: PhotoGroup[];
  videos: Video[];
  surveys: Survey[];
}

export interface Snapshot {
  pulledAt: string;
  apiBase: string;
  /**
   * What the files of `postFiles` were found with: the media base, and a digest of the code that finds them
   * (scripts/pipeline/pull/pull-content.ts). A pull with another keeps none of them. Absent in a snapshot
   * of an earlier version.
   */
  postFilesFoundWith?: { mediaBase: string; code: string };
  languages: Record<LangCode, LanguageContent>;
}

/**
 * A snapshot from the text of its file in `contentDir`: each language's posts read from their groups' files, each
 * post's body from its own when first asked for (post-bodies.ts). `missingPosts`: 'leave out' for the pull, which
 * reads the posts of a group whose file is gone again from the API.
 */
export function parseSnapshot(text: string, contentDir: string, missingPosts: 'fail' | 'leave out' = 'fail'): Snapshot {
  const snapshot = JSON.parse(text) as Snapshot;
  for (const content of Object.values(snapshot.languages ?? {})) {
    if (!content) continue;
    // An earlier version's file holds the posts (`content.json`, read as the previous snapshot after an upgrade).
    if (!content.posts && content.postBodies) content.posts = readPosts(content.postBodies, contentDir, missingPosts);
    if (content.posts) attachBodies(content, contentDir);
  }
  return snapshot;
}

/** The text of a snapshot's file: a language whose posts have their files (`postBodies`) without them. */
export function snapshotFileText(snapshot: Snapshot): string {
  const languages = Object.fromEntries(
    Object.entries(snapshot.languages).map(([code, c]) => {
      if (!c.postBodies) return [code, c];
      const { posts: _inTheirFiles, ...rest } = c;
      return [code, rest];
    }),
  );
  return JSON.stringify({ ...snapshot, languages });
}

/** An editor's text of a snapshot (a post's body, a page, a biography, duties), with the item and language it belongs to. */
export interface SnapshotText {
  /** The snapshot item key (`post:12@ru`). */
  item: string;
  language: LangCode;
  /** The text: a post's body is read from its file (post-bodies.ts) only when asked for. */
  html: () => string;
  /** The post's id, when the text is a post's body. */
  postId?: number;
}

/** Every editor's text of a snapshot, in every language. */
export function* snapshotTexts(snapshot: Snapshot): Generator<SnapshotText> {
  for (const [code, c] of Object.entries(snapshot.languages) as [LangCode, LanguageContent][]) {
    // A post's body is read only by those that ask for it: most take a post's files as the pull kept them (text-files.ts).
    for (const p of Object.values(c.posts)) yield postText(code, p);
    for (const p of Object.values(c.pages)) yield pageText(code, p);
    for (const [cat, people] of Object.entries(c.employees)) for (const e of people) yield* employeeTexts(code, cat, e);
  }
}

const postText = (code: LangCode, p: Post): SnapshotText => ({ item: itemKey('post', code, p.id), language: code, html: () => p.html, postId: p.id });
const pageText = (code: LangCode, p: ContentPage): SnapshotText => ({ item: itemKey('page', code, p.id), language: code, html: () => p.html });
function* employeeTexts(code: LangCode, cat: string, e: Employee): Generator<SnapshotText> {
  const item = itemKey('employee', code, `${cat}/${e.id}`);
  yield { item, language: code, html: () => e.biographyHtml };
  yield { item, language: code, html: () => e.dutiesHtml };
}

/** An item of a snapshot, as its key names it (changes.ts `itemKey`). */
export type SnapshotItem =
  | { kind: 'post'; code: LangCode; post: Post }
  | { kind: 'page'; code: LangCode; page: ContentPage }
  | { kind: 'employee'; code: LangCode; category: string; employee: Employee }
  | { kind: 'gallery'; code: LangCode; group: PhotoGroup };

/** Every item of a snapshot with its key, language by language: its posts, pages, employees and photo groups. */
export function* snapshotItems(snapshot: Snapshot): Generator<{ key: string; item: SnapshotItem }> {
  for (const [code, c] of Object.entries(snapshot.languages) as [LangCode, LanguageContent][]) {
    for (const post of Object.values(c.posts)) yield { key: itemKey('post', code, post.id), item: { kind: 'post', code, post } };
    for (const page of Object.values(c.pages)) yield { key: itemKey('page', code, page.id), item: { kind: 'page', code, page } };
    for (const [category, people] of Object.entries(c.employees))
      for (const employee of people) yield { key: itemKey('employee', code, `${category}/${employee.id}`), item: { kind: 'employee', code, category, employee } };
    for (const group of c.photoGroups) yield { key: itemKey('gallery', code, group.id), item: { kind: 'gallery', code, group } };
  }
}

/** An item of a snapshot by its key (`post:12@ru`, `employee:leaders/3@en`, `gallery:5@uz-latn`), when it has one. */
export function snapshotItem(snapshot: Snapshot, key: string): SnapshotItem | undefined {
  const parsed = parseItemKey(key);
  const c = parsed && Object.hasOwn(snapshot.languages, parsed.langCode) ? snapshot.languages[parsed.langCode as LangCode] : undefined;
  if (!parsed || !c || parsed.id === undefined) return undefined;
  const code = parsed.langCode as LangCode;
  const { kind, id } = parsed;
  if (kind === 'post') return Object.hasOwn(c.posts, id) ? { kind, code, post: c.posts[Number(id)]! } : undefined;
  if (kind === 'page') return Object.hasOwn(c.pages, id) ? { kind, code, page: c.pages[Number(id)]! } : undefined;
  if (kind === 'gallery') {
    const group = c.photoGroups.find((g) => String(g.id) === id);
    return group && { kind, code, group };
  }
  if (kind === 'employee') {
    const slash = id.lastIndexOf('/');
    const category = id.slice(0, slash);
    const employee = Object.hasOwn(c.employees, category) ? (c.employees as Record<string, Employee[]>)[category]!.find((e) => String(e.id) === id.slice(slash + 1)) : undefined;
    return employee && { kind, code, category, employee };
  }
  return undefined;
}

/** The editor's texts of the items named (keys as `snapshotItem` takes them). */
export function* itemTexts(snapshot: Snapshot, keys: Iterable<string>): Generator<SnapshotText> {
  for (const key of keys) {
    const item = snapshotItem(snapshot, key);
    if (item?.kind === 'post') yield postText(item.code, item.post);
    else if (item?.kind === 'page') yield pageText(item.code, item.page);
    else if (item?.kind === 'employee') yield* employeeTexts(item.code, item.category, item.employee);
  }
}
