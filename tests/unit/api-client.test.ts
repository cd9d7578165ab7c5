import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError, createApiClient } from '../../src/api/client.ts';
import type { ApiWarning } from '../../src/api/types.ts';
import { POST_TYPES } from '../../src/api/types.ts';
import type { SampleApi } from '../../scripts/sample-api/server.ts';
import { startTestApi } from '../helpers/sample-api.ts';
import { ensureApi } from '../../scripts/lib/ensure-api.ts';
import type { SiteConfig } from '../../src/config.ts';

let api: SampleApi;
beforeAll(async () => {
  api = await startTestApi('client');
});
afterAll(() => api.close());

interface Seen {
  method: string;
  url: URL;
  headers: Headers;
  body?: string;
}

/** A client whose every request is recorded before it goes to the real sample API. */
function recordingClient(extra: Partial<Parameters<typeof createApiClient>[0]> = {}) {
  const seen: Seen[] = [];
  const warnings: ApiWarning[] = [];
  const client = createApiClient({
    baseUrl: api.url,
    retries: 0,
    onWarning: (w) => warnings.push(w),
    fetch: async (input, init) => {
      seen.push({
        method: init?.method ?? 'GET',
        url: new URL(String(input)),
        headers: new Headers(init?.headers),
        body: typeof init?.body === 'string' ? init.body : undefined,
      });
      return fetch(input, init);
    },
    ...extra,
  });
  return { client, seen, warnings };
}

/** A client talking to a fake server that answers with `respond`. */
function stubClient(respond: (attempt: number, url: string) => Response | Promise<Response>, retries = 2) {
  let attempts = 0;
  const warnings: ApiWarning[] = [];
  const client = createApiClient({
    baseUrl: 'http://api.test',
    retries,
    backoffMs: 1,
    onWarning: (w) => warnings.push(w),
    fetch: async (input) => respond(++attempts, String(input)),
  });
  return { client, warnings, attempts: () => attempts };
}

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

describe('paths, headers and the list/detail rule', () => {
  it('sends pageNumber on list calls and never on detail calls, with accept and langType headers', async () => {
    const { client, seen } = recordingClient();
    const list = await client.postList(POST_TYPES.news, 3, 2);
    const detail = await client.post(list.items[0]!.id, 3);
    expect(seen[0]!.url.pathname).toBe('/api/post/1');
    expect(seen[0]!.url.searchParams.get('pageNumber')).toBe('2');
    expect(seen[1]!.url.pathname).toBe(`/api/post/${list.items[0]!.id}`);
    expect(seen[1]!.url.searchParams.has('pageNumber')).toBe(false);
    for (const s of seen) {
      expect(s.headers.get('accept')).toBe('application/json');
      expect(s.headers.get('langType')).toBe('3');
    }
    expect(list.page).toBe(2);
    expect(detail?.id).toBe(list.items[0]!.id);
  });

  it('sends pageNumber also for the unpaged post types', async () => {
    const { client, seen } = recordingClient();
    for (const type of [POST_TYPES.announcements, POST_TYPES.visitingReceptions, POST_TYPES.historicalPersons]) {
      const page = await client.postList(type, 1);
      expect(page.items.length).toBeGreaterThan(0);
    }
    expect(seen.map((s) => s.url.search)).toEqual(['?pageNumber=1', '?pageNumber=1', '?pageNumber=1']);
  });

  it('searches with the langTypeQorakul header instead of langType', async () => {
    const { client, seen } = recordingClient();
    await client.search('paxta', 1);
    expect(seen[0]!.url.pathname).toBe('/api/search');
    expect(seen[0]!.url.searchParams.get('q')).toBe('paxta');
    expect(seen[0]!.headers.get('langTypeQorakul')).toBe('1');
    expect(seen[0]!.headers.has('langType')).toBe(false);
  });

  it('posts the appeal form-encoded with the subject in Description and the message in Title', async () => {
    const { client, seen } = recordingClient();
    const outcome = await client.apply(
      {
        fullName: 'Karimov Bahodir Aliyevich',
        phone: '+998901234567',
        email: 'bahodir@example.uz',
        subject: "Ko'cha chiroqlari haqida",
        message: "Mahallamizdagi ko'cha chiroqlari bir oydan beri yonmayapti.",
        captchaToken: 'test-token',
      },
      4,
    );
    expect(outcome.kind).toBe('sent');
    const sent = seen[0]!;
    expect(sent.method).toBe('POST');
    expect(sent.url.pathname).toBe('/api/apply');
    expect(sent.headers.get('content-type')).toBe('application/x-www-form-urlencoded');
    const form = new URLSearchParams(sent.body);
    expect(form.get('Description')).toBe("Ko'cha chiroqlari haqida");
    expect(form.get('Title')).toBe("Mahallamizdagi ko'cha chiroqlari bir oydan beri yonmayapti.");
    expect(form.get('FIO')).toBe('Karimov Bahodir Aliyevich');
    expect(form.get('h-captcha-response')).toBe('test-token');
    // The sample API stored it durably, with the wire's swapped labels.
    const row = api.db.prepare('SELECT title, description FROM appeals ORDER BY id DESC LIMIT 1').get() as Record<string, string>;
    expect(row.description).toBe("Ko'cha chiroqlari haqida");
  });
});

describe('shapes mapped to domain types', () => {
  it('maps posts to domain names and gives each language its own text', async () => {
    const { client } = recordingClient();
    const uz = await client.postList(POST_TYPES.news, 1);
    const en = await client.postList(POST_TYPES.news, 4);
    const first = uz.items[0]!;
    expect(Object.keys(first).sort()).toEqual(['brief', 'date', 'id', 'imageUrl', 'title', 'views']);
    expect(first.brief.length).toBeGreaterThan(0);
    expect(en.items[0]!.id).toBe(first.id);
    expect(en.items[0]!.title).not.toBe(first.title);
    expect(uz.pageCount).toBeGreaterThanOrEqual(3);
    const detail = await client.post(first.id, 4);
    expect(detail?.html).toMatch(/<p>/);
  });

  it('reads menus into the three item kinds', async () => {
    const { client } = recordingClient();
    const menus = await client.menus(1);
    expect(menus).toHaveLength(9);
    const kinds = new Set(menus.flatMap((g) => g.items.map((i) => i.target.kind)));
    expect(kinds).toEqual(new Set(['route', 'page', 'external']));
    expect(menus.some((g) => g.isTop)).toBe(true);
  });

  it('reads employees, galleries and surveys', async () => {
    const { client } = recordingClient();
    for (const category of [1, 2, 3] as const) {
      const people = await client.employees(category, 2);
      expect(people.length).toBeGreaterThan(0);
      expect(people[0]!.biographyHtml).toMatch(/</);
    }
    const groups = await client.photoGroups(1);
    expect(groups.length).toBeGreaterThanOrEqual(6);
    expect(groups[0]!.photoCount).toBe(groups[0]!.photos.length);
    expect((await client.videos(3))[0]!.url).toMatch(/^https:\/\//);
    expect(await client.surveys(1)).toHaveLength(3);
  });

  it('answers search with results, or with the message of {errorMsg}', async () => {
    const { client } = recordingClient();
    const found = await client.search('Qorako', 1);
    expect(found.kind).toBe('results');
    const empty = await client.search('', 1);
    expect(empty).toEqual({ kind: 'message', message: expect.any(String) });
  });

  it('counts a survey vote', async () => {
    const { client } = recordingClient();
    const before = (await client.surveys(1))[0]!;
    await client.answerSurvey(before.id, true, 1);
    const after = (await client.surveys(1))[0]!;
    expect(after.likes).toBe(before.likes + 1);
    expect(after.dislikes).toBe(before.dislikes);
  });

  it('reports a 400 from apply as too short', async () => {
    const { client } = recordingClient();
    const outcome = await client.apply({ fullName: 'Ali', phone: '123', email: 'a@b.uz', subject: 'short', message: 'short', captchaToken: 'x' }, 1);
    expect(outcome).toEqual({ kind: 'too-short' });
  });

  it('accepts a bare array where {data: [...]} is documented', async () => {
    const { client } = stubClient(() => json([{ id: 1, title: 'Video', urlVideo: 'https://example.org/v' }]));
    expect(await client.videos(1)).toEqual([{ id: 1, title: 'Video', url: 'https://example.org/v' }]);
  });

  it('skips a video whose link is not http(s), with a warning, and keeps the others', async () => {
    const bad = ['javascript:alert(1)', 'JavaScript:alert(document.cookie)', 'data:text/html,<script>alert(1)</script>', 'vbscript:msgbox(1)', 'ftp://example.org/v'];
    const { client, warnings } = stubClient(() =>
      json({ data: [{ id: 1, title: 'Good', urlVideo: 'http://example.org/a' }, ...bad.map((urlVideo, i) => ({ id: i + 2, title: 'Bad', urlVideo }))] }),
    );
    expect(await client.videos(1)).toEqual([{ id: 1, title: 'Good', url: 'http://example.org/a' }]);
    expect(warnings).toHaveLength(bad.length);
    expect(warnings.map((w) => w.id)).toEqual(bad.map((_, i) => i + 2));
  });
});

describe('retries', () => {
  it('retries a network error and then succeeds', async () => {
    const { client, attempts } = stubClient((n) => {
      if (n < 3) throw new TypeError('fetch failed');
      return json({ data: [] });
    });
    expect(await client.videos(1)).toEqual([]);
    expect(attempts()).toBe(3);
  });

  it('fails after the bounded retries with a message naming the endpoint', async () => {
    const { client, attempts } = stubClient(() => json({ errorMsg: 'down' }, 503));
    const error = await client.photoGroups(1).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).message).toBe('api/gallery/photos: server error 503 after 3 attempts');
    expect(attempts()).toBe(3);
  });

  it('retries malformed JSON', async () => {
    const { client, attempts } = stubClient((n) => (n === 1 ? new Response('{"data": [', { status: 200 }) : json({ data: [] })));
    expect(await client.surveys(1)).toEqual([]);
    expect(attempts()).toBe(2);
  });

  it('does not retry a 4xx', async () => {
    const { client, attempts } = stubClient(() => json({ errorMsg: 'nope' }, 404));
    await expect(client.page(9, 1)).rejects.toThrow('api/page/9: HTTP 404');
    expect(attempts()).toBe(1);
  });

  it('times out a slow answer instead of hanging', async () => {
    const client = createApiClient({
      baseUrl: 'http://api.test',
      retries: 1,
      backoffMs: 1,
      timeoutMs: 50,
      fetch: (_input, init) => new Promise((_resolve, reject) => init?.signal?.addEventListener('abort', () => reject(init.signal!.reason))),
    });
    await expect(client.menus(1)).rejects.toThrow('api/home/menus: no answer within 50 ms after 2 attempts');
  });

  it('never retries a POST', async () => {
    const { client, attempts } = stubClient(() => {
      throw new TypeError('fetch failed');
    });
    await expect(client.answerSurvey(1, true, 1)).rejects.toThrow('api/survey/answer');
    expect(attempts()).toBe(1);
  });
});

describe('schema failures', () => {
  it('skips a malformed item with a warning naming endpoint, language and id', async () => {
    const { client, warnings } = stubClient(() =>
      json({
        success: true,
        data: {
          list: [
            { id: 1, title: 'Good', berifDescription: 'b', imageUrl: null, date: '2026-01-01', countViews: 3 },
            { id: 2, title: 42 },
            { id: 3, title: 'No date or views', berifDescription: 'b' },
          ],
          maxPageNumber: 1,
          currentPageNumber: 1,
        },
      }),
    );
    const page = await client.postList(1, 2);
    expect(page.items.map((p) => p.id)).toEqual([1, 3]);
    expect(page.items[1]).toMatchObject({ date: null, views: null });
    expect(warnings).toEqual([{ endpoint: 'api/post/1', lang: 2, id: 2, problem: expect.stringContaining('title') }]);
  });

  it('fails the call when the envelope itself is wrong', async () => {
    const { client } = stubClient(() => json({ data: { items: [] } }));
    await expect(client.postList(1, 1)).rejects.toThrow(/^api\/post\/1: unexpected response/);
  });

  it('reads an unreadable date or a wrong-typed view count as missing', async () => {
    const { client } = stubClient(() => json({ data: { id: 5, title: 'T', berifDescription: 'B', description: '<p>x</p>', date: 'soon', countViews: 'many' } }));
    expect(await client.post(5, 1)).toMatchObject({ id: 5, date: null, views: null, imageUrl: null });
  });

  it('drops a menu item with an unusable target', async () => {
    const { client, warnings } = stubClient(() =>
      json({
        data: [
          {
            title: 'G',
            isTop: false,
            items: [
              { title: 'ok', page: '/news', isPage: false },
              { title: 'bad', page: 'x', isPage: true },
            ],
          },
        ],
      }),
    );
    const [group] = await client.menus(1);
    expect(group!.items).toEqual([{ title: 'ok', target: { kind: 'route', path: '/news' } }]);
    expect(warnings[0]!.problem).toContain('unusable target');
  });
});

describe('an API that answers for someone else', () => {
  /** A server on loopback that answers every request with `handler`. */
  async function serve(handler: (req: IncomingMessage, res: ServerResponse) => void) {
    const server = createServer(handler);
    await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
    return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => new Promise<void>((ok) => server.close(() => ok())) };
  }
  const post = (id: number) =>
    JSON.stringify({ data: { id, title: `Post ${id}`, berifDescription: 'b', description: '<p>d</p>', imageUrl: null, date: '2026-11-20T10:00:00', countViews: 1 } });

  it('refuses a redirect to another host before asking there, instead of filing its answer as the API’s', async () => {
    // Where a cloud's metadata service would answer: the build machine must never send it a request.
    const asked: string[] = [];
    const other = await serve((req, res) => {
      asked.push(req.url!);
      res.writeHead(200, { 'content-type': 'application/json' }).end(post(1));
    });
    const api = await serve((req, res) => {
      const path = req.url!.split('?')[0];
      if (path === '/api/post/2') return void res.writeHead(301, { location: '/api/post/1' }).end();
      if (path === '/api/post/1') return void res.writeHead(200, { 'content-type': 'application/json' }).end(post(1));
      res.writeHead(302, { location: `${other.url}/latest/meta-data/iam/security-credentials/` }).end();
    });
    try {
      const client = createApiClient({ baseUrl: api.url, retries: 0 });
      await expect(client.post(160, 1)).rejects.toThrow(/api\/post\/160: redirected to another host \(http:\/\/127\.0\.0\.1:\d+\); refused/);
      await expect(ensureApi({ apiBase: api.url } as SiteConfig)).rejects.toThrow(/does not answer/);
      expect(asked).toEqual([]);
      // A redirect on the API's own host is followed.
      expect(await client.post(2, 1)).toBeNull();
      expect(asked).toEqual([]);
    } finally {
      await Promise.all([api.close(), other.close()]);
    }
  });

  it('files a post only under the id asked for: an answer claiming another id is left out with a warning', async () => {
    const api = await serve((_req, res) => void res.writeHead(200, { 'content-type': 'application/json' }).end(post(1)));
    const warnings: ApiWarning[] = [];
    try {
      const client = createApiClient({ baseUrl: api.url, retries: 0, onWarning: (w) => warnings.push(w) });
      expect(await client.post(160, 1)).toBeNull();
      expect(warnings).toEqual([expect.objectContaining({ endpoint: 'api/post/160', id: 160, problem: 'the answer is post 1, not 160' })]);
      expect((await client.post(1, 1))?.title).toBe('Post 1');
    } finally {
      await api.close();
    }
  });

  it('refuses an answer larger than its bound, declared or not, before it takes the memory', async () => {
    const big = `{"data":{"data":{"id":1,"title":"${'x'.repeat(3000)}"}}}`;
    const api = await serve((req, res) => {
      if (req.url?.includes('declared')) return void res.writeHead(200, { 'content-length': String(10 ** 9) }).end();
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write(big.slice(0, 1000));
      res.end(big.slice(1000));
    });
    try {
      const client = createApiClient({ baseUrl: api.url, retries: 0, maxAnswerBytes: 2048 });
      await expect(client.post(1, 1)).rejects.toThrow(/api\/post\/1: an answer of more than 2048 bytes/);
    } finally {
      await api.close();
    }
  });
});
