/**
 * The build-time pull: every post, page, employee list, gallery, survey and
 * menu, for each of the four languages, into one snapshot file that the pages
 * read. Requests run with bounded concurrency and each distinct request is made
 * once. Any endpoint that still fails after the client's retries fails the
 * pull, so a half-empty site is never built.
 */
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ApiError, createApiClient, type ApiClient } from '../api/client.ts';
import {
  EMPLOYEE_CATEGORIES,
  POST_TYPES,
  type ApiWarning,
  type ContentPage,
  type Employee,
  type EmployeeCategory,
  type Post,
  type PostTypeName,
} from '../api/types.ts';
import { LANGUAGES, type Language } from '../i18n/languages.ts';
import { SNAPSHOT_FILE, type LanguageContent, type Snapshot } from './snapshot.ts';

export interface PullOptions {
  apiBase: string;
  mediaBase: string;
  contentDir: string;
  concurrency?: number;
  timeoutMs?: number;
  retries?: number;
  /** First retry delay of a failing request (doubles each time). */
  backoffMs?: number;
  log?: (line: string) => void;
}

export interface PullSummary {
  requests: number;
  items: number;
  warnings: ApiWarning[];
  ms: number;
  file: string;
}

/** Runs at most `n` tasks at once. */
export function createLimiter(n: number) {
  let active = 0;
  const waiting: (() => void)[] = [];
  return async function limit<T>(task: () => Promise<T>): Promise<T> {
    if (active >= n) await new Promise<void>((r) => waiting.push(r));
    active++;
    try {
      return await task();
    } finally {
      active--;
      waiting.shift()?.();
    }
  };
}

export async function pullContent(options: PullOptions): Promise<PullSummary> {
  const { concurrency = 6, log = (l) => console.log(l) } = options;
  const started = performance.now();
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
  // Each distinct request once per pull, however many places ask for it.
  const memo = new Map<string, Promise<unknown>>();
  const once = <T>(key: string, task: () => Promise<T>): Promise<T> => {
    if (!memo.has(key)) memo.set(key, limit(task));
    return memo.get(key) as Promise<T>;
  };

  const languages = await Promise.all(LANGUAGES.map((lang) => pullLanguage(client, lang, once)));
  const snapshot: Snapshot = {
    pulledAt: new Date().toISOString(),
    apiBase: options.apiBase,
    mediaBase: options.mediaBase,
    languages: Object.fromEntries(languages.map((c, i) => [LANGUAGES[i]!.code, c])) as Snapshot['languages'],
  };
  const items = languages.reduce(
    (n, c) =>
      n + Object.keys(c.posts).length + Object.keys(c.pages).length + c.photoGroups.length + c.videos.length +
      c.surveys.length + Object.values(c.employees).flat().length,
    0,
  );

  // Written beside, then renamed: a reader never sees half a snapshot.
  await mkdir(options.contentDir, { recursive: true });
  const file = join(options.contentDir, SNAPSHOT_FILE);
  await writeFile(`${file}.tmp`, JSON.stringify(snapshot));
  await rename(`${file}.tmp`, file);

  const ms = Math.round(performance.now() - started);
  log(`pulled ${items} items in ${LANGUAGES.length} languages with ${requests} requests in ${ms} ms, ${warnings.length} warning(s)`);
  return { requests, items, warnings, ms, file };
}

type Once = <T>(key: string, task: () => Promise<T>) => Promise<T>;

async function pullLanguage(client: ApiClient, language: Language, once: Once): Promise<LanguageContent> {
  const lang = language.number;
  const postTypes = Object.entries(POST_TYPES) as [PostTypeName, (typeof POST_TYPES)[PostTypeName]][];
  const pullList = async ([name, type]: (typeof postTypes)[number]) => {
    const first = await once(`posts ${type} 1 ${lang}`, () => client.postList(type, lang, 1));
    const rest = await Promise.all(
      Array.from({ length: Math.max(0, first.pageCount - 1) }, (_, i) =>
        once(`posts ${type} ${i + 2} ${lang}`, () => client.postList(type, lang, i + 2)),
      ),
    );
    return [name, [first, ...rest].map((p) => p.items.map((item) => item.id))] as const;
  };
  // Menus and lists in one Promise.all: whichever fails first fails the pull, and no rejection goes unhandled.
  const [menus, listEntries] = await Promise.all([
    once(`menus ${lang}`, () => client.menus(lang)),
    Promise.all(postTypes.map(pullList)),
  ]);

  const ids = [...new Set(listEntries.flatMap(([, pages]) => pages.flat()))];
  const details = await Promise.all(ids.map((id) => once(`post ${id} ${lang}`, () => skipMissing(client.post(id, lang)))));
  const posts: Record<number, Post> = {};
  for (const post of details) if (post) posts[post.id] = post;
  // A post whose detail could not be read is left out of every list, so no link leads nowhere.
  const lists = Object.fromEntries(
    listEntries.map(([name, pages]) => [name, pages.map((page) => page.filter((id) => id in posts))]),
  ) as LanguageContent['lists'];

  const pageIds = [...new Set(menus.flatMap((g) => g.items.flatMap((i) => (i.target.kind === 'page' ? [i.target.pageId] : []))))];
  const pageList = await Promise.all(pageIds.map((id) => once(`page ${id} ${lang}`, () => skipMissing(client.page(id, lang)))));
  const pages: Record<number, ContentPage> = {};
  for (const page of pageList) if (page) pages[page.id] = page;

  const categories = Object.values(EMPLOYEE_CATEGORIES);
  const [employeeLists, photoGroups, videos, surveys] = await Promise.all([
    Promise.all(categories.map((c) => once(`employees ${c} ${lang}`, () => client.employees(c, lang)))),
    once(`photos ${lang}`, () => client.photoGroups(lang)),
    once(`videos ${lang}`, () => client.videos(lang)),
    once(`surveys ${lang}`, () => client.surveys(lang)),
  ]);
  const employees = Object.fromEntries(categories.map((c, i) => [c, employeeLists[i]!])) as Record<EmployeeCategory, Employee[]>;

  return { lang, menus, lists, posts, pages, employees, photoGroups, videos, surveys };
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
