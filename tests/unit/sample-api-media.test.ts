/**
 * The sample API behaving like the administration's real one: a distinct photograph per item
 * (`photos: 'distinct'`), the caching headers of its media endpoint (`mediaHeaders`), a picture
 * replaced at the same URL, and latency (scripts/sample-api/media.ts).
 */
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterEach, describe, expect, it } from 'vitest';
import {
  latencyFromEnv,
  MEDIA_HEADER_MODES,
  mediaHeadersFromEnv,
  mediaStats,
  ORIGINAL_MODIFIED,
  photosFromEnv,
  type MediaHeaderMode,
  type PhotoMode,
} from '../../scripts/sample-api/media.ts';
import { drawnPicture, renderPicture, type PictureKind } from '../../scripts/sample-api/images.ts';
import { startSampleApi, type SampleApi } from '../../scripts/sample-api/server.ts';

/** One data folder for the whole file. */
const DATA = '.cache/test-api/sample-api-media';
const CACHE = join(DATA, 'media-cache');
const running: SampleApi[] = [];

async function start(options: { photos?: PhotoMode; mediaHeaders?: MediaHeaderMode; latencyMs?: number; scale?: number; reset?: boolean } = {}) {
  const api = await startSampleApi({
    host: '127.0.0.1',
    port: 0,
    dataDir: DATA,
    reset: options.reset ?? true,
    scale: options.scale ?? 0,
    faults: [],
    photos: options.photos ?? 'distinct',
    mediaHeaders: options.mediaHeaders ?? 'max-age',
    latencyMs: options.latencyMs ?? 0,
    log: () => {},
  });
  running.push(api);
  return api;
}

afterEach(async () => {
  await Promise.all(running.splice(0).map((api) => api.close()));
});

interface Item {
  id: number;
  imageUrl: string | null;
}
const json = async <T>(api: SampleApi, path: string, lang = 1): Promise<T> =>
  ((await (await fetch(`${api.url}${path}`, { headers: { langType: String(lang) } })).json()) as { data: T }).data;
const news = (api: SampleApi, lang = 1) => json<{ list: Item[] }>(api, '/api/post/1?pageNumber=1', lang).then((d) => d.list);
const bytes = async (api: SampleApi, path: string, headers: Record<string, string> = {}) => {
  const res = await fetch(`${api.url}${path}`, { headers });
  return { res, body: Buffer.from(await res.arrayBuffer()) };
};
/** Some seed picture under /uploads/ (they are served in both modes). */
const SEED_PNG = '/uploads/landscape-news-reading-contest.png';

describe('distinct photos', () => {
  it('gives every post, employee and gallery photo its own URL, the same in every language', async () => {
    const api = await start({ scale: 30 });
    const [uz, ru] = [await news(api, 1), await news(api, 3)];
    const pictured = uz.filter((p) => p.imageUrl);
    expect(pictured.length).toBeGreaterThan(3);
    for (const p of pictured) expect(p.imageUrl).toBe(`/media/post/${p.id}.jpg`);
    expect(ru.map((p) => [p.id, p.imageUrl])).toEqual(uz.map((p) => [p.id, p.imageUrl]));

    // The generated (--scale) posts too: no two items share a picture.
    const posts = api.db.prepare('SELECT count(*) AS n, count(DISTINCT image) AS d FROM posts WHERE lang = 1 AND image IS NOT NULL').get() as { n: number; d: number };
    expect(posts.n).toBeGreaterThan(30);
    expect(posts.d).toBe(posts.n);
    const employees = await json<Item[]>(api, '/api/employee/1');
    expect(employees[0]!.imageUrl).toBe(`/media/employee/${employees[0]!.id}.jpg`);
    const groups = await json<{ id: number; photos: { imageUrl: string }[] }[]>(api, '/api/gallery/photos');
    const urls = groups.flatMap((g) => g.photos.map((p) => p.imageUrl));
    expect(new Set(urls).size).toBe(urls.length);
    expect(urls[0]).toMatch(/^\/media\/gallery\/\d+-1\.jpg$/);

    // A seed starts with no replaced picture (nothing is drawn then either: see the next test); unknown pictures are not found.
    expect(api.db.prepare('SELECT count(*) AS n FROM media_versions').get()).toEqual({ n: 0 });
    expect((await fetch(`${api.url}/media/post/99999.jpg`)).status).toBe(404);
    expect((await fetch(`${api.url}/media/employee/1-2.jpg`)).status).toBe(404);
  });

  it('serves a photographic JPEG per item: about 1600 px wide, 100–300 KB, stable, drawn once', async () => {
    rmSync(CACHE, { recursive: true, force: true });
    let api = await start();
    const [a, b] = (await news(api)).filter((p) => p.imageUrl);
    // The same URL in two languages is one picture; three concurrent first requests share one drawing.
    const drawn = mediaStats.drawn;
    const first = await Promise.all([0, 1, 2].map(() => bytes(api, a!.imageUrl!)));
    expect(mediaStats.drawn).toBe(drawn + 1);
    const other = await bytes(api, b!.imageUrl!);
    expect(mediaStats.drawn).toBe(drawn + 2);
    expect((await bytes(api, a!.imageUrl!)).body.equals(first[0]!.body)).toBe(true);
    expect(mediaStats.drawn).toBe(drawn + 2);
    for (const { res } of first) expect(res.headers.get('content-type')).toBe('image/jpeg');
    expect(first[1]!.body.equals(first[0]!.body)).toBe(true);
    expect(first[2]!.body.equals(first[0]!.body)).toBe(true);
    expect(other.body.equals(first[0]!.body)).toBe(false);

    const jpeg = first[0]!.body;
    expect(jpeg.subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));
    expect(jpeg.length).toBeGreaterThan(100_000);
    expect(jpeg.length).toBeLessThan(300_000);
    expect(await sharp(jpeg).metadata()).toMatchObject({ format: 'jpeg', width: 1600, height: 1066 });
    const portrait = await bytes(api, '/media/employee/1.jpg');
    expect(await sharp(portrait.body).metadata()).toMatchObject({ format: 'jpeg', width: 800, height: 1000 });
    expect(portrait.body.length).toBeGreaterThan(100_000);

    const cached = readdirSync(join(CACHE, 'r1', 'post'));
    expect(cached.sort()).toEqual([`${a!.id}.jpg`, `${b!.id}.jpg`].sort());

    // Drawn again from nothing after a restart: the same bytes.
    await api.close();
    running.splice(0);
    rmSync(CACHE, { recursive: true, force: true });
    api = await start();
    expect((await bytes(api, a!.imageUrl!)).body.equals(jpeg)).toBe(true);
  });

  it('shared (the default) keeps the seed pictures under /uploads/ and has no /media/', async () => {
    const api = await start({ photos: 'shared' });
    const pictured = (await news(api)).filter((p) => p.imageUrl);
    for (const p of pictured) expect(p.imageUrl).toMatch(/^\/uploads\/landscape-[\w-]+\.png$/);
    expect((await fetch(`${api.url}/media/post/${pictured[0]!.id}.jpg`)).status).toBe(404);
  });

  it('a new data folder serves the seed pictures as drawn, without drawing them again', async () => {
    const fresh = (name: string) => {
      rmSync(`${DATA}-${name}`, { recursive: true, force: true });
      return startSampleApi({ host: '127.0.0.1', port: 0, dataDir: `${DATA}-${name}`, reset: true, photos: 'shared', log: () => {} }).then((api) => (running.push(api), api));
    };
    const first = await fresh('first');
    const url = (await news(first)).find((p) => p.imageUrl)!.imageUrl!;
    const [, kind, name] = /^\/uploads\/(landscape|portrait)-([\w-]+)\.png$/.exec(url)!;
    const kept = drawnPicture(name!, kind as PictureKind);
    const drawnAt = statSync(kept).mtimeMs;
    const second = await fresh('second');
    expect((await bytes(second, url)).body.equals(renderPicture(name!, kind as PictureKind).png)).toBe(true);
    expect(statSync(kept).mtimeMs).toBe(drawnAt);
  });
});

describe('media headers', () => {
  const later = new Date(Date.now() + 86_400_000).toUTCString();
  const photo = async (api: SampleApi) => (await news(api)).find((p) => p.imageUrl)!.imageUrl!;

  it.each(MEDIA_HEADER_MODES)('%s, on /uploads/ and /media/ alike', async (mode) => {
    const api = await start({ mediaHeaders: mode });
    for (const path of [SEED_PNG, await photo(api)]) {
      const { res, body } = await bytes(api, path);
      expect(res.status).toBe(200);
      expect(body.length).toBe(Number(res.headers.get('content-length')));
      const etag = res.headers.get('etag');
      const modified = res.headers.get('last-modified');
      expect(res.headers.get('cache-control')).toBe(mode === 'max-age' ? 'public, max-age=86400' : null);
      expect(etag !== null).toBe(mode === 'etag');
      expect(modified !== null).toBe(mode === 'last-modified');

      // Without a validator of its own the server answers every conditional request in full.
      const blind = await fetch(`${api.url}${path}`, { headers: { 'if-none-match': '*', 'if-modified-since': later } });
      if (mode === 'max-age' || mode === 'none') {
        expect(blind.status).toBe(200);
        continue;
      }
      await blind.body?.cancel();
      if (mode === 'etag') {
        expect(etag).toMatch(/^"[\w-]+"$/); // strong
        const hit = await bytes(api, path, { 'if-none-match': etag! });
        expect(hit.res.status).toBe(304);
        expect(hit.body.length).toBe(0);
        expect(hit.res.headers.get('etag')).toBe(etag);
        expect((await bytes(api, path, { 'if-none-match': '"other"' })).res.status).toBe(200);
        expect((await bytes(api, path, { 'if-modified-since': later })).res.status).toBe(200);
      } else {
        expect(Date.parse(modified!)).toBe(ORIGINAL_MODIFIED);
        expect((await bytes(api, path, { 'if-modified-since': modified! })).res.status).toBe(304);
        expect((await bytes(api, path, { 'if-modified-since': later })).res.status).toBe(304);
        const earlier = new Date(Date.parse(modified!) - 1000).toUTCString();
        expect((await bytes(api, path, { 'if-modified-since': earlier })).res.status).toBe(200);
      }
    }
  });

  it('a replaced picture: other bytes at the same URL, a new ETag, a later Last-Modified (kept over a restart)', async () => {
    let api = await start({ mediaHeaders: 'etag' });
    const path = await photo(api);
    const before = await bytes(api, path);
    const oldEtag = before.res.headers.get('etag')!;

    const answer = await fetch(`${api.url}/_sample/replace-media?path=${encodeURIComponent(path)}`, { method: 'POST' });
    expect(answer.status).toBe(200);
    const replaced = (await answer.json()) as { path: string; version: number; etag: string; lastModified: string };
    expect(replaced).toMatchObject({ path, version: 1 });
    expect(replaced.etag).not.toBe(oldEtag);
    expect(Date.parse(replaced.lastModified)).toBeGreaterThan(ORIGINAL_MODIFIED);

    const after = await bytes(api, path);
    expect(after.body.equals(before.body)).toBe(false);
    expect(await sharp(after.body).metadata()).toMatchObject({ format: 'jpeg', width: 1600 });
    expect(after.res.headers.get('etag')).toBe(replaced.etag);
    expect((await bytes(api, path, { 'if-none-match': oldEtag })).res.status).toBe(200);
    expect((await bytes(api, path, { 'if-none-match': replaced.etag })).res.status).toBe(304);

    // At once again (in the same second): still a later Last-Modified. Seed PNGs can be replaced too.
    const again = await api.replaceMedia(`${api.url}${path}`);
    expect(again.version).toBe(2);
    expect(Date.parse(again.lastModified)).toBeGreaterThan(Date.parse(replaced.lastModified));
    const png = await bytes(api, SEED_PNG);
    await api.replaceMedia(SEED_PNG);
    const png2 = await bytes(api, SEED_PNG);
    expect(png2.body.equals(png.body)).toBe(false);
    expect(png2.body.subarray(1, 4).toString()).toBe('PNG');
    expect(png2.res.headers.get('etag')).not.toBe(png.res.headers.get('etag'));
    expect((await fetch(`${api.url}/_sample/replace-media?path=/media/post/99999.jpg`, { method: 'POST' })).status).toBe(404);

    // The replacement outlives a restart (no reseed); Last-Modified tells it too.
    await api.close();
    running.splice(0);
    api = await start({ mediaHeaders: 'last-modified', reset: false });
    const now = await bytes(api, path);
    expect(now.res.headers.get('last-modified')).toBe(again.lastModified);
    expect(Date.parse(now.res.headers.get('last-modified')!)).toBeGreaterThan(ORIGINAL_MODIFIED);
    expect((await bytes(api, path, { 'if-modified-since': new Date(ORIGINAL_MODIFIED).toUTCString() })).res.status).toBe(200);
    // A reseed brings the original back.
    await api.close();
    running.splice(0);
    api = await start({ mediaHeaders: 'etag' });
    const original = await bytes(api, path);
    expect(original.body.equals(before.body)).toBe(true);
    expect(original.res.headers.get('etag')).toBe(oldEtag);
  });
});

describe('latency', () => {
  it('delays every answer, API and media, by at least MS, with a timer', async () => {
    const MS = 300;
    const api = await start({ latencyMs: MS });
    await bytes(api, SEED_PNG); // Not timing a cold file read.
    for (const path of ['/api/home/menus', SEED_PNG]) {
      // A timer of this process (the server's too) fires while the answer waits: the wait blocks nothing.
      let ticked = 0;
      const tick = setInterval(() => ticked++, 20);
      const started = performance.now();
      const res = await fetch(`${api.url}${path}`, { headers: { langType: '1' } });
      const elapsed = performance.now() - started;
      clearInterval(tick);
      await res.arrayBuffer();
      expect(res.status).toBe(200);
      expect(elapsed).toBeGreaterThanOrEqual(MS);
      expect(ticked).toBeGreaterThan(3);
    }
  });
});

describe('options from flags and the environment', () => {
  it('reads SAMPLE_API_PHOTOS, SAMPLE_API_MEDIA_HEADERS and SAMPLE_API_LATENCY_MS', () => {
    expect([photosFromEnv(undefined), photosFromEnv(' '), photosFromEnv('distinct')]).toEqual(['shared', 'shared', 'distinct']);
    expect([mediaHeadersFromEnv(undefined), mediaHeadersFromEnv('last-modified')]).toEqual(['max-age', 'last-modified']);
    expect([latencyFromEnv(undefined), latencyFromEnv('250')]).toEqual([0, 250]);
    expect(() => photosFromEnv('unique')).toThrow(/SAMPLE_API_PHOTOS: "unique" is not one of shared, distinct/);
    expect(() => mediaHeadersFromEnv('etags')).toThrow(/SAMPLE_API_MEDIA_HEADERS/);
    expect(() => latencyFromEnv('-5')).toThrow(/SAMPLE_API_LATENCY_MS/);
    expect(() => latencyFromEnv('1.5')).toThrow(/SAMPLE_API_LATENCY_MS/);
  });

  it('startSampleApi takes the environment when given no option', async () => {
    const saved = process.env.SAMPLE_API_MEDIA_HEADERS;
    process.env.SAMPLE_API_MEDIA_HEADERS = 'etag';
    try {
      const api = await startSampleApi({ dataDir: DATA, reset: true, port: 0, photos: 'shared', log: () => {} });
      running.push(api);
      const { res } = await bytes(api, SEED_PNG);
      expect(res.headers.get('etag')).toMatch(/^"/);
      expect(res.headers.get('cache-control')).toBeNull();
    } finally {
      if (saved === undefined) delete process.env.SAMPLE_API_MEDIA_HEADERS;
      else process.env.SAMPLE_API_MEDIA_HEADERS = saved;
    }
  });

  /** `npm run sample-api -- ARGS` as a child process: its exit code and output, or its URL once it listens. */
  function main(args: string[], env: NodeJS.ProcessEnv = {}) {
    const child = spawn(process.execPath, ['scripts/sample-api/main.ts', '--port', '0', '--data', DATA, '--quiet', ...args], {
      env: { ...process.env, SAMPLE_API_PHOTOS: '', SAMPLE_API_MEDIA_HEADERS: '', SAMPLE_API_LATENCY_MS: '', SAMPLE_API_FAULTS: '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d));
    child.stderr.on('data', (d: Buffer) => (out += d));
    const exited = new Promise<number | null>((ok) => child.on('exit', ok));
    const url = new Promise<string>((ok, fail) => {
      child.stdout.on('data', () => {
        const m = /listening on (\S+)/.exec(out);
        if (m) ok(m[1]!);
      });
      void exited.then((code) => fail(new Error(`exited ${code}: ${out}`)));
    });
    url.catch(() => {});
    return { child, exited, url, output: () => out };
  }

  it('npm run sample-api: --photos, --media-headers and --latency (over the environment); bad values exit 2', async () => {
    const bad = main(['--media-headers', 'etags']);
    expect(await bad.exited).toBe(2);
    expect(bad.output()).toMatch(/--media-headers: "etags" is not one of none, etag, last-modified, max-age/);

    const ok = main(['--photos', 'distinct', '--media-headers', 'last-modified', '--latency', '50'], { SAMPLE_API_MEDIA_HEADERS: 'etag' });
    try {
      const url = await ok.url;
      const started = performance.now();
      const list = (await (await fetch(`${url}/api/post/1?pageNumber=1`)).json()) as { data: { list: Item[] } };
      expect(performance.now() - started).toBeGreaterThanOrEqual(50);
      expect(list.data.list.find((p) => p.imageUrl)!.imageUrl).toMatch(/^\/media\/post\/\d+\.jpg$/);
      const res = await fetch(`${url}${SEED_PNG}`);
      await res.arrayBuffer();
      expect(res.headers.get('last-modified')).toBe(new Date(ORIGINAL_MODIFIED).toUTCString());
      expect(res.headers.get('etag')).toBeNull();
    } finally {
      ok.child.kill('SIGTERM');
      await ok.exited;
    }
    expect(existsSync(DATA)).toBe(true);
  });
});

describe('a port already taken', () => {
  it('startSampleApi fails with the reason and leaves its database closed', async () => {
    const taken = createServer();
    await new Promise<void>((ok) => taken.listen(0, '127.0.0.1', ok));
    try {
      const port = (taken.address() as AddressInfo).port;
      await expect(startSampleApi({ host: '127.0.0.1', port, dataDir: DATA, faults: [], log: () => {} })).rejects.toThrow(/EADDRINUSE/);
      // An open connection keeps SQLite's write-ahead log beside the database; the last one closed removes it.
      expect(existsSync(join(DATA, 'sample.db'))).toBe(true);
      expect(existsSync(join(DATA, 'sample.db-wal'))).toBe(false);
    } finally {
      await new Promise((ok) => taken.close(ok));
    }
  });
});
