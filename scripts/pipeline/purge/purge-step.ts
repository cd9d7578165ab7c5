/**
 * The last step of a publish: tell the edge (a CDN, or deploy/varnish.vcl) to drop its copies of every
 * page and file the release changed or removed, so citizens get the new content within seconds rather
 * than when the edge's copy runs out (five minutes for pages, a day for other files: ./cache-rules.ts).
 *
 * Two ways, set by the operator (README "Behind the edge"):
 * - PURGE_URL: an HTTP `PURGE <path>` to that address for each path (Varnish, Fastly, nginx's cache_purge),
 *   carrying the edge's purge key from the file PURGE_KEY_FILE as `X-Purge-Key` (deploy/varnish.vcl refuses
 *   a purge without it: behind a TLS proxy every visitor comes from the edge's own address);
 * - PURGE_COMMAND: a shell command that gets the paths on its standard input, one per line, and exits 0
 *   when they are purged (a CDN with an API of its own: a few lines of curl).
 *
 * A purge that fails is tried again (three times in a run), and what is still owed is kept in
 * RELEASES_DIR/purge-pending.json: the next rebuild, or the next rollback, sends it first, even when it has
 * nothing to publish. An operator sees it in the rebuild's exit code and message, in the report, and in
 * the webhook's status. Added paths need no purge: the edge never keeps an error (no-store), so it has no
 * copy of a path that did not exist.
 */
import { spawn } from 'node:child_process';
import { Agent, request } from 'node:http';
import { request as requestTls } from 'node:https';
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { BASE_PATH } from '../../../src/lib/base-path.ts';
import { fetchSameOrigin } from '../../../src/lib/fetch-same-origin.ts';
import { mapLimit } from '../../lib/files.ts';
import { replaceFile } from '../../lib/replace-file.ts';
import { SITE_TABLES } from '../../serving/server-config.ts';

export interface PurgeSettings {
  /** Base URL of an edge that takes `PURGE <path>` (PURGE_URL). */
  url?: string;
  /** The file holding the edge's purge key (PURGE_KEY_FILE), sent with each PURGE. */
  keyFile?: string;
  /** Shell command that reads the paths on stdin (PURGE_COMMAND). */
  command?: string;
}

export interface PurgeReport {
  /** How the edge was told: not at all when neither setting is given. */
  via: 'url' | 'command' | 'none';
  /** Paths purged in this run (with any owed by an earlier run). */
  paths: number;
  ms: number;
  attempts: number;
  /** What failed, when the edge still holds old copies of some paths (they are in purge-pending.json). */
  error?: string;
}

/** What an earlier run could not purge: RELEASES_DIR/purge-pending.json. */
export interface PendingPurge {
  paths: string[];
  since: string;
  attempts: number;
  lastError: string | null;
}

export const PENDING_FILE = 'purge-pending.json';
const ATTEMPTS = 3;
const RETRY_MS = [1_000, 4_000];
const CONCURRENCY = 8;
const REQUEST_TIMEOUT_MS = 10_000;

/** The key in PURGE_KEY_FILE without its line break; a file that cannot be read throws, naming it. */
async function readPurgeKey(file: string | undefined): Promise<string | undefined> {
  if (!file) return undefined;
  try {
    return (await readFile(file, 'utf8')).trim() || undefined;
  } catch (error) {
    throw new Error(`PURGE_KEY_FILE ${file} cannot be read (${messageOf(error)})`, { cause: error });
  }
}

function purgeSettingsFromEnv(env: NodeJS.ProcessEnv = process.env): PurgeSettings {
  const url = env.PURGE_URL?.trim();
  const command = env.PURGE_COMMAND?.trim();
  const keyFile = env.PURGE_KEY_FILE?.trim();
  return { ...(url ? { url: url.replace(/\/+$/, '') } : {}), ...(keyFile ? { keyFile } : {}), ...(command ? { command } : {}) };
}

/**
 * The URL paths a citizen reaches a file of the release by (the report names them `/ru/news/5/index.html`
 * or without the first slash): `ru/news/5/index.html` (and its .br and .gz)
 * is `/ru/news/5` and `/ru/news/5/`; `404.html` is `/404.html` and `/404`; the home page is `/`. An edge
 * that keys them as one (deploy/varnish.vcl) finds nothing to drop for the second; a CDN that keys each
 * URL apart needs both. Hashed assets under /_astro/ are never purged: their names change instead. Under a
 * base path every address is under it (`/chust/ru/news/5`), and the home page is `/chust/` and `/chust`.
 */
export function purgePaths(files: readonly string[], basePath: string = BASE_PATH): string[] {
  const paths = new Set<string>();
  for (const raw of files) {
    const file = raw.replace(/^\/+/, '').replace(/\.(br|gz)$/, '');
    if (file.startsWith('_astro/')) continue;
    if (file === 'index.html') paths.add('/');
    else if (file.endsWith('/index.html')) {
      const page = `/${file.slice(0, -'/index.html'.length)}`;
      paths.add(page).add(`${page}/`);
    } else if (file.endsWith('.html')) paths.add(`/${file}`).add(`/${file.slice(0, -'.html'.length)}`);
    else paths.add(`/${file}`);
  }
  if (!basePath) return [...paths].sort();
  const under = [...paths].map((p) => basePath + p);
  if (paths.has('/')) under.push(basePath);
  return under.sort();
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * What an earlier run owes the edge, or null when nothing is owed. A file that cannot be read throws, naming
 * it: everything the edge holds may then be old, which the rebuild and the webhook's status must both say.
 */
export async function readPendingPurge(dir: string): Promise<PendingPurge | null> {
  const file = join(dir, PENDING_FILE);
  try {
    const parsed = JSON.parse(await readFile(file, 'utf8')) as Partial<PendingPurge> | null;
    if (typeof parsed !== 'object' || parsed === null || !Array.isArray(parsed.paths)) throw new Error('no list of paths');
    return {
      paths: parsed.paths.filter((p) => typeof p === 'string'),
      since: typeof parsed.since === 'string' ? parsed.since : '',
      attempts: Number.isSafeInteger(parsed.attempts) ? parsed.attempts! : 0,
      lastError: typeof parsed.lastError === 'string' ? parsed.lastError : null,
    };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    // (a BAN of '/' is not portable across CDNs; the caller's own list is still sent, and the operator is told)
    throw new Error(`${file} cannot be read (${messageOf(error)}); remove it after purging the whole edge by hand`, { cause: error });
  }
}

/** Sends `PURGE <path>` for each path to `base`, with `key`; throws with the first path that was refused. */
async function purgeByUrl(base: string, key: string | undefined, paths: readonly string[]): Promise<void> {
  const target = new URL(base);
  const send = target.protocol === 'https:' ? requestTls : request;
  const agent = target.protocol === 'https:' ? undefined : new Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  const prefix = target.pathname.replace(/\/+$/, '');
  try {
    await mapLimit(
      paths,
      CONCURRENCY,
      (path) =>
        new Promise<void>((ok, fail) => {
          const req = send(
            {
              protocol: target.protocol,
              hostname: target.hostname,
              port: target.port,
              method: 'PURGE',
              path: `${prefix}${path}`,
              headers: key ? { 'x-purge-key': key } : {},
              agent,
              timeout: REQUEST_TIMEOUT_MS,
            },
            (res) => {
              res.resume();
              // 404: the edge had no copy of it (some CDNs say so), which is what a purge wants.
              const status = res.statusCode ?? 0;
              if ((status >= 200 && status < 300) || status === 404) ok();
              else if (status === 403)
                fail(new Error(`the edge refused PURGE ${path} (403): ${key ? "is PURGE_KEY_FILE the edge's key" : 'PURGE_KEY_FILE is not set; the edge wants its key'}?`));
              else fail(new Error(`the edge answered ${status} to PURGE ${path}`));
            },
          );
          req.on('timeout', () => req.destroy(new Error(`no answer to PURGE ${path} within ${REQUEST_TIMEOUT_MS / 1000} s`)));
          req.on('error', (error) => fail(new Error(`PURGE ${path} to ${target.origin}: ${messageOf(error)}`)));
          req.end();
        }),
    );
  } finally {
    agent?.destroy();
  }
}

/** Runs the operator's command with the paths on stdin; throws with its exit status and last words. */
function purgeByCommand(command: string, paths: readonly string[]): Promise<void> {
  return new Promise((ok, fail) => {
    const child = spawn('/bin/sh', ['-c', command], { stdio: ['pipe', 'inherit', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      process.stderr.write(chunk);
      stderr = (stderr + chunk.toString()).slice(-500);
    });
    child.on('error', (error) => fail(new Error(`PURGE_COMMAND could not run: ${error.message}`)));
    child.on('exit', (code, signal) => {
      if (code === 0) ok();
      else fail(new Error(`PURGE_COMMAND ${signal ? `ended by ${signal}` : `exited with ${code}`}${stderr.trim() ? `: ${stderr.trim().split('\n').at(-1)}` : ''}`));
    });
    // A command that does not read its input must not make this fail with EPIPE: its exit status says it all.
    child.stdin.on('error', () => undefined);
    child.stdin.end(paths.map((p) => `${p}\n`).join(''));
  });
}

/**
 * Fetches each language's error page through the edge after a purge by URL, so the edge holds it (and, past
 * its time, keeps it within grace) and can show it, in the visitor's language, for a page it has no copy of
 * while the origin is down (deploy/varnish.vcl). A failure here costs nothing but that.
 */
async function keepErrorPages(base: string): Promise<void> {
  await Promise.all(
    SITE_TABLES.prefixes.flatMap((prefix) =>
      ['br', 'gzip'].map((coding) =>
        fetchSameOrigin(`${base}${BASE_PATH}${prefix ? `/${prefix}` : ''}/500`, { headers: { 'accept-encoding': coding }, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) })
          .then((res) => res.arrayBuffer())
          .catch(() => undefined),
      ),
    ),
  );
}

const pause = (ms: number) => new Promise((ok) => setTimeout(ok, ms));

/**
 * Purges the edge of `files` (paths of the release: changed and removed) and of whatever an earlier run
 * owes. Never throws for the edge's sake: a failure is in the report's `error`, and the paths stay owed.
 */
export async function purgeEdge(
  dir: string,
  files: readonly string[],
  settings: PurgeSettings = purgeSettingsFromEnv(),
  log: (line: string) => void = (line) => console.log(line),
): Promise<PurgeReport> {
  const began = performance.now();
  const via = settings.url ? 'url' : settings.command ? 'command' : 'none';
  if (via === 'none') {
    await rm(join(dir, PENDING_FILE), { force: true });
    return { via, paths: 0, ms: 0, attempts: 0 };
  }
  let owed: PendingPurge | null = null;
  let unreadable: string | undefined;
  try {
    owed = await readPendingPurge(dir);
  } catch (error) {
    unreadable = messageOf(error);
  }
  const paths = [...new Set([...(owed?.paths ?? []), ...purgePaths(files)])].sort();
  if (!paths.length && !unreadable) return { via, paths: 0, ms: 0, attempts: 0 };
  if (owed?.paths.length) log(`purge: ${owed.paths.length} paths owed since ${owed.since} go first`);

  let attempts = 0;
  let error: string | undefined;
  for (; attempts < ATTEMPTS; attempts++) {
    if (attempts > 0) await pause(RETRY_MS[attempts - 1] ?? RETRY_MS.at(-1)!);
    try {
      if (settings.url) await purgeByUrl(settings.url, await readPurgeKey(settings.keyFile), paths);
      else await purgeByCommand(settings.command!, paths);
      error = undefined;
      attempts++;
      break;
    } catch (failure) {
      error = messageOf(failure);
      log(`purge: attempt ${attempts + 1} of ${ATTEMPTS} failed: ${error}`);
    }
  }
  const ms = Math.round(performance.now() - began);
  if (error === undefined) {
    await rm(join(dir, PENDING_FILE), { force: true });
    if (unreadable) return { via, paths: paths.length, ms, attempts, error: unreadable };
    if (settings.url) await keepErrorPages(settings.url);
    log(`purge: the edge dropped its copies of ${paths.length} paths in ${ms} ms`);
    return { via, paths: paths.length, ms, attempts };
  }
  const pending: PendingPurge = { paths, since: owed?.since || new Date().toISOString(), attempts: (owed?.attempts ?? 0) + attempts, lastError: error };
  // It names the edge's address and its last error: the service's user and group may read it, nobody else.
  await replaceFile(join(dir, PENDING_FILE), JSON.stringify(pending), { durable: true, mode: 0o640 });
  return { via, paths: paths.length, ms, attempts, error };
}
