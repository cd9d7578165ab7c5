/**
 * The picture store and drawing (src/content/pictures/): each picture is
 * downloaded once whatever caching headers the media server sends, looked at
 * again only when asked (the nightly run, or an item a webhook named), and
 * each size is drawn once. Against the real sample API in each of its media
 * header modes, and a small hostile server for what a real one may do.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { drawPictures } from '../../scripts/pipeline/downloads/draw-pictures.ts';
import { variantFile, variantId, widthsToDraw } from '../../src/content/pictures/settings.ts';
import { fetchPictures } from '../../scripts/pipeline/downloads/picture-store.ts';
import type { MediaHeaderMode } from '../../scripts/sample-api/media.ts';
import { startTestApi } from '../helpers/sample-api.ts';

const dirs: string[] = [];
const storeDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'pictures-'));
  dirs.push(dir);
  return dir;
};
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));
const quiet = () => {};

describe.each(['none', 'etag', 'last-modified', 'max-age'] as MediaHeaderMode[])('a media server that sends %s', (mode) => {
  it('is asked once per picture; a nightly run looks again, and a picture replaced at the same URL is taken then, not before', async () => {
    const api = await startTestApi(`pictures-${mode}`, { photos: 'distinct', mediaHeaders: mode });
    try {
      const paths = (api.db.prepare("SELECT DISTINCT image FROM posts WHERE image LIKE '/media/post/%' ORDER BY id LIMIT 2").all() as { image: string }[]).map((r) => r.image);
      expect(paths).toHaveLength(2);
      const urls = paths.map((p) => `${api.url}${p}`);
      const dir = storeDir();
      const run = (revalidate: boolean) => fetchPictures({ dir, urls, revalidate: () => revalidate, log: quiet });

      const first = await run(false);
      expect(first.stats).toMatchObject({ requests: 2, downloaded: 2, failed: 0 });
      const [a, b] = urls.map((u) => first.pictures.get(u)!);
      expect(a!.sha).not.toBe(b!.sha);
      expect(a).toMatchObject({ width: 1600, height: 1066 });

      // A webhook run for other items: nothing asked, whatever the headers said about freshness, and the store's index not written again.
      const indexed = statSync(join(dir, 'index.json')).ino;
      expect((await run(false)).stats.requests).toBe(0);
      expect(statSync(join(dir, 'index.json')).ino).toBe(indexed);

      // An original gone from the store (a disk restored in part) is downloaded again, whatever the index says.
      rmSync(join(dir, 'originals', b!.sha));
      expect((await run(false)).stats).toMatchObject({ requests: 1, downloaded: 1 });
      expect(existsSync(join(dir, 'originals', b!.sha))).toBe(true);

      // The nightly run asks again: a 304 where the server gave a validator, the same bytes otherwise.
      const nightly = await run(true);
      expect(nightly.stats).toMatchObject({ requests: 2, downloaded: 0, unchanged: 2, replaced: 0 });

      await api.replaceMedia(paths[0]!);
      expect((await run(false)).pictures.get(urls[0]!)!.sha).toBe(a!.sha);
      const after = await run(true);
      expect(after.stats).toMatchObject({ replaced: 1, unchanged: 1 });
      expect(after.pictures.get(urls[0]!)!.sha).not.toBe(a!.sha);
      expect(after.pictures.get(urls[1]!)!.sha).toBe(b!.sha);
      // The full run keeps only what it showed: the replaced original is gone.
      expect(readdirSync(join(dir, 'originals')).sort()).toEqual([after.pictures.get(urls[0]!)!.sha, b!.sha].sort());
    } finally {
      await api.close();
    }
  }, 60_000);
});

describe('drawing', () => {
  it('draws each width once, ever, never wider than the picture, and says which pictures cannot be drawn', async () => {
    const dir = storeDir();
    const photo = await sharp({ create: { width: 900, height: 600, channels: 3, background: '#3a6' } })
      .jpeg()
      .toBuffer();
    const server = await serve((req, res) => {
      if (req.url === '/a.jpg') return void res.writeHead(200, { 'content-type': 'image/jpeg' }).end(photo);
      res.writeHead(200, { 'content-type': 'image/jpeg' }).end(photo.subarray(0, 400));
    });
    try {
      const { pictures } = await fetchPictures({ dir, urls: [`${server.url}/a.jpg`, `${server.url}/broken.jpg`], revalidate: () => false, log: quiet });
      // A truncated JPEG still has a readable header: it is kept, and drawing it fails.
      const jobs = [...pictures.values()].map((p) => ({ sha: p.sha, id: variantId(p.sha), widths: widthsToDraw(['post'], p.width) }));
      const good = jobs.find((j) => pictures.get(`${server.url}/a.jpg`)!.sha === j.sha)!;
      expect(good.widths).toEqual([400, 800, 900]);
      const warnings: string[] = [];
      const first = await drawPictures(dir, jobs, { log: (l) => warnings.push(l) });
      expect(first.stats.encoded).toBe(3);
      expect(first.failed.size).toBe(jobs.length - 1);
      if (jobs.length > 1) expect(warnings.join('\n')).toMatch(/cannot be drawn and is left out/);
      const file = join(dir, 'drawn', variantFile(good.id, 900));
      expect((await sharp(file).metadata()).width).toBe(900);
      const made = statSync(file).mtimeMs;
      const hashesFile = join(dir, 'drawn', 'hashes.json');
      const hashed = statSync(hashesFile).ino;
      const again = await drawPictures(dir, [good]);
      expect(again.stats).toMatchObject({ encoded: 0, reused: 1 });
      expect(statSync(file).mtimeMs).toBe(made);
      // Nothing drawn: the list of the drawn files' hashes is left as it was, not written again.
      expect(statSync(hashesFile).ino).toBe(hashed);
      expect(again.hashes[variantFile(good.id, 900)]).toBe(first.hashes[variantFile(good.id, 900)]);
      // A drawn file gone from the store (removed by hand) is drawn again, and only it.
      rmSync(file);
      expect((await drawPictures(dir, [good])).stats).toMatchObject({ encoded: 1, reused: 0 });
      expect((await sharp(file).metadata()).width).toBe(900);
    } finally {
      await server.close();
    }
  }, 60_000);
});

describe('a hostile or failing media server', () => {
  it('refuses redirects to other hosts and oversized or non-picture answers, and keeps an earlier copy only while the server fails', async () => {
    const photo = await sharp({ create: { width: 40, height: 30, channels: 3, background: '#a33' } })
      .png()
      .toBuffer();
    let failing: number | null = null;
    const server = await serve((req, res) => {
      if (req.url === '/elsewhere.png') return void res.writeHead(302, { location: 'http://127.0.0.2:9/x.png' }).end();
      if (req.url === '/moved.png') return void res.writeHead(301, { location: '/kept.png' }).end();
      if (req.url === '/huge.png') return void res.writeHead(200, { 'content-length': String(50 * 1024 * 1024) }).end();
      if (req.url === '/page.png') return void res.writeHead(200, { 'content-type': 'text/html' }).end('<html>not found</html>');
      if (failing) return void res.writeHead(failing).end();
      res.writeHead(200, { 'content-type': 'image/png' }).end(photo);
    });
    try {
      const dir = storeDir();
      const warnings: string[] = [];
      const names = ['elsewhere.png', 'moved.png', 'huge.png', 'page.png', 'kept.png'];
      const urls = names.map((n) => `${server.url}/${n}`);
      const run = () => fetchPictures({ dir, urls, revalidate: () => true, log: (l) => warnings.push(l), maxBytes: 1024 * 1024 });
      const first = await run();
      expect([...first.pictures.keys()].sort()).toEqual([`${server.url}/kept.png`, `${server.url}/moved.png`]);
      expect(warnings.join('\n')).toMatch(/elsewhere\.png left out: redirected to another host/);
      expect(warnings.join('\n')).toMatch(/huge\.png left out: .*bytes/);
      expect(warnings.join('\n')).toMatch(/page\.png left out/);

      failing = 503;
      const down = await run();
      expect(down.pictures.has(`${server.url}/kept.png`)).toBe(true);
      expect(warnings.at(-1)).toMatch(/could not be checked \(HTTP 503\); the copy kept earlier stays/);

      failing = 404;
      const gone = await run();
      expect(gone.pictures.has(`${server.url}/kept.png`)).toBe(false);
      expect(existsSync(join(dir, 'originals', first.pictures.get(`${server.url}/kept.png`)!.sha))).toBe(false);
    } finally {
      await server.close();
    }
  }, 60_000);
});

async function serve(handler: Parameters<typeof createServer>[1]): Promise<{ url: string; close: () => Promise<void> }> {
  const server: Server = createServer(handler);
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((ok) => {
        server.closeAllConnections();
        server.close(() => ok());
      }),
  };
}
