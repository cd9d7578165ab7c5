/**
 * The sample API's fault injection, and how the real API client and the real
 * build-time pull behave under each fault.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { ApiError, createApiClient } from '../../src/api/client.ts';
import { pullContent } from '../../scripts/pipeline/pull/pull-content.ts';
import { corruptItems, faultsFromEnv, HUGE_BYTES, parseFaultFlag, ruleMatches, type FaultRule } from '../../scripts/sample-api/faults.ts';
import { startSampleApi, type SampleApi } from '../../scripts/sample-api/server.ts';
import { parseSnapshot, SNAPSHOT_FILE } from '../../src/content/snapshot.ts';

const CONTENT_ROOT = resolve(`.cache/test-faults-${process.pid}`);
afterAll(() => rm(CONTENT_ROOT, { recursive: true, force: true }));

interface Running {
  api: SampleApi;
  /** The server's log: one line per request and one per injected fault. */
  lines: string[];
  closed: boolean;
}
const running: Running[] = [];

async function start(name: string, faults: FaultRule[] = []): Promise<Running> {
  const lines: string[] = [];
  const api = await startSampleApi({
    host: '127.0.0.1',
    port: 0,
    dataDir: `.cache/test-api/faults-${name}`,
    reset: true,
    faults,
    logRequests: true,
    log: (l) => lines.push(l),
  });
  const r = { api, lines, closed: false };
  running.push(r);
  return r;
}

async function close(r: Running): Promise<void> {
  if (r.closed) return;
  r.closed = true;
  await r.api.close();
}

afterEach(async () => {
  await Promise.all(running.splice(0).map(close));
});

/** Waits (briefly) until `ready()` holds. */
async function until(ready: () => boolean, ms = 5_000): Promise<void> {
  const end = performance.now() + ms;
  while (!ready()) {
    if (performance.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 5));
  }
}

const injected = (r: Running, kind: string) => r.lines.filter((l) => l.startsWith(`fault ${kind} injected`)).length;

function client(baseUrl: string, extra: Partial<Parameters<typeof createApiClient>[0]> = {}) {
  const attempts: string[] = [];
  const c = createApiClient({
    baseUrl,
    retries: 2,
    backoffMs: 5,
    timeoutMs: 5_000,
    onRequest: (_method, url) => attempts.push(new URL(url).pathname),
    ...extra,
  });
  return { client: c, attempts };
}

async function pull(apiBase: string, dir: string, retries = 1) {
  const contentDir = join(CONTENT_ROOT, dir);
  await mkdir(contentDir, { recursive: true });
  const log: string[] = [];
  const run = pullContent({ apiBase, mediaBase: apiBase, contentDir, retries, timeoutMs: 10_000, log: (l) => log.push(l) });
  return { run, log, file: join(contentDir, SNAPSHOT_FILE) };
}

const readSnapshot = (file: string) => parseSnapshot(readFileSync(file, 'utf8'), dirname(file));

describe('the --fault flag and SAMPLE_API_FAULTS', () => {
  it('parses KIND:MATCH[:MS][xN]', () => {
    expect(parseFaultFlag('500:/api/gallery/photos')).toEqual({ kind: '500', match: '/api/gallery/photos' });
    expect(parseFaultFlag('slow:/api/home/menus:5000')).toEqual({ kind: 'slow', match: '/api/home/menus', ms: 5000 });
    expect(parseFaultFlag('500:/api/post/1x2')).toEqual({ kind: '500', match: '/api/post/1', times: 2 });
    expect(parseFaultFlag('slow:/api/search:2000x1')).toEqual({ kind: 'slow', match: '/api/search', ms: 2000, times: 1 });
    expect(parseFaultFlag('slow:/api/search')).toEqual({ kind: 'slow', match: '/api/search' });
    expect(parseFaultFlag('drop:/')).toEqual({ kind: 'drop', match: '/' });
    for (const kind of ['malformed-json', 'bad-items', 'huge'] as const) {
      expect(parseFaultFlag(`${kind}:/api/post/4`)).toEqual({ kind, match: '/api/post/4' });
    }
    expect(parseFaultFlag(String.raw`bad-items:/^\/api\/post\/1\?/x3`)).toEqual({
      kind: 'bad-items',
      match: String.raw`/^\/api\/post\/1\?/`,
      times: 3,
    });
  });

  it('rejects malformed flags with a readable message', () => {
    expect(() => parseFaultFlag('boom:/api/search')).toThrow(/KIND:MATCH\[:MS\]\[xN\]/);
    expect(() => parseFaultFlag('500')).toThrow(/KIND:MATCH/);
    expect(() => parseFaultFlag('500:')).toThrow(/match must be a non-empty string/);
    expect(() => parseFaultFlag('500:/api/search:300')).toThrow(/only applies to slow/);
    expect(() => parseFaultFlag('500:/api/searchx0')).toThrow(/times must be a whole number ≥ 1/);
    expect(() => parseFaultFlag('500:/(/')).toThrow(/bad regular expression/);
  });

  it('reads SAMPLE_API_FAULTS as a JSON array of rules', () => {
    expect(faultsFromEnv(undefined)).toEqual([]);
    expect(faultsFromEnv('  ')).toEqual([]);
    expect(faultsFromEnv('[{"match":"/api/gallery/photos","kind":"500","times":2}]')).toEqual([{ match: '/api/gallery/photos', kind: '500', times: 2 }]);
    expect(() => faultsFromEnv('[{"match":"/x"')).toThrow(/SAMPLE_API_FAULTS is not JSON/);
    expect(() => faultsFromEnv('{"match":"/x","kind":"500"}')).toThrow(/expected an array/);
    expect(() => faultsFromEnv('[{"match":"/x","kind":"404"}]')).toThrow(/SAMPLE_API_FAULTS\[0\]: kind must be/);
    expect(() => faultsFromEnv('[{"match":"/x","kind":"slow","ms":-1}]')).toThrow(/ms must be/);
  });

  it('matches a path prefix segment by segment, a prefix with ? as text, and /…/ as a regular expression', () => {
    expect(ruleMatches('/api/post/1', '/api/post/1')).toBe(true);
    expect(ruleMatches('/api/post/1', '/api/post/1?pageNumber=2')).toBe(true);
    expect(ruleMatches('/api/post/1', '/api/post/12')).toBe(false);
    expect(ruleMatches('api/gallery', '/api/gallery/videos')).toBe(true);
    expect(ruleMatches('/', '/api/search?q=x')).toBe(true);
    expect(ruleMatches('/api/post/1?pageNumber', '/api/post/1?pageNumber=1')).toBe(true);
    expect(ruleMatches('/api/post/1?pageNumber', '/api/post/1')).toBe(false);
    expect(ruleMatches(String.raw`/^\/api\/post\/\d+$/`, '/api/post/77')).toBe(true);
    expect(ruleMatches(String.raw`/^\/api\/post\/\d+$/`, '/api/post/1?pageNumber=1')).toBe(false);
  });

  it('corrupts each run of three list items: no title, a string id, a wrong-typed view count', () => {
    const list = () => Array.from({ length: 4 }, (_, i) => ({ id: i, title: `t${i}`, countViews: 1 }));
    const expected = [
      { id: 0, countViews: 1 },
      { id: '1', title: 't1', countViews: 1 },
      { id: 2, title: 't2', countViews: 'many' },
      { id: 3, countViews: 1 },
    ];
    expect(corruptItems({ data: { list: list() } })).toEqual({ data: { list: expected } });
    expect(corruptItems({ data: list() })).toEqual({ data: expected });
    expect(corruptItems(list())).toEqual(expected);
    expect(corruptItems({ data: { id: 5, title: 'detail' } })).toEqual({ data: { id: 5, title: 'detail' } });
  });

  it('takes the rules from SAMPLE_API_FAULTS when startSampleApi is given none', async () => {
    const saved = process.env.SAMPLE_API_FAULTS;
    process.env.SAMPLE_API_FAULTS = '[{"match":"/api/gallery/videos","kind":"500","times":1}]';
    try {
      const lines: string[] = [];
      const api = await startSampleApi({ dataDir: '.cache/test-api/faults-env', reset: true, port: 0, log: (l) => lines.push(l) });
      running.push({ api, lines, closed: false });
      expect((await fetch(`${api.url}/api/gallery/videos`)).status).toBe(500);
      expect((await fetch(`${api.url}/api/gallery/videos`)).status).toBe(200);
      expect(lines).toContain('fault injection on: 500:/api/gallery/videosx1');
      // Request logging is off, so the faults themselves are not logged.
      expect(lines.filter((l) => l.startsWith('fault 500'))).toEqual([]);
    } finally {
      if (saved === undefined) delete process.env.SAMPLE_API_FAULTS;
      else process.env.SAMPLE_API_FAULTS = saved;
    }
  });
});

// Each test seeds sample APIs and runs whole pulls; beside the rebuild tests on 2 busy cores that has taken
// over the default 30 s. Speed is measured by the benchmarks, not here: the limit only catches a hang.
describe('the client and the pull under injected faults', { timeout: 120_000 }, () => {
  it('a lasting 500: retried, then an ApiError naming the endpoint; the pull fails and keeps the old snapshot', async () => {
    const healthy = await start('500-healthy');
    const failing = await start('500', [{ match: '/api/gallery/photos', kind: '500' }]);

    const { client: c, attempts } = client(failing.api.url);
    const error = await c.photoGroups(1).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).message).toBe('api/gallery/photos: server error 500 after 3 attempts');
    expect((error as ApiError).status).toBe(500);
    expect(attempts).toEqual(Array(3).fill('/api/gallery/photos'));
    // Other endpoints are untouched.
    expect((await c.videos(1)).length).toBeGreaterThan(0);

    const good = await pull(healthy.api.url, '500');
    await good.run;
    const before = readFileSync(good.file);

    const bad = await pull(failing.api.url, '500');
    await expect(bad.run).rejects.toThrow(/^api\/gallery\/photos: server error 500 after 2 attempts$/);
    expect(readFileSync(bad.file).equals(before)).toBe(true);
    expect(existsSync(`${bad.file}.tmp`)).toBe(false);
    expect(injected(failing, '500')).toBeGreaterThanOrEqual(3 + 2);
  });

  it('times: a 500 twice, then normal answers; the pull succeeds thanks to the retries', async () => {
    const flaky = await start('times', [{ match: '/api/post/1', kind: '500', times: 2 }]);
    const { run, file } = await pull(flaky.api.url, 'times', 3);
    const summary = await run;
    expect(injected(flaky, '500')).toBe(2);
    expect(summary.warnings).toEqual([]);
    const news = readSnapshot(file).languages['uz-latn'].lists.news.flat();
    expect(news.length).toBeGreaterThan(0);
    // The retried first pages of news are in the log twice: once failing, once answered.
    expect(flaky.lines.filter((l) => / \/api\/post\/1\?pageNumber=1 500 /.test(l))).toHaveLength(2);
  });

  it('drop and malformed JSON: retried, then reported with the endpoint named', async () => {
    const broken = await start('drop-malformed', [
      { match: '/api/gallery/videos', kind: 'drop' },
      { match: '/api/survey/getAll', kind: 'malformed-json' },
    ]);
    const { client: c, attempts } = client(broken.api.url);

    const dropped = await c.videos(2).catch((e: unknown) => e);
    expect(dropped).toBeInstanceOf(ApiError);
    expect((dropped as ApiError).message).toMatch(/^api\/gallery\/videos: fetch failed.* after 3 attempts$/);
    expect(attempts.splice(0)).toEqual(Array(3).fill('/api/gallery/videos'));

    const raw = await fetch(`${broken.api.url}/api/survey/getAll`);
    expect(raw.status).toBe(200);
    expect(raw.headers.get('content-type')).toMatch(/^application\/json/);
    const text = await raw.text();
    expect(text.startsWith('{"data":[')).toBe(true);
    expect(() => JSON.parse(text)).toThrow();

    const malformed = await c.surveys(3).catch((e: unknown) => e);
    expect(malformed).toBeInstanceOf(ApiError);
    expect((malformed as ApiError).message).toMatch(/^api\/survey\/getAll: unreadable JSON \(.+\) after 3 attempts$/);
    expect(attempts).toEqual(Array(3).fill('/api/survey/getAll'));

    const { run, file } = await pull(broken.api.url, 'drop-malformed');
    await expect(run).rejects.toThrow(/^api\/(gallery\/videos: fetch failed|survey\/getAll: unreadable JSON).* after 2 attempts$/);
    expect(existsSync(file)).toBe(false);
    expect(injected(broken, 'drop')).toBeGreaterThanOrEqual(3 + 2);
  });

  it('slow: a short client time-out fails the call instead of hanging, and the server still closes at once', async () => {
    const slow = await start('slow', [{ match: '/api/home/menus', kind: 'slow', ms: 5_000 }]);
    const { client: c, attempts } = client(slow.api.url, { retries: 0, timeoutMs: 200 });
    const t0 = performance.now();
    await expect(c.menus(1)).rejects.toThrow('api/home/menus: no answer within 200 ms after 1 attempts');
    expect(performance.now() - t0).toBeLessThan(2_000);
    expect(attempts).toHaveLength(1);

    // A caller that is still waiting when the server closes does not hold it open.
    const waiting = fetch(`${slow.api.url}/api/home/menus`).then(
      () => 'answered',
      () => 'cut off',
    );
    await until(() => injected(slow, 'slow') === 2);
    const t1 = performance.now();
    await close(slow);
    expect(performance.now() - t1).toBeLessThan(1_000);
    expect(await waiting).toBe('cut off');
  });

  it('slow: a delayed answer never fires after the server has closed', async () => {
    const slow = await start('slow-timer', [{ match: '/api/gallery/videos', kind: 'slow', ms: 150 }]);
    const waiting = fetch(`${slow.api.url}/api/gallery/videos`).catch(() => null);
    await until(() => injected(slow, 'slow') === 1);
    await close(slow);
    await waiting;
    await new Promise((r) => setTimeout(r, 300));
    expect(slow.lines.filter((l) => l.startsWith('error'))).toEqual([]);
    expect(injected(slow, 'slow')).toBe(1);
  });

  it('bad-items: the pull keeps the good items and warns of each skipped one by endpoint, language and id', async () => {
    const bad = await start('bad-items', [{ match: String.raw`/^\/api\/post\/1\?/`, kind: 'bad-items' }]);

    // What the server now sends for the news lists in Uzbek Latin.
    const sent: Record<string, unknown>[] = [];
    for (let page = 1, pages = 1; page <= pages; page++) {
      const res = await fetch(`${bad.api.url}/api/post/1?pageNumber=${page}`, { headers: { langType: '1' } });
      const body = (await res.json()) as { data: { list: Record<string, unknown>[]; maxPageNumber: number } };
      pages = body.data.maxPageNumber;
      sent.push(...body.data.list);
    }
    const kept = sent.filter((i) => typeof i.id === 'number' && typeof i.title === 'string');
    const skipped = sent.filter((i) => !kept.includes(i));
    expect(kept.length).toBeGreaterThan(0);
    expect(skipped.length).toBeGreaterThan(0);
    expect(kept.every((i) => i.countViews === 'many')).toBe(true);

    const { run, file, log } = await pull(bad.api.url, 'bad-items');
    const summary = await run;
    const uz = readSnapshot(file).languages['uz-latn'];
    expect(uz.lists.news.flat()).toEqual(kept.map((i) => i.id));
    for (const item of kept) expect(uz.posts[item.id as number]?.title).toBe(item.title);

    const uzWarnings = summary.warnings.filter((w) => w.lang === 1);
    expect(uzWarnings.map((w) => w.id).sort()).toEqual(skipped.map((i) => i.id).sort());
    for (const w of summary.warnings) {
      expect(w.endpoint).toBe('api/post/1');
      expect(w.problem).toMatch(/title|id/);
    }
    expect(new Set(summary.warnings.map((w) => w.lang))).toEqual(new Set([1, 2, 3, 4]));
    const stringId = skipped.find((i) => typeof i.id === 'string')!;
    expect(log).toContain(`warning: skipped item ${JSON.stringify(stringId.id)} of api/post/1 (language 1): ${uzWarnings.find((w) => w.id === stringId.id)!.problem}`);
    // The other post types are whole.
    expect(uz.lists.announcements.flat().length).toBeGreaterThan(0);
  });

  it('huge: a 20 MB answer is parsed (the padding ignored) without a crash or a hang, and stays out of the snapshot', async () => {
    const huge = await start('huge', [{ match: '/api/gallery/videos', kind: 'huge' }]);
    const raw = await fetch(`${huge.api.url}/api/gallery/videos`, { headers: { langType: '1' } });
    expect(Number(raw.headers.get('content-length'))).toBeGreaterThan(HUGE_BYTES);
    await raw.body?.cancel();

    const { client: c } = client(huge.api.url, { retries: 0, timeoutMs: 10_000 });
    const videos = await c.videos(1);
    const expected = huge.api.db.prepare('SELECT id FROM videos WHERE lang = 1 ORDER BY id').all() as { id: number }[];
    expect(videos.map((v) => v.id)).toEqual(expected.map((r) => r.id));

    const { run, file } = await pull(huge.api.url, 'huge', 0);
    const summary = await run;
    expect(summary.warnings).toEqual([]);
    expect(statSync(file).size).toBeLessThan(HUGE_BYTES / 4);
    expect(readSnapshot(file).languages.en.videos.length).toBe(expected.length);
    expect(injected(huge, 'huge')).toBe(1 + 1 + 4);
  });
});
