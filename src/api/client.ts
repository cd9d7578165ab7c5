/**
 * HTTP client for the administration's API (docs/rules.md, The API's calls). Runs both at build time
 * (Node) and in the browser islands, so it relies on `fetch` alone.
 *
 * Rules that are ours, not the spec's:
 * - List calls always send `pageNumber`; detail calls never do. That is how
 *   `api/post/{postTypeId}` and `/api/post/{id}` are told apart.
 * - GET calls are retried with backoff on network errors, timeouts, 5xx and
 *   unreadable bodies; POST calls are never retried, so an appeal is never
 *   sent twice.
 * - A malformed item is skipped and reported through `onWarning`; a malformed
 *   envelope fails the call.
 */
import * as v from 'valibot';
import type { LangNumber } from '../i18n/languages.ts';
import { fetchSameOrigin, RedirectRefused } from '../lib/fetch-same-origin.ts';
import type {
  Appeal,
  AppealOutcome,
  ApiWarning,
  ContentPage,
  Employee,
  EmployeeCategory,
  NavGroup,
  PhotoGroup,
  Post,
  PostListPage,
  PostTypeId,
  SearchOutcome,
  Survey,
  Video,
} from './types.ts';
import * as wire from './wire.ts';

export class ApiError extends Error {
  readonly endpoint: string;
  readonly status: number | undefined;
  constructor(endpoint: string, message: string, status?: number) {
    super(`${endpoint}: ${message}`);
    this.name = 'ApiError';
    this.endpoint = endpoint;
    this.status = status;
  }
}

export interface ApiClientOptions {
  baseUrl: string;
  /** Per-attempt time limit. */
  timeoutMs?: number;
  /** Extra attempts for a failing GET. */
  retries?: number;
  /** First backoff delay; doubles with each retry. */
  backoffMs?: number;
  fetch?: typeof fetch;
  onWarning?: (warning: ApiWarning) => void;
  /** Called once per HTTP attempt, for the build summary. */
  onRequest?: (method: string, url: string) => void;
  /** The largest answer taken (MAX_ANSWER_BYTES). */
  maxAnswerBytes?: number;
}

/** The language travels as `langType`, except on search where the API calls it `langTypeQorakul`. */
type LangHeader = 'langType' | 'langTypeQorakul';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** An answer larger than this is none of the API's: a runaway or hostile one must not take the build's memory. */
const MAX_ANSWER_BYTES = 32 * 1024 * 1024;

/** The body as text, refused past `max` bytes (declared or read). */
async function boundedText(res: Response, endpoint: string, max: number): Promise<string> {
  const tooLarge = () => new ApiError(endpoint, `an answer of more than ${max} bytes`);
  if (Number(res.headers.get('content-length') ?? 0) > max) {
    await res.body?.cancel();
    throw tooLarge();
  }
  if (!res.body) return res.text();
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      await reader.cancel();
      throw tooLarge();
    }
    chunks.push(value);
  }
  const all = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    all.set(c, at);
    at += c.byteLength;
  }
  return new TextDecoder().decode(all);
}

export function createApiClient(options: ApiClientOptions) {
  const {
    timeoutMs = 15_000,
    retries = 3,
    backoffMs = 300,
    fetch: doFetch = fetchSameOrigin,
    onWarning = () => {},
    onRequest = () => {},
    maxAnswerBytes = MAX_ANSWER_BYTES,
  } = options;
  const base = options.baseUrl.replace(/\/+$/, '');

  function url(path: string, query?: Record<string, string | number>): string {
    const u = `${base}/${path.replace(/^\/+/, '')}`;
    if (!query) return u;
    const qs = new URLSearchParams(Object.entries(query).map(([k, val]) => [k, String(val)]));
    return `${u}?${qs}`;
  }

  function headers(lang: LangNumber, header: LangHeader, extra?: Record<string, string>) {
    return { accept: 'application/json', [header]: String(lang), ...extra };
  }

  /** GET with bounded retries; returns the parsed JSON body. */
  async function getJson(endpoint: string, target: string, lang: LangNumber, header: LangHeader = 'langType') {
    let problem = '';
    let status: number | undefined;
    for (let attempt = 0; attempt <= retries; attempt++) {
      if (attempt > 0) await sleep(backoffMs * 2 ** (attempt - 1));
      onRequest('GET', target);
      let res: Response;
      try {
        // A redirect may stay on the API's host (fetchSameOrigin): another server's answer would be filed as the API's.
        res = await doFetch(target, { headers: headers(lang, header), signal: AbortSignal.timeout(timeoutMs) });
      } catch (err) {
        if (err instanceof RedirectRefused) throw new ApiError(endpoint, err.message);
        [problem, status] = [describeFetchError(err, timeoutMs), undefined];
        continue;
      }
      status = res.status;
      if (res.status >= 500) {
        await res.body?.cancel();
        problem = `server error ${res.status}`;
        continue;
      }
      if (!res.ok) {
        await res.body?.cancel();
        throw new ApiError(endpoint, `HTTP ${res.status}`, res.status);
      }
      try {
        return JSON.parse(await boundedText(res, endpoint, maxAnswerBytes)) as unknown;
      } catch (err) {
        if (err instanceof ApiError) throw err;
        problem = `unreadable JSON (${describeFetchError(err, timeoutMs)})`;
      }
    }
    throw new ApiError(endpoint, `${problem} after ${retries + 1} attempts`, status);
  }

  function parseOrThrow<S extends v.GenericSchema>(endpoint: string, schema: S, body: unknown): v.InferOutput<S> {
    const parsed = v.safeParse(schema, body);
    if (!parsed.success) throw new ApiError(endpoint, `unexpected response (${wire.describeIssues(parsed.issues)})`);
    return parsed.output;
  }

  /** `{data: [...]}` per the spec, or a bare array, which the real API may send. */
  function listOf(endpoint: string, body: unknown): unknown[] {
    if (Array.isArray(body)) return body;
    if (body && typeof body === 'object' && Array.isArray((body as { data?: unknown }).data)) {
      return (body as { data: unknown[] }).data;
    }
    throw new ApiError(endpoint, 'expected a list under "data"');
  }

  /** Validates each item; malformed ones are skipped with a warning naming endpoint, language and id. */
  function items<S extends v.GenericSchema, T>(endpoint: string, lang: LangNumber, raw: unknown[], schema: S, map: (w: v.InferOutput<S>) => T): T[] {
    const out: T[] = [];
    for (const item of raw) {
      const parsed = v.safeParse(schema, item);
      if (parsed.success) out.push(map(parsed.output));
      else onWarning({ endpoint, lang, id: idOf(item), problem: wire.describeIssues(parsed.issues) });
    }
    return out;
  }

  async function getList<S extends v.GenericSchema, T>(path: string, lang: LangNumber, schema: S, map: (w: v.InferOutput<S>) => T): Promise<T[]> {
    const body = await getJson(path, url(path), lang);
    return items(path, lang, listOf(path, body), schema, map);
  }

  /** `{data: X}`: the single object a detail call returns. */
  function dataOf(endpoint: string, body: unknown): unknown {
    if (body && typeof body === 'object' && 'data' in body) return (body as { data: unknown }).data;
    throw new ApiError(endpoint, 'expected an object under "data"');
  }

  return {
    /** One page of a post category; `pageNumber` is always sent (see above). */
    async postList(type: PostTypeId, lang: LangNumber, pageNumber = 1): Promise<PostListPage> {
      const path = `api/post/${type}`;
      const body = await getJson(path, url(path, { pageNumber }), lang);
      const env = parseOrThrow(path, wire.postListEnvelope, body);
      return {
        items: items(path, lang, env.data.list, wire.postSchema, wire.toPostSummary),
        page: env.data.currentPageNumber,
        pageCount: env.data.maxPageNumber,
      };
    },

    /** One post, or null when its data is malformed (reported as a warning). */
    async post(id: number, lang: LangNumber): Promise<Post | null> {
      const path = `api/post/${id}`;
      const data = dataOf(path, await getJson(path, url(path), lang));
      const post = items(path, lang, [data], wire.postSchema, wire.toPost)[0] ?? null;
      // Filed under the id asked for, never under the one an answer claims: that could overwrite another post.
      if (post && post.id !== id) {
        onWarning({ endpoint: path, lang, id, problem: `the answer is post ${post.id}, not ${id}` });
        return null;
      }
      return post;
    },

    async page(id: number, lang: LangNumber): Promise<ContentPage | null> {
      const path = `api/page/${id}`;
      const data = dataOf(path, await getJson(path, url(path), lang));
      const parsed = v.safeParse(wire.pageSchema, data);
      if (parsed.success) return wire.toContentPage(id, parsed.output);
      onWarning({ endpoint: path, lang, id, problem: wire.describeIssues(parsed.issues) });
      return null;
    },

    surveys: (lang: LangNumber): Promise<Survey[]> => getList('api/survey/getAll', lang, wire.surveySchema, wire.toSurvey),

    menus: async (lang: LangNumber): Promise<NavGroup[]> => {
      const path = 'api/home/menus';
      return getList(path, lang, wire.navGroupSchema, (g) => wire.toNavGroup(g, (item, problem) => onWarning({ endpoint: path, lang, id: idOf(item) ?? g.title, problem })));
    },

    employees: (category: EmployeeCategory, lang: LangNumber): Promise<Employee[]> => getList(`api/employee/${category}`, lang, wire.employeeSchema, wire.toEmployee),

    photoGroups: (lang: LangNumber): Promise<PhotoGroup[]> => getList('api/gallery/photos', lang, wire.photoGroupSchema, wire.toPhotoGroup),

    videos: (lang: LangNumber): Promise<Video[]> => getList('api/gallery/videos', lang, wire.videoSchema, wire.toVideo),

    async search(query: string, lang: LangNumber): Promise<SearchOutcome> {
      const path = 'api/search';
      const body = await getJson(path, url(path, { q: query }), lang, 'langTypeQorakul');
      const error = v.safeParse(wire.searchErrorSchema, body);
      if (error.success) return { kind: 'message', message: error.output.errorMsg };
      if (!Array.isArray(body)) throw new ApiError(path, 'expected a list of results or {errorMsg}');
      return { kind: 'results', results: items(path, lang, body, wire.searchResultSchema, wire.toSearchResult) };
    },

    /** Any 2xx means the vote was counted (the response body is not specified). */
    async answerSurvey(surveyId: number, isLike: boolean, lang: LangNumber): Promise<void> {
      const path = 'api/survey/answer';
      const res = await post(path, lang, 'application/json', JSON.stringify({ surveyId, isLike }));
      await res.body?.cancel();
      if (!res.ok) throw new ApiError(path, `HTTP ${res.status}`, res.status);
    },

    async apply(appeal: Appeal, lang: LangNumber): Promise<AppealOutcome> {
      const path = 'api/apply';
      const res = await post(path, lang, 'application/x-www-form-urlencoded', wire.toApplyForm(appeal).toString());
      if (res.status === 400) {
        await res.body?.cancel();
        return { kind: 'too-short' };
      }
      let body: unknown;
      try {
        body = await res.json();
      } catch {
        throw new ApiError(path, `unreadable answer (HTTP ${res.status})`, res.status);
      }
      const parsed = v.safeParse(wire.applyAnswerSchema, body);
      if (!parsed.success) throw new ApiError(path, `unexpected answer (HTTP ${res.status})`, res.status);
      if ('errorMsg' in parsed.output) return { kind: 'rejected', message: parsed.output.errorMsg };
      if (!res.ok) throw new ApiError(path, `HTTP ${res.status}`, res.status);
      return { kind: 'sent', message: parsed.output.data.msg };
    },
  };

  async function post(path: string, lang: LangNumber, contentType: string, body: string): Promise<Response> {
    const target = url(path);
    onRequest('POST', target);
    try {
      return await doFetch(target, {
        method: 'POST',
        headers: headers(lang, 'langType', { 'content-type': contentType }),
        body,
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (err) {
      throw new ApiError(path, describeFetchError(err, timeoutMs));
    }
  }
}

export type ApiClient = ReturnType<typeof createApiClient>;

function idOf(item: unknown): unknown {
  return item && typeof item === 'object' && 'id' in item ? (item as { id: unknown }).id : undefined;
}

function describeFetchError(err: unknown, timeoutMs: number): string {
  if (err instanceof DOMException && (err.name === 'TimeoutError' || err.name === 'AbortError')) {
    return `no answer within ${timeoutMs} ms`;
  }
  const cause = err instanceof Error && err.cause instanceof Error ? `: ${err.cause.message}` : '';
  return `${err instanceof Error ? err.message : String(err)}${cause}`;
}
