/**
 * deploy/varnish.vcl, run for real in front of a small origin, as a passer-by and as the rebuild reach it:
 * behind a TLS proxy on the edge machine every citizen comes from 127.0.0.1, so nothing may depend on the
 * address alone; a purge needs the key; what the edge keeps does not depend on how an address is spelt,
 * so a purge or a takedown reaches every spelling; and a client's headers cannot pose as the edge's own.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { purgeEdge } from '../../scripts/pipeline/purge/purge-step.ts';
import { startVarnish, type Edge } from '../helpers/web-servers.ts';

/** The origin: each path's body says how many times the origin was asked for it (`/news/5 #2`). */
const asked = new Map<string, number>();
const received: string[] = [];
let origin: Server;
let edge: Edge;
const folder = mkdtempSync(join(tmpdir(), 'edge-'));

beforeAll(async () => {
  origin = createServer((req, res) => {
    received.push(req.url!);
    const path = req.url!.split('?')[0]!;
    const n = (asked.get(path) ?? 0) + 1;
    asked.set(path, n);
    res.writeHead(200, { 'content-type': 'text/plain', 'cache-control': 'public, max-age=0, s-maxage=300, stale-if-error=604800' }).end(`${req.url} #${n}`);
  });
  await new Promise<void>((ok) => origin.listen(0, '127.0.0.1', ok));
  edge = await startVarnish(`http://127.0.0.1:${(origin.address() as AddressInfo).port}`);
}, 30_000);
afterAll(async () => {
  await edge?.close();
  await new Promise((ok) => origin.close(ok));
  rmSync(folder, { recursive: true, force: true });
});

const get = (path: string, headers: Record<string, string> = {}) => fetch(`${edge.base}${path}`, { headers });
const send = (method: string, path: string, headers: Record<string, string> = {}) => fetch(`${edge.base}${path}`, { method, headers });

describe('the edge to a passer-by', () => {
  it('refuses a purge without the key, from its own address too: nothing is evicted', async () => {
    expect(await (await get('/about')).text()).toBe('/about #1');
    for (const headers of [{}, { 'x-purge-key': 'guess' }, { 'x-purge-key': '' }] as Record<string, string>[]) {
      expect((await send('PURGE', '/about', headers)).status, JSON.stringify(headers)).toBe(403);
    }
    const after = await get('/about');
    expect(after.headers.get('x-edge')).toBe('hit');
    expect(await after.text()).toBe('/about #1');
  });

  it('answers only GET and HEAD: any other method is refused and never reaches the origin', async () => {
    const before = received.length;
    for (const method of ['POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'BAN']) expect((await send(method, '/about')).status, method).toBe(405);
    expect(received.length).toBe(before);
  });

  it("a client's X-Edge-Error-Page or X-Edge-Origin-Failed does not turn a healthy page into an error", async () => {
    await get('/contacts');
    for (const header of ['x-edge-error-page', 'x-edge-origin-failed', 'x-edge-state']) {
      const page = await get('/contacts', { [header]: '1' });
      expect(page.status, header).toBe(200);
      expect(page.headers.get('x-edge'), header).toBe('hit');
      expect(page.headers.get('retry-after'), header).toBeNull();
    }
  });

  it('keeps one copy of a page however its address is spelt: extra query, doubled slashes, %2F', async () => {
    expect(await (await get('/news/5')).text()).toBe('/news/5 #1');
    for (const spelling of ['/news/5?utm_source=facebook', '/news/5?fbclid=abc&utm_medium=x', '//news//5', '/news%2F5', '/news%2f5?x=1']) {
      const page = await get(spelling);
      expect(await page.text(), spelling).toBe('/news/5 #1');
      expect(page.headers.get('x-edge'), spelling).toBe('hit');
    }
  });

  it('refuses the spellings a browser never sends (an escaped letter, a dot segment) and reads an escaped quote as the quote', async () => {
    /** A request with its path exactly as written: fetch would resolve dot segments first. */
    const raw = (path: string) =>
      new Promise<{ status: number; body: string }>((ok, fail) => {
        const { hostname, port } = new URL(edge.base);
        const req = request({ hostname, port, path }, (res) => {
          let body = '';
          res.on('data', (chunk: Buffer) => (body += chunk.toString()));
          res.on('end', () => ok({ status: res.statusCode ?? 0, body }));
        });
        req.on('error', fail);
        req.end();
      });
    const before = received.length;
    for (const spelling of ['/news/%35', '/n%65ws/5', '/news/5/index.htm%6C', '/ru/x/../news/5', '/ru/./news/5', '/news/%2e%2e/5']) {
      expect((await raw(spelling)).status, spelling).toBe(400);
    }
    expect(received.length).toBe(before);
    expect((await raw("/ochiq_hay'at")).body).toBe("/ochiq_hay'at #1");
    expect((await raw('/ochiq_hay%27at')).body).toBe("/ochiq_hay'at #1");
  });

  it('passes on no query: an old list link is the list itself, whose page reads the number in the browser', async () => {
    await get('/uz-cyrl/official-lectures?utm_source=x&pageNumber=2&fbclid=y');
    expect(received).toContain('/uz-cyrl/official-lectures');
    expect(received.filter((url) => url.includes('?'))).toEqual([]);
  });
});

describe('the edge to the rebuild', () => {
  it('takes a purge with the key (PURGE_KEY_FILE), and it reaches every spelling of the address', async () => {
    await get('/news/7');
    await get('/news/7?utm_source=telegram');
    const report = await purgeEdge(folder, ['news/7/index.html'], { url: edge.base, keyFile: edge.purgeKeyFile }, () => undefined);
    expect(report.error).toBeUndefined();
    for (const spelling of ['/news/7', '/news/7?utm_source=telegram', '//news/7/']) {
      const page = await get(spelling);
      expect(await page.text(), spelling).toBe('/news/7 #2');
    }
  });

  it('a purge with a wrong key fails, says why, and is kept owed', async () => {
    const wrong = join(folder, 'wrong-key');
    writeFileSync(wrong, 'not-the-edge-key-at-all\n');
    const report = await purgeEdge(folder, ['news/8/index.html'], { url: edge.base, keyFile: wrong }, () => undefined);
    expect(report.error).toMatch(/the edge refused PURGE \/news\/8\/? \(403\): is PURGE_KEY_FILE the edge's key\?/);
    const none = await purgeEdge(mkdtempSync(join(folder, 'x-')), ['news/8/index.html'], { url: edge.base }, () => undefined);
    expect(none.error).toMatch(/PURGE_KEY_FILE is not set; the edge wants its key/);
  }, 30_000);
});
