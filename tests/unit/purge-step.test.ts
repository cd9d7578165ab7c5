/**
 * The edge purge after a publish (scripts/pipeline/purge/purge-step.ts): which URL paths a release's files are
 * reached by, a PURGE per path to PURGE_URL or the list to PURGE_COMMAND, and a purge the edge does not
 * take kept owed and sent again by the next run, never dropped.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PENDING_FILE, purgeEdge, purgePaths, type PendingPurge } from '../../scripts/pipeline/purge/purge-step.ts';

let dir: string;
const lines: string[] = [];
const log = (line: string) => void lines.push(line);
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'purge-'));
  lines.length = 0;
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** An edge that records what it is asked and answers `statuses` in turn (then 200). */
async function fakeEdge(statuses: number[] = []): Promise<{ url: string; purged: string[]; fetched: string[]; server: Server }> {
  const purged: string[] = [];
  const fetched: string[] = [];
  const server = createServer((req, res) => {
    if (req.method === 'PURGE') purged.push(req.url!);
    else fetched.push(`${req.method} ${req.url}`);
    res.writeHead(req.method === 'PURGE' ? (statuses.shift() ?? 200) : 200).end();
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, purged, fetched, server };
}
const closeServer = (server: Server) => new Promise((ok) => server.close(ok));
const pending = () => JSON.parse(readFileSync(join(dir, PENDING_FILE), 'utf8')) as PendingPurge;

describe('the paths of a release’s files', () => {
  it('names every URL a citizen reaches a page or file by, once, and never a hashed asset', () => {
    expect(
      purgePaths([
        'index.html',
        'index.html.br',
        'ru/news/5/index.html',
        '/ru/news/5/index.html.br',
        'ru/news/5/index.html.gz',
        '404.html',
        'rss.xml',
        'sw.js',
        '_astro/site.a1b2c3.css',
        '_astro/pictures/abc-400.webp',
      ]),
    ).toEqual(['/', '/404', '/404.html', '/rss.xml', '/ru/news/5', '/ru/news/5/', '/sw.js']);
  });
});

describe('purging by PURGE_URL', () => {
  it('sends one PURGE per path and keeps the error pages at the edge', async () => {
    const edge = await fakeEdge();
    const report = await purgeEdge(dir, ['ru/news/5/index.html', 'ru/news/5/index.html.br', 'about.html'], { url: edge.url }, log);
    await closeServer(edge.server);
    expect(report).toMatchObject({ via: 'url', paths: 4, attempts: 1 });
    expect(report.error).toBeUndefined();
    expect(edge.purged.sort()).toEqual(['/about', '/about.html', '/ru/news/5', '/ru/news/5/']);
    // Each language's error page, in brotli and gzip, so the edge can show it while the origin is down.
    expect(edge.fetched.sort()).toEqual(['GET /500', 'GET /500', 'GET /en/500', 'GET /en/500', 'GET /ru/500', 'GET /ru/500', 'GET /uz-cyrl/500', 'GET /uz-cyrl/500']);
    expect(existsSync(join(dir, PENDING_FILE))).toBe(false);
  });

  it('tries a refused purge again within the run', async () => {
    const edge = await fakeEdge([503, 503]);
    const report = await purgeEdge(dir, ['rss.xml'], { url: edge.url }, log);
    await closeServer(edge.server);
    expect(report.error).toBeUndefined();
    expect(report.attempts).toBe(3);
    expect(edge.purged).toEqual(['/rss.xml', '/rss.xml', '/rss.xml']);
    expect(lines.filter((l) => l.includes('failed'))).toHaveLength(2);
  }, 15_000);

  it('keeps what an unreachable edge did not take, and the next run sends it first with its own', async () => {
    const edge = await fakeEdge();
    await closeServer(edge.server);
    const failed = await purgeEdge(dir, ['ru/news/5/index.html'], { url: edge.url }, log);
    expect(failed.error).toMatch(/PURGE \/ru\/news\/5\/? to http:\/\/127\.0\.0\.1:\d+: .*ECONNREFUSED/);
    expect(pending()).toMatchObject({ paths: ['/ru/news/5', '/ru/news/5/'], attempts: 3 });
    expect(pending().lastError).toBe(failed.error);
    // It names the edge's address and its error: not for every user of the machine.
    expect(statSync(join(dir, PENDING_FILE)).mode & 0o777).toBe(0o640);

    // Still down on the next run: the owed paths stay, with the new run's.
    await purgeEdge(dir, ['rss.xml'], { url: edge.url }, log);
    expect(pending()).toMatchObject({ paths: ['/rss.xml', '/ru/news/5', '/ru/news/5/'], attempts: 6 });

    // Back: a run with nothing of its own to purge (a rebuild that found nothing changed) sends what is owed.
    const back = await fakeEdge();
    const report = await purgeEdge(dir, [], { url: back.url }, log);
    await closeServer(back.server);
    expect(report.error).toBeUndefined();
    expect(back.purged.sort()).toEqual(['/rss.xml', '/ru/news/5', '/ru/news/5/']);
    expect(existsSync(join(dir, PENDING_FILE))).toBe(false);
  }, 30_000);
});

describe('purging by PURGE_COMMAND', () => {
  it('hands the command the paths on its standard input', async () => {
    const out = join(dir, 'paths.txt');
    const report = await purgeEdge(dir, ['en/news/7/index.html', 'favicon.svg'], { command: `cat > '${out}'` }, log);
    expect(report).toMatchObject({ via: 'command', paths: 3, attempts: 1 });
    expect(readFileSync(out, 'utf8')).toBe('/en/news/7\n/en/news/7/\n/favicon.svg\n');
  });

  it('reports a command that fails with its exit status and last line, and keeps the paths owed', async () => {
    const report = await purgeEdge(dir, ['favicon.svg'], { command: 'echo "CDN API: token expired" >&2; exit 3' }, log);
    expect(report.error).toBe('PURGE_COMMAND exited with 3: CDN API: token expired');
    expect(pending().paths).toEqual(['/favicon.svg']);
  }, 15_000);

  it('does nothing without a way to reach the edge', async () => {
    expect(await purgeEdge(dir, ['favicon.svg'], {}, log)).toEqual({ via: 'none', paths: 0, ms: 0, attempts: 0 });
  });
});
