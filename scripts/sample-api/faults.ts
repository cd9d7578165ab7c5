/**
 * Fault injection for the sample API: makes chosen endpoints slow, failing,
 * silent or malformed, to show how the API client and the build-time pull
 * behave when the administration's API misbehaves. Off unless rules are given.
 *
 * A rule is `{ match, kind, ms?, times? }`:
 * - `match` — a path prefix such as `/api/post/1`, compared whole segment by
 *   whole segment with the request's path (trailing slashes and the query
 *   ignored): `/api/post/1` matches `/api/post/1` and `/api/post/1?pageNumber=2`
 *   but not `/api/post/12`; `/api/gallery` matches both galleries; `/` matches
 *   everything. A prefix containing `?` is compared as plain text with the path
 *   and query (`/api/post/1?pageNumber` hits only the list calls of post type 1).
 *   A value written `/…/` (starting and ending with a slash, 3+ characters) is a
 *   regular expression tested against the path and query, e.g.
 *   `/^\/api\/post\/\d+$/` (the detail calls only).
 * - `kind` —
 *   `slow`: wait `ms` (default 30000) and then answer normally;
 *   `500`: answer 500 `{"errorMsg":"Injected failure"}`;
 *   `drop`: destroy the connection without answering;
 *   `malformed-json`: answer 200, `application/json`, with the normal JSON cut
 *   in half;
 *   `bad-items`: answer normally, but in the item list (`data.list`, `data` when
 *   it is an array, or a top-level array) corrupt each run of three items: the
 *   first loses `title`, the second gets its `id` as a string, the third gets
 *   `countViews: "many"` (the client skips the first two, keeps the third with
 *   no view count);
 *   `huge`: answer 200 with the normal JSON padded to about 20 MB (a long
 *   `padding` string beside `data`; a bare array is padded with whitespace).
 * - `times` — only the first N matching requests get the fault (default: all).
 *
 * The first rule that matches and has not used up its `times` applies. CORS
 * pre-flight (OPTIONS) requests are never faulted.
 *
 * Where rules come from:
 * - `startSampleApi({ faults: [...] })` (replaces the environment when given);
 * - `SAMPLE_API_FAULTS` — a JSON array of rules, e.g.
 *   `SAMPLE_API_FAULTS='[{"match":"/api/gallery/photos","kind":"500","times":2}]'`;
 * - `npm run sample-api -- --fault KIND:MATCH[:MS][xN]` (repeatable; added to
 *   the environment's rules):
 *     `--fault 500:/api/gallery/photos`        every photo gallery call fails
 *     `--fault slow:/api/home/menus:5000`      menus answer after 5 s
 *     `--fault 500:/api/post/1x2`              the first two calls fail
 *     `--fault slow:/api/search:2000x1`        only the first search is slow
 *     `--fault 'bad-items:/^\/api\/post\/1\?/'` corrupt the news lists
 *   `:MS` is only allowed for `slow`; a trailing `xN` is always read as the count.
 */
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';

const FAULT_KINDS = ['slow', '500', 'drop', 'malformed-json', 'bad-items', 'huge'] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

export interface FaultRule {
  /** Path prefix, or a regular expression written `/…/`. */
  match: string;
  kind: FaultKind;
  /** For `slow`: the delay before answering. Default 30000. */
  ms?: number;
  /** Apply to the first N matching requests only. Default: every one. */
  times?: number;
}

const DEFAULT_SLOW_MS = 30_000;
/** Approximate size of a `huge` answer. */
export const HUGE_BYTES = 20 * 1024 * 1024;

const isKind = (k: unknown): k is FaultKind => (FAULT_KINDS as readonly unknown[]).includes(k);

// ---- parsing ---------------------------------------------------------------

/** Parses one `--fault KIND:MATCH[:MS][xN]` value. Throws with a readable message. */
export function parseFaultFlag(flag: string): FaultRule {
  const usage = `--fault "${flag}": expected KIND:MATCH[:MS][xN] with KIND one of ${FAULT_KINDS.join(', ')}`;
  const colon = flag.indexOf(':');
  if (colon < 0) throw new Error(usage);
  const kind = flag.slice(0, colon);
  if (!isKind(kind)) throw new Error(usage);
  let rest = flag.slice(colon + 1);
  const rule: FaultRule = { match: '', kind };
  const times = /x(\d+)$/.exec(rest);
  if (times) {
    rule.times = Number(times[1]);
    rest = rest.slice(0, -times[0].length);
  }
  const ms = /:(\d+)$/.exec(rest);
  if (ms) {
    if (kind !== 'slow') throw new Error(`--fault "${flag}": a delay (:MS) only applies to slow`);
    rule.ms = Number(ms[1]);
    rest = rest.slice(0, -ms[0].length);
  }
  rule.match = rest;
  return validateRule(rule, `--fault "${flag}"`);
}

/** Reads `SAMPLE_API_FAULTS` (a JSON array of rules); none when unset or blank. */
export function faultsFromEnv(raw: string | undefined = process.env.SAMPLE_API_FAULTS): FaultRule[] {
  if (!raw?.trim()) return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch (err) {
    throw new Error(`SAMPLE_API_FAULTS is not JSON: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
  }
  return validateRules(parsed, 'SAMPLE_API_FAULTS');
}

/** Checks rules from any source (option, environment); returns them typed or throws. */
export function validateRules(rules: unknown, source = 'faults'): FaultRule[] {
  if (!Array.isArray(rules)) throw new Error(`${source}: expected an array of fault rules`);
  return rules.map((r, i) => validateRule(r, `${source}[${i}]`));
}

function validateRule(r: unknown, where: string): FaultRule {
  if (!r || typeof r !== 'object') throw new Error(`${where}: expected {match, kind, ms?, times?}`);
  const { match, kind, ms, times } = r as Record<string, unknown>;
  if (!isKind(kind)) throw new Error(`${where}: kind must be one of ${FAULT_KINDS.join(', ')}`);
  if (typeof match !== 'string' || match === '') throw new Error(`${where}: match must be a non-empty string`);
  if (isRegex(match)) {
    try {
      new RegExp(match.slice(1, -1));
    } catch (err) {
      throw new Error(`${where}: bad regular expression ${match}: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
    }
  }
  if (ms !== undefined && !(Number.isInteger(ms) && (ms as number) >= 0)) throw new Error(`${where}: ms must be a whole number ≥ 0`);
  if (times !== undefined && !(Number.isInteger(times) && (times as number) >= 1)) {
    throw new Error(`${where}: times must be a whole number ≥ 1`);
  }
  const rule: FaultRule = { match, kind };
  if (ms !== undefined) rule.ms = ms as number;
  if (times !== undefined) rule.times = times as number;
  return rule;
}

/** The `flag` spelling of a rule (for logs). */
export function describeRule(rule: FaultRule): string {
  return `${rule.kind}:${rule.match}${rule.ms !== undefined ? `:${rule.ms}` : ''}${rule.times !== undefined ? `x${rule.times}` : ''}`;
}

// ---- matching --------------------------------------------------------------

const isRegex = (match: string) => match.length >= 3 && match.startsWith('/') && match.endsWith('/');

/** Whether `rule.match` selects the request URL `url` (path and query, as in `req.url`). */
export function ruleMatches(match: string, url: string): boolean {
  if (isRegex(match)) return new RegExp(match.slice(1, -1)).test(url);
  const prefix = match.startsWith('/') ? match : `/${match}`;
  if (prefix.includes('?')) return url.startsWith(prefix);
  const path = (url.split('?', 1)[0] ?? '').replace(/\/+$/, '');
  const p = prefix.replace(/\/+$/, '');
  return path === p || path.startsWith(`${p}/`);
}

// ---- the middleware --------------------------------------------------------

export interface FaultInjector {
  /** Handles `req` with a fault when a rule applies; otherwise calls `next()` at once. */
  handle(req: IncomingMessage, res: ServerResponse, next: () => void): void;
  /** Cancels pending `slow` timers so that the server can close at once. */
  close(): void;
}

export function createFaultInjector(rules: readonly FaultRule[], options: { log?: (line: string) => void } = {}): FaultInjector {
  const { log } = options;
  const active = rules.map((rule, index) => ({ rule, index, used: 0 }));
  const timers = new Set<NodeJS.Timeout>();

  return {
    handle(req, res, next) {
      const url = req.url ?? '/';
      const hit = req.method === 'OPTIONS' ? undefined : active.find((a) => (a.rule.times === undefined || a.used < a.rule.times) && ruleMatches(a.rule.match, url));
      if (!hit) return next();
      hit.used++;
      const { rule } = hit;
      const count = rule.times !== undefined ? ` (${hit.used} of ${rule.times})` : '';
      log?.(`fault ${rule.kind} injected on ${req.method} ${url} by rule ${hit.index + 1} ${describeRule(rule)}${count}`);

      switch (rule.kind) {
        case 'slow': {
          const timer = setTimeout(() => {
            timers.delete(timer);
            next();
          }, rule.ms ?? DEFAULT_SLOW_MS);
          timers.add(timer);
          // A caller that gave up (or a server that is closing) needs no answer.
          res.once('close', () => {
            clearTimeout(timer);
            timers.delete(timer);
          });
          return;
        }
        case '500':
          return send(res, 500, {}, JSON.stringify({ errorMsg: 'Injected failure' }));
        case 'drop':
          return void req.socket.destroy();
        case 'malformed-json':
          return capture(res, next, (_status, headers, body) => {
            const text = jsonText(body) ?? JSON.stringify({ errorMsg: 'Injected malformed JSON' });
            send(res, 200, headers, text.slice(0, Math.max(1, Math.floor(text.length / 2))));
          });
        case 'bad-items':
          return capture(res, next, (status, headers, body) => {
            const text = jsonText(body);
            if (text === undefined || status < 200 || status >= 300) return send(res, status, headers, body);
            send(res, status, headers, JSON.stringify(corruptItems(JSON.parse(text))));
          });
        case 'huge':
          return capture(res, next, (_status, headers, body) => {
            const text = jsonText(body) ?? JSON.stringify({ data: [] });
            send(res, 200, headers, padJson(text));
          });
      }
    },
    close() {
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
    },
  };
}

/** Corrupts each run of three items of the body's list(s) in place (see the module comment). */
export function corruptItems(body: unknown): unknown {
  const lists: unknown[][] = [];
  if (Array.isArray(body)) lists.push(body);
  else if (body && typeof body === 'object' && 'data' in body) {
    const data = (body as { data: unknown }).data;
    if (Array.isArray(data)) lists.push(data);
    else if (data && typeof data === 'object' && Array.isArray((data as { list?: unknown }).list)) {
      lists.push((data as { list: unknown[] }).list);
    }
  }
  for (const list of lists) {
    list.forEach((item, i) => {
      if (!item || typeof item !== 'object') return;
      const o = item as Record<string, unknown>;
      if (i % 3 === 0) delete o.title;
      else if (i % 3 === 1) o.id = String(o.id);
      else o.countViews = 'many';
    });
  }
  return body;
}

let padding: string | undefined;

/** The same JSON, about HUGE_BYTES long and still valid. */
function padJson(text: string): string {
  padding ??= 'x'.repeat(HUGE_BYTES);
  const trimmed = text.trim();
  if (!trimmed.startsWith('{')) return `${text}${' '.repeat(HUGE_BYTES)}`;
  // Spliced in as text: stringifying 20 MB again would only slow the answer down.
  const inner = trimmed.slice(1, -1).trim();
  return `{${inner}${inner ? ',' : ''}"padding":"${padding}"}`;
}

/** The body as text when it is JSON, else undefined. */
function jsonText(body: Buffer): string | undefined {
  const text = body.toString('utf8');
  try {
    JSON.parse(text);
    return text;
  } catch {
    return undefined;
  }
}

function send(res: ServerResponse, status: number, headers: OutgoingHttpHeaders, body: string | Buffer): void {
  if (res.destroyed) return;
  const out: OutgoingHttpHeaders = { ...headers };
  delete out['content-length'];
  if (typeof body === 'string') out['content-type'] = 'application/json; charset=utf-8';
  out['content-length'] = Buffer.byteLength(body);
  res.writeHead(status, out);
  res.end(body);
}

/**
 * Lets the normal handler answer into a buffer instead of the socket, then
 * hands status, headers and body to `done`, which writes the real answer.
 */
function capture(res: ServerResponse, next: () => void, done: (status: number, headers: OutgoingHttpHeaders, body: Buffer) => void): void {
  const original = { writeHead: res.writeHead, write: res.write, end: res.end };
  const chunks: Buffer[] = [];
  let status: number | undefined;
  let headers: OutgoingHttpHeaders = {};
  const toBuffer = (chunk: unknown, encoding: unknown): Buffer =>
    typeof chunk === 'string' ? Buffer.from(chunk, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8') : Buffer.from(chunk as Uint8Array);

  res.writeHead = function (code: number, ...rest: unknown[]) {
    status = code;
    const h = rest.find((r) => r && typeof r === 'object' && !Array.isArray(r));
    if (h) headers = { ...headers, ...(h as OutgoingHttpHeaders) };
    return res;
  } as unknown as ServerResponse['writeHead'];
  res.write = function (chunk: unknown, encoding?: unknown, cb?: unknown) {
    if (chunk != null) chunks.push(toBuffer(chunk, encoding));
    const callback = typeof encoding === 'function' ? encoding : cb;
    if (typeof callback === 'function') queueMicrotask(() => (callback as () => void)());
    return true;
  } as unknown as ServerResponse['write'];
  res.end = function (chunk?: unknown, encoding?: unknown, cb?: unknown) {
    if (chunk != null && typeof chunk !== 'function') chunks.push(toBuffer(chunk, encoding));
    res.writeHead = original.writeHead;
    res.write = original.write;
    res.end = original.end;
    const callback = [chunk, encoding, cb].find((a) => typeof a === 'function');
    if (callback) res.once('finish', callback as () => void);
    done(status ?? res.statusCode, headers, Buffer.concat(chunks));
    return res;
  } as unknown as ServerResponse['end'];
  next();
}
