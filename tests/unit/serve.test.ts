/**
 * `npm start` / `npm run preview` (scripts/serve.ts) under hostile or unlucky requests: a path that
 * climbs out of the site, a refused coding, files vanishing and downloads aborted, slow clients,
 * and the old `?pageNumber=N` list links, which are the lists themselves.
 */
import { mkdirSync, mkdtempSync, readdirSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SECURITY_HEADERS } from '../../scripts/serving/server-config.ts';
import { acceptedEncodings, serveDist } from '../../scripts/serving/static-server.ts';

let folder: string;
let root: string;
let site: { url: string; server: Server };
const PAGE = `<!doctype html><html lang="uz"><title>x</title>${'<p>Yangiliklar</p>'.repeat(200)}</html>`;

beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'serve-test-'));
  root = join(folder, 'dist');
  mkdirSync(join(root, 'news'), { recursive: true });
  mkdirSync(join(folder, 'dist-secret'));
  writeFileSync(join(folder, 'dist-secret', 'secret.txt'), 'TOP SECRET');
  writeFileSync(join(root, '404.html'), '<!doctype html><title>404</title>');
  writeFileSync(join(root, 'index.html'), PAGE);
  writeFileSync(join(root, 'index.html.br'), brotliCompressSync(PAGE));
  writeFileSync(join(root, 'index.html.gz'), gzipSync(PAGE));
  writeFileSync(join(root, 'news', 'index.html'), PAGE);
  writeFileSync(join(root, 'big.bin'), Buffer.alloc(8 * 1024 * 1024, 7));
  site = await serveDist({ root, port: 0 });
});
afterAll(async () => {
  site.server.closeAllConnections();
  await new Promise((r) => site.server.close(r));
  rmSync(folder, { recursive: true, force: true });
});

function raw(bytes: string, waitMs: number): Promise<{ text: string; ms: number }> {
  const { hostname, port } = new URL(site.url);
  const began = Date.now();
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.write(bytes));
    let text = '';
    const timer = setTimeout(() => (socket.destroy(), resolve({ text, ms: Date.now() - began })), waitMs);
    socket.on('data', (d) => (text += d.toString('latin1')));
    socket.on('close', () => (clearTimeout(timer), resolve({ text, ms: Date.now() - began })));
    socket.on('error', reject);
  });
}

describe('serve.ts', () => {
  it("sends the site's security headers on its pages, and nosniff on every file (no HSTS over plain HTTP)", async () => {
    const own = join(folder, 'with-policy');
    mkdirSync(own);
    writeFileSync(join(own, 'index.html'), PAGE);
    writeFileSync(join(own, 'robots.txt'), 'User-agent: *');
    writeFileSync(join(own, 'content-security-policy.txt'), "default-src 'self'\n");
    const served = await serveDist({ root: own, port: 0 });
    try {
      const page = await fetch(`${served.url}/`);
      expect(page.headers.get('content-security-policy')).toBe("default-src 'self'");
      for (const { name, value, httpsOnly } of SECURITY_HEADERS) expect(page.headers.get(name), name).toBe(httpsOnly ? null : value);
      const text = await fetch(`${served.url}/robots.txt`);
      expect(text.headers.get('x-content-type-options')).toBe('nosniff');
      expect(text.headers.get('x-frame-options')).toBeNull();
    } finally {
      served.server.closeAllConnections();
      await new Promise((r) => served.server.close(r));
    }
  });

  it('never serves a sibling folder through an encoded ../', async () => {
    for (const path of ['/..%2fdist-secret/secret.txt', '/..%2f..%2f' + folder.slice(1).replaceAll('/', '%2f') + '%2fdist-secret%2fsecret.txt', '/%2e%2e/dist-secret/secret.txt']) {
      const res = await fetch(`${site.url}${path}`);
      expect(await res.text(), path).not.toContain('TOP SECRET');
      expect(res.status, path).toBe(404);
    }
  });

  it('gzips a page that has no .gz as it sends it, to a client without brotli', async () => {
    // news/index.html has no siblings: like most pages, which have a .br only (precompress.ts).
    const res = await fetch(`${site.url}/news`, { headers: { 'accept-encoding': 'gzip' } });
    expect(res.headers.get('content-encoding')).toBe('gzip');
    expect(res.headers.get('etag')).toMatch(/^W\//);
    // fetch undoes the coding: the page arrives whole.
    expect(await res.text()).toBe(PAGE);
    const etag = res.headers.get('etag')!;
    expect((await fetch(`${site.url}/news`, { headers: { 'accept-encoding': 'gzip', 'if-none-match': etag } })).status).toBe(304);
    const plain = await fetch(`${site.url}/news`, { headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(plain.headers.get('content-length')).toBe(String(Buffer.byteLength(PAGE)));
    // Only pages: another file without a sibling is sent as it is.
    const other = await fetch(`${site.url}/big.bin`, { headers: { 'accept-encoding': 'gzip' } });
    expect(other.headers.get('content-encoding')).toBeNull();
    await other.body?.cancel();
  });

  it('honours q=0 in Accept-Encoding', async () => {
    const get = async (encoding: string) => (await fetch(`${site.url}/`, { headers: { 'accept-encoding': encoding } })).headers.get('content-encoding');
    expect(await get('br, gzip')).toBe('br');
    expect(await get('br;q=0, gzip')).toBe('gzip');
    expect(await get('br;q=0, gzip;q=0')).toBeNull();
    expect(await get('*;q=0')).toBeNull();
    expect(await get('identity')).toBeNull();
    expect(acceptedEncodings('gzip;q=0.5, *')('br')).toBe(true);
    expect(acceptedEncodings('BR;Q=0')('br')).toBe(false);
  });

  it('does not leak a file handle for each aborted download', async () => {
    const open = () =>
      readdirSync('/proc/self/fd').filter((fd) => {
        try {
          return readlinkSync(`/proc/self/fd/${fd}`).endsWith('big.bin');
        } catch {
          return false;
        }
      }).length;
    for (let i = 0; i < 10; i++) {
      const controller = new AbortController();
      const res = await fetch(`${site.url}/big.bin`, { signal: controller.signal });
      const reader = res.body!.getReader();
      await reader.read();
      controller.abort();
    }
    await expect.poll(open, { timeout: 5000 }).toBe(0);
    // Clients gone before the first byte was read.
    const { hostname, port } = new URL(site.url);
    for (let i = 0; i < 50; i++) {
      const socket = connect(Number(port), hostname, () => {
        socket.write('GET /big.bin HTTP/1.1\r\nHost: x\r\n\r\n');
        setImmediate(() => socket.destroy());
      });
      socket.on('error', () => undefined);
    }
    // Checked once, not polled: a leaked handle is closed only when garbage collection happens to find it.
    await new Promise((r) => setTimeout(r, 1500));
    expect(open()).toBe(0);
    // And it still serves.
    expect((await fetch(`${site.url}/`)).status).toBe(200);
  });

  it('answers a file removed after it was found with a clean error, and keeps serving', async () => {
    // Many requests racing with the file's removal: whichever step sees it gone, none may crash the server.
    for (let i = 0; i < 30; i++) {
      writeFileSync(join(root, 'gone.txt'), 'x'.repeat(100_000));
      const pending = fetch(`${site.url}/gone.txt`).then(
        (r) => r.status,
        () => 'dropped',
      );
      rmSync(join(root, 'gone.txt'), { force: true });
      expect([200, 404, 500, 'dropped']).toContain(await pending);
    }
    expect((await fetch(`${site.url}/news`)).status).toBe(200);
  });

  it('closes a connection whose headers never finish, within seconds', async () => {
    const { text, ms } = await raw('GET / HTTP/1.1\r\nHost: x\r\n', 25_000);
    expect(ms).toBeLessThan(15_000);
    expect(text === '' || /^HTTP\/1\.1 408 /.test(text)).toBe(true);
  }, 30_000);

  it('serves an old ?pageNumber=N list link as the list itself, whose first page reads the number', async () => {
    for (const path of ['/news?pageNumber=3', '/news?pageNumber=abc']) {
      const res = await fetch(`${site.url}${path}`, { redirect: 'manual' });
      expect(res.status, path).toBe(200);
      expect(await res.text(), path).toBe(await (await fetch(`${site.url}${path.split('?')[0]}`)).text());
    }
  });
});
