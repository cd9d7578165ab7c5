/**
 * Content-change webhook: the content API (or an operator) tells this listener that something changed,
 * and it triggers a site rebuild.
 *
 *   POST /hooks/content   `x-hook-timestamp: <unix seconds>` and `x-hub-signature-256: sha256=<hex>`, the
 *                         HMAC-SHA256 of `${timestamp}.${body}`; optional `x-hook-delivery: <id>`.
 *                         A timestamp more than 5 minutes away from now, or a delivery id or signature seen in
 *                         that window, is refused (a captured call cannot be replayed).
 *                         Empty body or `{}` = everything changed, otherwise `{type, id?}` or an array of them.
 *                         Answers 202 {queued: true} at once; the rebuild runs in the background.
 *   GET  /hooks/status    unsigned: {state, lastStartedAt, lastFinishedAt, lastSucceeded}; signed the same way
 *                         (empty body): {state, queue, lastReport, lastError, lastStartedAt, lastFinishedAt}.
 *                         The detail (error messages name internal URLs and paths) is for the operator only.
 *
 * Calls are coalesced: the first call of a batch opens a debounce window of `debounceMs`; every call in that
 * window joins one rebuild whose changes are the union. Never two rebuilds at once: calls that arrive while
 * a rebuild runs are merged into exactly one follow-up, started when the running one ends (and not before
 * its own window has elapsed).
 *
 * As a program (`node scripts/webhook.ts`): WEBHOOK_SECRET (required, ≥ 16 characters), WEBHOOK_PORT (8790),
 * WEBHOOK_HOST (127.0.0.1), WEBHOOK_DEBOUNCE_MS (2000). The rebuild is `rebuild` from ./rebuild.ts.
 * SIGTERM/SIGINT: cancel a pending rebuild, abort the running one, wait for it to settle, exit 0.
 *
 * Sign a call by hand: see README "Rebuilds" (curl and openssl).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { deployEnvProblem } from '../src/config.ts';
import { readBody, sendJson } from './lib/http.ts';
import { contentChange, describeChanges, mergeChanges, type ContentChange, type ContentChanges as Changes } from '../src/content/changes.ts';

export type RebuildFn = (changes: Changes, signal: AbortSignal) => Promise<unknown>;

export interface Status {
  state: 'idle' | 'waiting' | 'building';
  /** Changes waiting for the next rebuild (`null` when none is scheduled). */
  queue: Changes | null;
  /** What the last successful rebuild resolved with. */
  lastReport: unknown;
  /** The last rebuild's error message; `null` when the last rebuild succeeded (or none ran). */
  lastError: string | null;
  lastStartedAt: string | null;
  lastFinishedAt: string | null;
}

/** What anyone may read: whether the site is being rebuilt and whether the last rebuild worked. */
export interface PublicStatus {
  state: Status['state'];
  lastStartedAt: string | null;
  lastFinishedAt: string | null;
  /** `null` before the first rebuild ends. */
  lastSucceeded: boolean | null;
}

export interface WebhookOptions {
  secret: string;
  rebuild: RebuildFn;
  host?: string;
  port?: number;
  debounceMs?: number;
  log?: (line: string) => void;
}

export interface WebhookServer {
  url: string;
  server: Server;
  close(): Promise<void>;
  status(): Status;
}

export const CONTENT_PATH = '/hooks/content';
export const STATUS_PATH = '/hooks/status';
export const SIGNATURE_HEADER = 'x-hub-signature-256';
export const TIMESTAMP_HEADER = 'x-hook-timestamp';
export const DELIVERY_HEADER = 'x-hook-delivery';
/** How far a call's timestamp may be from the listener's clock; also how long ids are remembered. */
export const REPLAY_WINDOW_S = 300;
/** Connection bounds: a webhook call is one small request, so anything slower or more numerous is not one. */
export const MAX_CONNECTIONS = 32;
export const HEADERS_TIMEOUT_MS = 5_000;
export const REQUEST_TIMEOUT_MS = 10_000;
export const IDLE_TIMEOUT_MS = 5_000;
export const MAX_BODY_BYTES = 64 * 1024;
export const DEFAULT_PORT = 8790;
export const DEFAULT_DEBOUNCE_MS = 2000;

const mac = (secret: string, timestamp: string, body: string | Uint8Array) =>
  createHmac('sha256', secret).update(`${timestamp}.`).update(body).digest();

/**
 * The signature header value for `body` sent at `timestamp` (unix seconds): `sha256=` + the hex
 * HMAC-SHA256 of `${timestamp}.` followed by the body's exact bytes (strings as UTF-8).
 */
export function sign(secret: string, body: string | Uint8Array, timestamp: number | string): string {
  return `sha256=${mac(secret, String(timestamp), body).toString('hex')}`;
}

/** The headers of a signed call: timestamp, signature and (optionally) a delivery id. */
export function signedHeaders(secret: string, body: string | Uint8Array, options: { now?: number; delivery?: string } = {}): Record<string, string> {
  const timestamp = String(Math.floor((options.now ?? Date.now()) / 1000));
  return {
    [TIMESTAMP_HEADER]: timestamp,
    [SIGNATURE_HEADER]: sign(secret, body, timestamp),
    ...(options.delivery ? { [DELIVERY_HEADER]: options.delivery } : {}),
  };
}

/** Checks a `sha256=<hex>` (or bare `<hex>`) signature of `${timestamp}.${body}` in constant time. */
export function verifySignature(secret: string, body: Uint8Array, timestamp: string | undefined, header: string | undefined): boolean {
  if (!header || !timestamp || !/^\d{1,12}$/.test(timestamp)) return false;
  const hex = header.trim().replace(/^sha256=/i, '');
  if (!/^[0-9a-f]{64}$/i.test(hex)) return false;
  const given = Buffer.from(hex, 'hex');
  const expected = mac(secret, timestamp, body);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

const header = (req: IncomingMessage, name: string) => {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
};

class BadRequest extends Error {}

function parseChange(value: unknown, where: string): ContentChange {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new BadRequest(`${where}: expected an object`);
  const { type, id } = value as { type?: unknown; id?: unknown };
  try {
    return contentChange(type, id);
  } catch (err) {
    throw new BadRequest(`${where}: ${(err as Error).message}`);
  }
}

/** Reads a (verified) body: empty or `{}` → 'all'; `{type, id?}` or a non-empty array of them. */
export function parseChanges(body: string): Changes {
  if (body.trim() === '') return 'all';
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    throw new BadRequest('body is not valid JSON');
  }
  if (Array.isArray(value)) {
    if (value.length === 0) throw new BadRequest('empty change list (send {} or an empty body to rebuild everything)');
    return mergeChanges(null, value.map((item, i) => parseChange(item, `item ${i}`)));
  }
  if (typeof value === 'object' && value !== null && Object.keys(value).length === 0) return 'all';
  return [parseChange(value, 'body')];
}


const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

export async function createWebhookServer(options: WebhookOptions): Promise<WebhookServer> {
  const { secret, rebuild } = options;
  if (typeof secret !== 'string' || secret === '') throw new TypeError('createWebhookServer: a non-empty secret is required');
  if (typeof rebuild !== 'function') throw new TypeError('createWebhookServer: a rebuild function is required');
  const debounceMs = options.debounceMs ?? DEFAULT_DEBOUNCE_MS;
  if (!Number.isFinite(debounceMs) || debounceMs < 0) throw new TypeError('createWebhookServer: debounceMs must be ≥ 0');
  const log = options.log ?? ((line: string) => console.log(line));

  // Scheduling state. Invariant: queue !== null ⇔ (timer !== null || due).
  let queue: Changes | null = null;
  let timer: NodeJS.Timeout | null = null;
  /** The window of the queued batch has elapsed; it starts as soon as the running rebuild ends. */
  let due = false;
  let current: { controller: AbortController; done: Promise<void> } | null = null;
  let closing: Promise<void> | null = null;
  let lastReport: unknown = null;
  let lastError: string | null = null;
  let lastStartedAt: string | null = null;
  let lastFinishedAt: string | null = null;

  /** Delivery ids and signatures accepted within the replay window, with when they expire (ms). */
  const seen = new Map<string, number>();
  const remember = (keys: string[], now: number) => {
    for (const [key, until] of seen) if (until <= now) seen.delete(key);
    for (const key of keys) seen.set(key, now + 2 * REPLAY_WINDOW_S * 1000);
  };

  /** Why a call's signature is refused, or null when it is valid and its timestamp fresh. */
  const authFailure = (req: IncomingMessage, body: Uint8Array): string | null => {
    const timestamp = header(req, TIMESTAMP_HEADER);
    if (!verifySignature(secret, body, timestamp, header(req, SIGNATURE_HEADER))) {
      return `missing or invalid ${SIGNATURE_HEADER} signature of "<${TIMESTAMP_HEADER}>.<body>"`;
    }
    if (Math.abs(Date.now() / 1000 - Number(timestamp)) > REPLAY_WINDOW_S) {
      return `${TIMESTAMP_HEADER} is more than ${REPLAY_WINDOW_S} s away from this server's clock`;
    }
    return null;
  };

  /** True when this (authenticated) call's delivery id or signature was accepted before; remembers it otherwise. */
  const replayed = (req: IncomingMessage): boolean => {
    const now = Date.now();
    const delivery = header(req, DELIVERY_HEADER);
    const signature = header(req, SIGNATURE_HEADER)!.trim().replace(/^sha256=/i, '').toLowerCase();
    const keys = [`sig:${signature}`, ...(delivery ? [`id:${delivery}`] : [])];
    if (keys.some((k) => (seen.get(k) ?? 0) > now)) return true;
    remember(keys, now);
    return false;
  };

  const status = (): Status => ({
    state: current ? 'building' : queue !== null ? 'waiting' : 'idle',
    queue: queue === null || queue === 'all' ? queue : queue.map((c) => ({ ...c })),
    lastReport,
    lastError,
    lastStartedAt,
    lastFinishedAt,
  });

  function enqueue(changes: Changes) {
    queue = mergeChanges(queue, changes);
    if (timer === null && !due) {
      timer = setTimeout(() => {
        timer = null;
        due = true;
        if (!current) start();
      }, debounceMs);
    }
  }

  function start() {
    if (closing || queue === null) return;
    const changes = queue;
    queue = null;
    due = false;
    const controller = new AbortController();
    const began = Date.now();
    lastStartedAt = new Date(began).toISOString();
    log(`webhook: rebuild started (${describeChanges(changes)})`);
    const job: { controller: AbortController; done: Promise<void> } = { controller, done: Promise.resolve() };
    current = job; // before calling rebuild: it may fail synchronously
    job.done = (async () => {
      try {
        const report = await rebuild(changes, controller.signal);
        lastReport = report ?? null;
        lastError = null;
        log(`webhook: rebuild finished in ${Date.now() - began} ms`);
      } catch (error) {
        lastError = messageOf(error);
        log(`webhook: rebuild ${controller.signal.aborted ? 'aborted' : 'failed'} after ${Date.now() - began} ms: ${lastError}`);
      } finally {
        lastFinishedAt = new Date().toISOString();
        current = null;
      }
      if (due) start();
    })();
  }

  const send = (res: ServerResponse, code: number, body: unknown, headers: Record<string, string> = {}) =>
    sendJson(res, code, body, { 'cache-control': 'no-store', ...(closing ? { connection: 'close' } : {}), ...headers });

  async function handleContent(req: IncomingMessage, res: ServerResponse) {
    const read = await readBody(req, MAX_BODY_BYTES);
    if (!read.ok) {
      if (read.reason === 'aborted') return void res.destroy();
      // Answer, then drop the connection rather than reading (or buffering) the rest of the body.
      res.once('finish', () => req.socket.destroySoon());
      return send(res, 413, { error: `body larger than ${MAX_BODY_BYTES} bytes` }, { connection: 'close' });
    }
    // Signature first, so an unsigned caller learns nothing about the body's format.
    const failure = authFailure(req, read.body);
    if (failure) return send(res, 401, { error: failure });
    let changes: Changes;
    try {
      changes = parseChanges(read.body.toString('utf8'));
    } catch (error) {
      if (error instanceof BadRequest) return send(res, 400, { error: error.message });
      throw error;
    }
    if (replayed(req)) return send(res, 409, { error: 'this call was already received (a replayed delivery)' });
    if (closing) return send(res, 503, { error: 'shutting down' });
    enqueue(changes);
    send(res, 202, { queued: true });
  }

  const server = createServer(
    {
      headersTimeout: HEADERS_TIMEOUT_MS,
      requestTimeout: REQUEST_TIMEOUT_MS,
      keepAliveTimeout: IDLE_TIMEOUT_MS,
      // Node checks the two timeouts above only this often (30 s by default).
      connectionsCheckingInterval: 1_000,
    },
    (req, res) => {
    const began = Date.now();
    let path: string;
    try {
      path = new URL(req.url ?? '/', 'http://webhook.invalid').pathname;
    } catch {
      // `GET // HTTP/1.1` and the like: not a URL at all.
      res.once('close', () => log(`webhook: ${req.method} (malformed target) ${res.statusCode}`));
      return send(res, 400, { error: 'malformed request target' });
    }
    res.once('close', () => {
      const outcome = res.writableFinished ? String(res.statusCode) : 'aborted';
      log(`webhook: ${req.method} ${path} ${outcome} (${Date.now() - began} ms)`);
    });
    const handle = async () => {
      if (path === CONTENT_PATH) {
        if (req.method !== 'POST') return send(res, 405, { error: 'method not allowed' }, { allow: 'POST' });
        return handleContent(req, res);
      }
      if (path === STATUS_PATH) {
        if (req.method !== 'GET' && req.method !== 'HEAD') return send(res, 405, { error: 'method not allowed' }, { allow: 'GET, HEAD' });
        if (req.method === 'HEAD') return void res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' }).end();
        const full = status();
        if (header(req, SIGNATURE_HEADER) !== undefined) {
          const failure = authFailure(req, Buffer.alloc(0));
          return failure ? send(res, 401, { error: failure }) : send(res, 200, full);
        }
        const bare: PublicStatus = {
          state: full.state,
          lastStartedAt: full.lastStartedAt,
          lastFinishedAt: full.lastFinishedAt,
          lastSucceeded: full.lastFinishedAt === null ? null : full.lastError === null,
        };
        return send(res, 200, bare);
      }
      send(res, 404, { error: 'not found' });
    };
    handle().catch((error: unknown) => {
      log(`webhook: internal error on ${req.method} ${path}: ${messageOf(error)}`);
      if (!res.headersSent) send(res, 500, { error: 'internal error' });
      else res.destroy();
    });
    },
  );
  server.maxConnections = MAX_CONNECTIONS;
  // A connection that sends nothing at all (not even headers) is closed too.
  server.timeout = REQUEST_TIMEOUT_MS;

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? DEFAULT_PORT, options.host ?? '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;

  function close(): Promise<void> {
    closing ??= (async () => {
      if (timer !== null) clearTimeout(timer);
      timer = null;
      due = false;
      if (queue !== null) log(`webhook: pending rebuild cancelled (${describeChanges(queue)})`);
      queue = null;
      const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      if (current) {
        log('webhook: shutting down, aborting the running rebuild and waiting for it to stop');
        current.controller.abort();
        await current.done;
      }
      // Anything still connected now is a request that never finished sending.
      server.closeAllConnections();
      await stopped;
      log('webhook: closed');
    })();
    return closing;
  }

  return { url: `http://${host}:${address.port}`, server, close, status };
}

function envInteger(name: string, fallback: number, min: number, max: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    console.error(`webhook: ${name} must be an integer from ${min} to ${max} (got "${raw}")`);
    process.exit(1);
  }
  return value;
}

if (import.meta.main) {
  const problem = deployEnvProblem();
  if (problem) {
    console.error(`webhook: ${problem}`);
    process.exit(2);
  }
  const secret = process.env.WEBHOOK_SECRET ?? '';
  if (secret.length < 16) {
    console.error(
      secret === ''
        ? 'webhook: WEBHOOK_SECRET is not set; refusing to start. Set it to a random string of at least 16 characters (e.g. `openssl rand -hex 32`).'
        : `webhook: WEBHOOK_SECRET is only ${secret.length} characters; refusing to start. Use at least 16 (e.g. \`openssl rand -hex 32\`).`,
    );
    process.exit(1);
  }
  const port = envInteger('WEBHOOK_PORT', DEFAULT_PORT, 0, 65535);
  const debounceMs = envInteger('WEBHOOK_DEBOUNCE_MS', DEFAULT_DEBOUNCE_MS, 0, 3_600_000);
  const host = process.env.WEBHOOK_HOST || '127.0.0.1';

  // Loaded here only, so that importing this module (tests) never loads the real rebuild.
  let rebuild: RebuildFn;
  try {
    const real = (await import('./rebuild.ts')).rebuild;
    // A cron run holding the releases lock is waited for: this call's changes must still be published.
    rebuild = (changes, signal) => real(changes, signal, { wait: true });
  } catch (error) {
    console.error(`webhook: cannot load scripts/rebuild.ts: ${messageOf(error)}`);
    process.exit(1);
  }

  const hook = await createWebhookServer({ secret, rebuild, host, port, debounceMs });
  console.log(`webhook: listening on ${hook.url}${CONTENT_PATH} (status: ${hook.url}${STATUS_PATH}, debounce ${debounceMs} ms)`);
  let stopping = false;
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      if (stopping) {
        console.error(`webhook: ${signal} again, exiting without waiting for the rebuild`);
        process.exit(1);
      }
      stopping = true;
      console.log(`webhook: ${signal}, shutting down`);
      hook.close().then(
        () => process.exit(0),
        (error: unknown) => {
          console.error(`webhook: shutdown failed: ${messageOf(error)}`);
          process.exit(1);
        },
      );
    });
  }
}
