/**
 * The webhook's HTTP listener: the content API (or an operator) says that something changed, and the
 * change is recorded in the journal and scheduled for a rebuild.
 *
 *   POST /hooks/content   signed (./signature.ts) for this method and path: `x-hook-timestamp` and
 *                         `x-hub-signature-256`; optional `x-hook-delivery: <id>`. A stale timestamp, or a
 *                         delivery id or signature seen in the replay window (also before a restart), is
 *                         refused; so is one signed before the start when a damaged journal lost that memory.
 *                         Empty body or `{}` = everything changed, otherwise `{type, id?}` or an array of them.
 *                         Answers 202 {queued: true} once the change is in the journal (503 if it cannot be
 *                         written: then nothing is accepted); the rebuild runs in the background.
 *   GET  /hooks/status    unsigned: {state, lastStartedAt, lastFinishedAt, lastSucceeded, pending: <count>, content:
 *                         {deadLinks, unavailableDocuments, itemsWithRemovedElements} of the served release};
 *                         signed the same way for GET and this path (empty body; replays refused too):
 *                         Status (./scheduler.ts), with every pending change, its attempts, last error and
 *                         age, the changes published lately and how long each took, the served release and
 *                         its age, and the edge's purge backlog (./freshness.ts).
 *                         The detail (error messages name internal URLs and paths) is for the operator only.
 *   GET  /hooks/metrics   unsigned, Prometheus text format: the same freshness as numbers only (the release's
 *                         report is parsed once per version of the file, not at each request: ./freshness.ts).
 *
 * Connections are bounded (count, per client address, header and request time, keep-alive idle time) and
 * bodies to 64 KiB.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { contentChange, describeChanges, mergeChanges, type ContentChange, type ContentChanges as Changes } from '../../src/content/changes.ts';
import { readBody, sendJson } from '../lib/http.ts';
import { detailedStatus, metricsText, readFreshness, type ServedRelease } from './freshness.ts';
import { Journal } from './journal.ts';
import { RebuildScheduler, type RebuildFn, type RetryPolicy, type Status } from './scheduler.ts';
import { authFailure, DELIVERY_HEADER, replayKeys, SIGNATURE_HEADER, TIMESTAMP_HEADER } from './signature.ts';

export const CONTENT_PATH = '/hooks/content';
export const STATUS_PATH = '/hooks/status';
export const METRICS_PATH = '/hooks/metrics';
export const DEFAULT_PORT = 8790;
export const DEFAULT_DEBOUNCE_MS = 2000;
/** Connection bounds: a webhook call is one small request, so anything slower or more numerous is not one. */
const MAX_CONNECTIONS = 32;
/**
 * Well below MAX_CONNECTIONS, so that one client holding connections open (slowly sent headers, idle
 * keep-alives) cannot take the slots a signed call needs; a sender makes one call at a time.
 */
export const MAX_CONNECTIONS_PER_CLIENT = 4;
const REFUSAL_LOG_EVERY_MS = 60_000;
const HEADERS_TIMEOUT_MS = 5_000;
const REQUEST_TIMEOUT_MS = 10_000;
const IDLE_TIMEOUT_MS = 5_000;
const MAX_BODY_BYTES = 64 * 1024;

export interface WebhookOptions {
  secret: string;
  rebuild: RebuildFn;
  /** RELEASES_DIR: where the journal lives, and where the served release and the purge backlog are read. */
  journalDir: string;
  host?: string;
  port?: number;
  debounceMs?: number;
  retry?: RetryPolicy;
  log?: (line: string) => void;
}

export interface WebhookServer {
  url: string;
  server: Server;
  /** Stops listening, cancels the next rebuild and aborts the running one; pending changes stay in the journal. */
  close(): Promise<void>;
  status(): Status;
}

/** What anyone may read: whether the site is being rebuilt, whether the last rebuild worked, how much waits. */
interface PublicStatus {
  state: Status['state'];
  lastStartedAt: string | null;
  lastFinishedAt: string | null;
  /** `null` before the first rebuild ends. */
  lastSucceeded: boolean | null;
  pending: number;
  /** What the served release's editors' texts hold that it could not show as written, counted (details in the signed status). */
  content: ServedRelease['content'] | null;
}

interface Hook {
  secret: string;
  dir: string;
  log: (line: string) => void;
  journal: Journal;
  scheduler: RebuildScheduler;
  closing: boolean;
  /** Connections closed by the per-client cap, since the start. */
  refused: number;
}

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
    return mergeChanges(
      null,
      value.map((item, i) => parseChange(item, `item ${i}`)),
    );
  }
  if (typeof value === 'object' && value !== null && Object.keys(value).length === 0) return 'all';
  return [parseChange(value, 'body')];
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

const header = (req: IncomingMessage, name: string) => {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
};

const send = (hook: Hook, res: ServerResponse, code: number, body: unknown, headers: Record<string, string> = {}) =>
  sendJson(res, code, body, { 'cache-control': 'no-store', ...(hook.closing ? { connection: 'close' } : {}), ...headers });

/** Why a signed request to `path` is refused (401), or null. */
function signatureProblem(hook: Hook, req: IncomingMessage, path: string, body: Uint8Array): string | null {
  const timestamp = header(req, TIMESTAMP_HEADER);
  const request = { method: req.method ?? '', path, timestamp, delivery: header(req, DELIVERY_HEADER), body };
  const failure = authFailure(hook.secret, request, header(req, SIGNATURE_HEADER));
  if (failure) return failure;
  if (hook.journal.replay.signedBeforeLoss(timestamp!, Date.now())) {
    return `signed before this listener started, and its journal lost the calls accepted before: sign it again with a fresh ${TIMESTAMP_HEADER}`;
  }
  return null;
}

const keysOf = (req: IncomingMessage) => replayKeys(header(req, SIGNATURE_HEADER)!, header(req, DELIVERY_HEADER));
const REPLAYED = { error: 'this call was already received (a replayed delivery)' };

/**
 * Records an authenticated call: refused when its keys were seen or the listener is closing; otherwise the
 * journal with the change and its keys is written, and only then is the change scheduled. One at a time,
 * so that two copies of one call cannot both pass the replay check.
 */
function accept(hook: Hook, changes: Changes, keys: string[]): Promise<'accepted' | 'replayed' | 'closing' | 'unwritable'> {
  const { journal, scheduler } = hook;
  return journal.exclusive(async () => {
    const now = Date.now();
    if (journal.replay.has(keys, now)) return 'replayed';
    if (hook.closing) return 'closing';
    const entry = journal.entry(changes, now);
    try {
      await journal.write(scheduler.state(entry), keys, now);
    } catch (error) {
      hook.log(`webhook: cannot write the journal ${journal.file}: ${messageOf(error)}; the call was refused with 503`);
      return 'unwritable';
    }
    scheduler.add(entry);
    return 'accepted';
  });
}

async function handleContent(hook: Hook, req: IncomingMessage, res: ServerResponse) {
  const read = await readBody(req, MAX_BODY_BYTES);
  if (!read.ok) {
    if (read.reason === 'aborted') return void res.destroy();
    // Answer, then drop the connection rather than reading (or buffering) the rest of the body.
    res.once('finish', () => req.socket.destroySoon());
    return send(hook, res, 413, { error: `body larger than ${MAX_BODY_BYTES} bytes` }, { connection: 'close' });
  }
  // Signature first, so an unsigned caller learns nothing about the body's format.
  const failure = signatureProblem(hook, req, CONTENT_PATH, read.body);
  if (failure) return send(hook, res, 401, { error: failure });
  let changes: Changes;
  try {
    changes = parseChanges(read.body.toString('utf8'));
  } catch (error) {
    if (error instanceof BadRequest) return send(hook, res, 400, { error: error.message });
    throw error;
  }
  const outcome = await accept(hook, changes, keysOf(req));
  if (outcome === 'replayed') return send(hook, res, 409, REPLAYED);
  if (outcome === 'closing') return send(hook, res, 503, { error: 'shutting down' });
  if (outcome === 'unwritable') return send(hook, res, 503, { error: 'the call could not be recorded; nothing was accepted, send it again' });
  send(hook, res, 202, { queued: true });
}

async function handleStatus(hook: Hook, req: IncomingMessage, res: ServerResponse) {
  if (req.method !== 'GET' && req.method !== 'HEAD') return send(hook, res, 405, { error: 'method not allowed' }, { allow: 'GET, HEAD' });
  if (req.method === 'HEAD') return void res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' }).end();
  const full = hook.scheduler.status();
  if (header(req, SIGNATURE_HEADER) !== undefined) {
    const failure = signatureProblem(hook, req, STATUS_PATH, Buffer.alloc(0));
    if (failure) return send(hook, res, 401, { error: failure });
    // A captured status request must not give the detail again, to anyone.
    if (!hook.journal.admit(keysOf(req), () => hook.scheduler.state(), hook.log)) return send(hook, res, 409, REPLAYED);
    return send(hook, res, 200, detailedStatus(full, await readFreshness(hook.dir)));
  }
  const bare: PublicStatus = {
    state: full.state,
    lastStartedAt: full.lastStartedAt,
    lastFinishedAt: full.lastFinishedAt,
    lastSucceeded: full.lastFinishedAt === null ? null : full.lastError === null,
    pending: full.pending.length,
    content: (await readFreshness(hook.dir)).release?.content ?? null,
  };
  send(hook, res, 200, bare);
}

async function handleMetrics(hook: Hook, req: IncomingMessage, res: ServerResponse) {
  if (req.method !== 'GET' && req.method !== 'HEAD') return send(hook, res, 405, { error: 'method not allowed' }, { allow: 'GET, HEAD' });
  const text = metricsText(hook.scheduler.status(), await readFreshness(hook.dir), { refusedConnections: hook.refused });
  res.writeHead(200, {
    'content-type': 'text/plain; version=0.0.4; charset=utf-8',
    'content-length': String(Buffer.byteLength(text)),
    'cache-control': 'no-store',
    ...(hook.closing ? { connection: 'close' } : {}),
  });
  res.end(req.method === 'HEAD' ? undefined : text);
}

function onRequest(hook: Hook, req: IncomingMessage, res: ServerResponse) {
  const began = Date.now();
  let path: string;
  try {
    path = new URL(req.url ?? '/', 'http://webhook.invalid').pathname;
  } catch {
    // `GET // HTTP/1.1` and the like: not a URL at all.
    res.once('close', () => hook.log(`webhook: ${req.method} (malformed target) ${res.statusCode}`));
    return send(hook, res, 400, { error: 'malformed request target' });
  }
  res.once('close', () => {
    const outcome = res.writableFinished ? String(res.statusCode) : 'aborted';
    hook.log(`webhook: ${req.method} ${path} ${outcome} (${Date.now() - began} ms)`);
  });
  const handle = async () => {
    if (path === CONTENT_PATH) {
      if (req.method !== 'POST') return send(hook, res, 405, { error: 'method not allowed' }, { allow: 'POST' });
      return handleContent(hook, req, res);
    }
    if (path === STATUS_PATH) return handleStatus(hook, req, res);
    if (path === METRICS_PATH) return handleMetrics(hook, req, res);
    send(hook, res, 404, { error: 'not found' });
  };
  handle().catch((error: unknown) => {
    hook.log(`webhook: internal error on ${req.method} ${path}: ${messageOf(error)}`);
    if (!res.headersSent) send(hook, res, 500, { error: 'internal error' });
    else res.destroy();
  });
}

/**
 * Whose share of the connection slots a connection takes: an IPv4 address, or the /64 of an IPv6 one
 * (one host is usually given a whole /64, so counting single addresses would not hold it back).
 */
export function clientKey(address: string | undefined): string {
  if (!address) return 'unknown';
  const v4 = /^(?:::ffff:)?(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(address);
  if (v4) return v4[1]!;
  const [head = '', tail] = address.replace(/%.*$/, '').toLowerCase().split('::', 2);
  const groups = (part: string | undefined) => (part ? part.split(':').flatMap((g) => (g.includes('.') ? ['0', '0'] : [g])) : []);
  const left = groups(head);
  const right = groups(tail);
  const full = tail === undefined ? left : [...left, ...Array<string>(Math.max(0, 8 - left.length - right.length)).fill('0'), ...right];
  return `${full
    .slice(0, 4)
    .map((g) => parseInt(g, 16).toString(16))
    .join(':')}::/64`;
}

/**
 * Closes at once a connection from a client that already holds `cap` (the global cap, server.maxConnections,
 * only stops new ones). A refusal is logged at most once a minute, so that a flood cannot fill the log.
 */
function capPerClient(server: Server, hook: Hook, cap: number): void {
  const open = new Map<string, number>();
  let lastLogged = 0;
  let unlogged = 0;
  server.on('connection', (socket: Socket) => {
    const key = clientKey(socket.remoteAddress);
    const held = open.get(key) ?? 0;
    if (held >= cap) {
      hook.refused++;
      unlogged++;
      if (Date.now() - lastLogged >= REFUSAL_LOG_EVERY_MS) {
        hook.log(`webhook: closed ${unlogged} connection(s) from ${key}, which already held ${held} (the most one client may)`);
        lastLogged = Date.now();
        unlogged = 0;
      }
      return void socket.destroy();
    }
    open.set(key, held + 1);
    socket.once('close', () => {
      const left = open.get(key)! - 1;
      if (left) open.set(key, left);
      else open.delete(key);
    });
  });
}

/** Listens on `port` and `host`; resolves with the listener's URL. */
async function listen(server: Server, port: number, host: string): Promise<string> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  return `http://${address.family === 'IPv6' ? `[${address.address}]` : address.address}:${address.port}`;
}

function closer(hook: Hook, server: Server): () => Promise<void> {
  let closing: Promise<void> | null = null;
  return () =>
    (closing ??= (async () => {
      hook.closing = true;
      const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      await hook.scheduler.close();
      // The last writes: the aborted rebuild's attempt, a call accepted just before the close.
      await hook.journal.idle();
      // Anything still connected now is a request that never finished sending.
      server.closeAllConnections();
      await stopped;
      hook.log('webhook: closed');
    })());
}

export async function createWebhookServer(options: WebhookOptions): Promise<WebhookServer> {
  const { secret, journalDir } = options;
  if (typeof secret !== 'string' || secret === '') throw new TypeError('createWebhookServer: a non-empty secret is required');
  if (typeof journalDir !== 'string' || journalDir === '') throw new TypeError('createWebhookServer: a journal folder is required');
  const log = options.log ?? ((line: string) => console.log(line));
  const journal = await Journal.open(journalDir, log);
  const scheduler = new RebuildScheduler({
    rebuild: options.rebuild,
    debounceMs: options.debounceMs ?? DEFAULT_DEBOUNCE_MS,
    retry: options.retry,
    log,
    onSettled: () => void journal.save(() => scheduler.state(), log),
    published: journal.published,
  });
  const hook: Hook = { secret, dir: journalDir, log, journal, scheduler, closing: false, refused: 0 };
  const server = createServer(
    {
      headersTimeout: HEADERS_TIMEOUT_MS,
      requestTimeout: REQUEST_TIMEOUT_MS,
      keepAliveTimeout: IDLE_TIMEOUT_MS,
      // Node checks the two timeouts above only this often (30 s by default).
      connectionsCheckingInterval: 1_000,
    },
    (req, res) => onRequest(hook, req, res),
  );
  server.maxConnections = MAX_CONNECTIONS;
  capPerClient(server, hook, MAX_CONNECTIONS_PER_CLIENT);
  // A connection that sends nothing at all (not even headers) is closed too.
  server.timeout = REQUEST_TIMEOUT_MS;
  const url = await listen(server, options.port ?? DEFAULT_PORT, options.host ?? '127.0.0.1');
  const { loaded } = journal;
  if (loaded.length) {
    const all = loaded.reduce<Changes | null>((sum, e) => mergeChanges(sum, e.changes), null)!;
    log(`webhook: replaying ${loaded.length} pending change(s) from ${journal.file} (${describeChanges(all)})`);
  }
  scheduler.replay(loaded);
  return { url, server, close: closer(hook, server), status: () => scheduler.status() };
}
