/** Every setting a page can show is in every page's key, by construction (src/content/cache-key.ts). */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MADE_FROM_PART, pageKeys, SETTINGS_NOT_IN_PAGES } from '../../src/content/cache-key.ts';
import { readConfig, type SiteConfig } from '../../src/config.ts';
import { picturesNamedBy } from '../../src/content/pictures/map.ts';
import { documentsNamedBy } from '../../src/content/documents/map.ts';
import { filesOfPost, findTextFiles, postPictures } from '../../src/content/text-files.ts';
import { listFirstPagePaths, sectionDetailPaths } from '../../src/lib/section-pages.ts';
import { SECTIONS } from '../../src/lib/sections.ts';
import { langParam } from '../../src/lib/paths.ts';
import { LANGUAGES } from '../../src/i18n/languages.ts';
import { SNAPSHOT_FILE } from '../../src/content/snapshot.ts';
import { offerUnlistedPages } from '../../src/content/unlisted-pages.ts';

const saved = { ...process.env };
afterEach(() => {
  process.env = { ...saved };
});

/** One environment change per setting, each changing exactly that setting's value. */
const CHANGES: Record<keyof SiteConfig, Record<string, string>> = {
  apiBase: { API_BASE: 'https://api.example.uz', PUBLIC_API_BASE: 'http://127.0.0.1:8787', MEDIA_BASE: 'http://127.0.0.1:8787' },
  publicApiBase: { PUBLIC_API_BASE: 'https://public.example.uz' },
  mediaBase: { MEDIA_BASE: 'https://media.example.uz' },
  siteUrl: { SITE_URL: 'https://qorakul.uz' },
  basePath: { BASE_PATH: '/qorakul' },
  hcaptchaSitekey: { HCAPTCHA_SITEKEY: '20000000-ffff-ffff-ffff-000000000002', API_BASE: 'https://api.example.uz' },
  contentDir: { CONTENT_DIR: '.cache/elsewhere' },
  demoCaptcha: { HCAPTCHA_SITEKEY: '10000000-ffff-ffff-ffff-000000000001' },
  serviceWorker: { SERVICE_WORKER: 'off' },
};

describe('page keys', () => {
  it.each(Object.keys(CHANGES) as (keyof SiteConfig)[])('%s: a page is drawn again when it changes, unless no page can show it', (setting) => {
    for (const name of ['API_BASE', 'PUBLIC_API_BASE', 'MEDIA_BASE', 'SITE_URL', 'HCAPTCHA_SITEKEY', 'CONTENT_DIR', 'SERVICE_WORKER', 'BASE_PATH']) delete process.env[name];
    if (setting === 'hcaptchaSitekey') process.env.API_BASE = 'https://api.example.uz';
    const before = readConfig();
    const key = pageKeys(['menu'])({ id: 1 });
    Object.assign(process.env, CHANGES[setting]);
    const after = readConfig();
    expect(after[setting], 'the change is to this setting').not.toEqual(before[setting]);
    const changedKey = pageKeys(['menu'])({ id: 1 }) !== key;
    expect(changedKey).toBe(!(SETTINGS_NOT_IN_PAGES as readonly string[]).includes(setting));
  });

  it('covers every setting of SiteConfig', () => {
    expect(Object.keys(CHANGES).sort()).toEqual(Object.keys(readConfig()).sort());
  });
});

describe('a post the pull has hashed', () => {
  const post = { id: 5, title: 'Yangi maktab', html: '<p>Matn</p>' };
  const key = (value: object, digest: string | undefined) =>
    pageKeys(['menu'], (v) => (v === value ? digest : undefined))({ id: '5' }, { post: value, latestFragment: 'settled-news@ru' });

  it('is keyed by its digest: a new digest is a new key, the same digest the same key', () => {
    expect(key(post, 'digest-2')).not.toBe(key(post, 'digest-1'));
    expect(key({ ...post }, 'digest-1')).toBe(key(post, 'digest-1'));
    // Its text is not read again: the digest stands for it.
    expect(key({ ...post, html: '<p>Boshqa</p>' }, 'digest-1')).toBe(key(post, 'digest-1'));
  });

  it('without a digest, is keyed by its whole text', () => {
    expect(key({ ...post, html: '<p>Boshqa</p>' }, undefined)).not.toBe(key(post, undefined));
  });
});

describe("a page's pictures in its key", () => {
  const entry = (id: string) => ({ id, width: 800, height: 600, widths: [320, 800] });
  const map = { 'https://media.example.uz/uploads/a.jpg': entry('a1'), 'https://cdn.example.uz/b.png': entry('b1') };
  const named = (value: unknown) => picturesNamedBy(value, map, 'https://media.example.uz/');

  it('finds a picture however the API names it: a path from the root, a relative path, an absolute URL, in a text', () => {
    const both = ['https://cdn.example.uz/b.png b1 800x600 320,800', 'https://media.example.uz/uploads/a.jpg a1 800x600 320,800'];
    expect(named({ post: { imageUrl: '/uploads/a.jpg', html: '<p><img alt="" src="https://cdn.example.uz/b.png"></p>' } })).toEqual(both);
    expect(named(['uploads/a.jpg', { photos: ['https://cdn.example.uz/b.png', 'https://media.example.uz/uploads/a.jpg'] }])).toEqual(both);
  });

  it('names nothing for strings that only end like a picture, or are titles and dates', () => {
    expect(named({ title: 'a.jpg', brief: 'other/a.jpg', date: '2026-11-29', image: 'https://media.example.uz/b.png' })).toEqual([]);
  });

  it('takes the files the pull found in a post instead of searching its text again', () => {
    const post = { id: 7, imageUrl: null, html: '<p><img alt="" src="https://cdn.example.uz/b.png"><a href="/media/q.pdf">Qaror</a></p>' };
    const found = { textPictures: ['https://media.example.uz/uploads/a.jpg'], documents: ['https://media.example.uz/media/r.pdf'] };
    const known = (value: object) => (value === post ? found : undefined);
    // What the pull found stands for the text: b.png and q.pdf, only in the text, are not searched for.
    expect(picturesNamedBy({ post, title: 'x' }, map, 'https://media.example.uz/', (v) => known(v)?.textPictures)).toEqual([
      'https://media.example.uz/uploads/a.jpg a1 800x600 320,800',
    ]);
    expect(documentsNamedBy({ post }, {}, 'https://media.example.uz/', (v) => known(v)?.documents)).toEqual(['https://media.example.uz/media/r.pdf null']);
    // Any other object is searched.
    expect(picturesNamedBy({ post: { ...post } }, map, 'https://media.example.uz/', (v) => known(v)?.textPictures)).toEqual(['https://cdn.example.uz/b.png b1 800x600 320,800']);
  });
});

describe("a post's files", () => {
  const text = '<p><img src="/uploads/a.jpg"><img src="/uploads/a.jpg"><a href="/media/q.pdf">Qaror</a> <a href="/news/5">Yangilik</a></p>';

  it('are the pictures of its text, each once, and the documents it links to, joined to the media base', () => {
    expect(findTextFiles(text, 'https://media.example.uz/')).toEqual({
      textPictures: ['https://media.example.uz/uploads/a.jpg'],
      documents: ['https://media.example.uz/media/q.pdf'],
    });
  });

  it('with its own picture, which is not in its text', () => {
    const files = findTextFiles(text, 'https://media.example.uz/');
    expect(postPictures({ id: 1, title: '', brief: '', imageUrl: '/uploads/main.jpg', date: null, views: null, html: text }, files, 'https://media.example.uz/')).toEqual([
      'https://media.example.uz/uploads/main.jpg',
      'https://media.example.uz/uploads/a.jpg',
    ]);
  });

  it('are taken from the snapshot for a post it lists, as none for a post it leaves out, and not at all from an earlier version', () => {
    const files = findTextFiles(text, 'https://media.example.uz/');
    expect(filesOfPost({ postFiles: { 5: files } }, 5)).toBe(files);
    expect(filesOfPost({ postFiles: { 5: files } }, 6)).toEqual({ textPictures: [], documents: [] });
    expect(filesOfPost({}, 5)).toBeUndefined();
  });
});

describe("a news page's key, from the files the pull found in its post", () => {
  const MEDIA = 'https://media.example.uz';
  const entry = (id: string) => ({ id, width: 800, height: 600, widths: [320, 800] });
  const inText = `${MEDIA}/uploads/in-text.jpg`;
  const found = `${MEDIA}/uploads/found.jpg`;
  const own = `${MEDIA}/uploads/own.jpg`;
  afterEach(() => vi.unstubAllEnvs());

  /**
   * One news post in every language, its text showing `in-text.jpg`, the pull having found `found.jpg` in it, with `mediaBase`;
   * with `older`, an older post too (id 5, `older.jpg` its own picture), on the list's numbered page.
   */
  function contentDir(
    pictures: Record<string, string>,
    foundWith: string,
    news: number[][] = [[7]],
    older?: { digest?: string; menus?: unknown[]; documents?: string[]; finding?: string },
  ): string {
    const post = { id: 7, title: 'Yangi maktab', brief: '', imageUrl: '/uploads/own.jpg', date: '2026-03-21T09:00:00Z', views: 0, html: `<p><img alt="" src="${inText}"></p>` };
    const old = { id: 5, title: 'Eski xabar', brief: '', imageUrl: '/uploads/older.jpg', date: '2026-03-01T09:00:00Z', views: 0, html: '<p>Matn</p>' };
    const { html: _, ...summary } = post;
    const language = {
      lang: 1,
      menus: older?.menus ?? [],
      lists: { news: older ? [[7], [5]] : news, announcements: [], lectures: [], visitingReceptions: [], historicalPersons: [] },
      listPages: { news: older ? [[5], [7]] : [[7]], announcements: [], lectures: [], visitingReceptions: [], historicalPersons: [] },
      settledLatest: { news: [summary], announcements: [], lectures: [], visitingReceptions: [], historicalPersons: [] },
      posts: older ? { 7: post, 5: old } : { 7: post },
      postDigests: { 7: 'digest-7', 5: older?.digest ?? 'digest-5' },
      postFiles: { 7: { textPictures: [found], documents: [] }, 5: { textPictures: [], documents: older?.documents ?? [] } },
      pages: {},
      employees: {},
      photoGroups: [],
      videos: [],
      surveys: [],
    };
    const dir = mkdtempSync(join(tmpdir(), 'page-key-'));
    const snapshot = {
      pulledAt: '',
      apiBase: MEDIA,
      postFilesFoundWith: { mediaBase: foundWith, code: older?.finding ?? '' },
      languages: Object.fromEntries(LANGUAGES.map((l) => [l.code, language])),
    };
    writeFileSync(join(dir, SNAPSHOT_FILE), JSON.stringify(snapshot));
    writeFileSync(join(dir, 'pictures.json'), JSON.stringify(Object.fromEntries(Object.entries(pictures).map(([url, id]) => [url, entry(id)]))));
    return dir;
  }
  const keyOf = (pictures: Record<string, string>, foundWith = MEDIA) => {
    vi.stubEnv('CONTENT_DIR', contentDir(pictures, foundWith));
    vi.stubEnv('MEDIA_BASE', MEDIA);
    return sectionDetailPaths().find((p) => p.params.id === '7' && p.params.lang === undefined)!.cacheKey;
  };
  const all = { [inText]: 'a', [found]: 'b', [own]: 'c' };

  it("changes when a picture the pull found in its text, or the post's own picture, is drawn anew", () => {
    expect(keyOf({ ...all, [found]: 'b2' })).not.toBe(keyOf(all));
    expect(keyOf({ ...all, [own]: 'c2' })).not.toBe(keyOf(all));
  });

  it('does not search the text again: a picture only the text names is not in the key', () => {
    expect(keyOf({ ...all, [inText]: 'a2' })).toBe(keyOf(all));
  });

  it('searches the text when the pull found the files against another media base', () => {
    expect(keyOf({ ...all, [inText]: 'a2' }, 'https://old-media.example.uz')).not.toBe(keyOf(all, 'https://old-media.example.uz'));
  });

  it("a list page's key names the pictures its posts' cards show, and no picture of their texts", () => {
    const listKey = (pictures: Record<string, string>) => {
      vi.stubEnv('CONTENT_DIR', contentDir(pictures, MEDIA));
      vi.stubEnv('MEDIA_BASE', MEDIA);
      return listFirstPagePaths(SECTIONS.news).find((p) => p.params.lang === undefined)!.cacheKey;
    };
    expect(listKey({ ...all, [own]: 'c2' })).not.toBe(listKey(all));
    expect(listKey({ ...all, [found]: 'b2', [inText]: 'a2' })).toBe(listKey(all));
  });

  it('is not listed to Astro when the build takes the page with that key as it is; a page of its language alone always is', () => {
    vi.stubEnv('CONTENT_DIR', contentDir(all, MEDIA));
    vi.stubEnv('MEDIA_BASE', MEDIA);
    const listed = sectionDetailPaths();
    const asked: Record<string, unknown>[] = [];
    offerUnlistedPages((key, params) => (asked.push(params), key === listed[0]!.cacheKey));
    try {
      // The one page the build takes is left out; the route is asked of each of its pages with their parameters.
      expect(sectionDetailPaths().map((p) => p.cacheKey)).toEqual(listed.slice(1).map((p) => p.cacheKey));
      expect(asked).toEqual(listed.map((p) => p.params));
      // The first page of a list has no parameters of its route's own: its key is that of every such page in its language.
      asked.length = 0;
      expect(listFirstPagePaths(SECTIONS.news)).toHaveLength(LANGUAGES.length);
      expect(asked).toEqual([]);
    } finally {
      offerUnlistedPages(undefined);
    }
    expect(sectionDetailPaths()).toEqual(listed);
  });

  describe('of a post that shows the shared side list', () => {
    const olderPicture = `${MEDIA}/uploads/older.jpg`;
    const withOlder = { ...all, [olderPicture]: 'o' };
    const olderPage = (pictures: Record<string, string>, older: { digest?: string; menus?: unknown[]; documents?: string[]; finding?: string } = {}, foundWith = MEDIA) => {
      vi.stubEnv('CONTENT_DIR', contentDir(pictures, foundWith, undefined, older));
      vi.stubEnv('MEDIA_BASE', MEDIA);
      return sectionDetailPaths().find((p) => p.params.id === '5' && p.params.lang === undefined)!;
    };
    const [first, second] = [(key: string) => key.slice(0, MADE_FROM_PART), (key: string) => key.slice(MADE_FROM_PART)];
    afterEach(() => vi.useRealTimers());

    it('is of two parts: what its page is made from, then the entries of its files', () => {
      const key = olderPage(withOlder).cacheKey;
      expect(key).toHaveLength(2 * MADE_FROM_PART);
      // Its picture drawn anew: the same first part, another second.
      const redrawn = olderPage({ ...withOlder, [olderPicture]: 'o2' }).cacheKey;
      expect(first(redrawn)).toBe(first(key));
      expect(second(redrawn)).not.toBe(second(key));
    });

    it("has another first part when its post's text, the menu, a setting, the year or the code that found its files changes", () => {
      const key = olderPage(withOlder).cacheKey;
      expect(first(olderPage(withOlder, { digest: 'digest-5-edited' }).cacheKey)).not.toBe(first(key));
      // The pull's new code may find other files in the same text.
      expect(first(olderPage(withOlder, { finding: 'finder-2' }).cacheKey)).not.toBe(first(key));
      expect(first(olderPage(withOlder, { menus: [{ title: 'Yangi boʻlim', items: [] }] }).cacheKey)).not.toBe(first(key));
      vi.stubEnv('SITE_URL', 'https://qorakul.example.uz');
      expect(first(olderPage(withOlder).cacheKey)).not.toBe(first(key));
      vi.unstubAllEnvs();
      vi.useFakeTimers({ now: new Date(new Date().getFullYear() + 1, 0, 2), toFake: ['Date'] });
      expect(first(olderPage(withOlder).cacheKey)).not.toBe(first(key));
    });

    it('naming a picture or a document its map lacks, or with its files searched for again, has a key of one part', () => {
      expect(olderPage(all).cacheKey).toHaveLength(32);
      expect(olderPage(withOlder, { documents: [`${MEDIA}/files/plan.pdf`] }).cacheKey).toHaveLength(32);
      // Found against another media base: its text is walked, where a picture the map lacks goes unnoticed.
      expect(olderPage(withOlder, {}, 'https://old-media.example.uz').cacheKey).toHaveLength(32);
    });

    it('is left out when the build takes it by the first part, which it is asked for with its parameters', () => {
      const key = olderPage(withOlder).cacheKey;
      const asked: unknown[] = [];
      const take = Object.assign(() => false, { madeFrom: (made: string, params: unknown) => (asked.push(params), made === first(key)) });
      offerUnlistedPages(take);
      try {
        const listed = sectionDetailPaths();
        expect(listed.filter((p) => p.params.lang === undefined).map((p) => p.params.id)).toEqual(['7']);
        // The newest post shows the side list without itself: its key is of one part, and it is not asked by a first part.
        expect(asked).toEqual(LANGUAGES.map((lang) => ({ lang: langParam(lang), section: 'news', id: '5' })));
        // Its page in another language is made on that language's basis: another first part, not taken.
        const sorted = (pages: unknown[][]) => pages.map((p) => p.join(' ')).sort();
        expect(sorted(listed.map((p) => [p.params.id, p.cacheKey.length]))).toEqual(
          sorted([...LANGUAGES.map(() => ['7', 32]), ...LANGUAGES.slice(1).map(() => ['5', 2 * MADE_FROM_PART])]),
        );
        expect(new Set(listed.map((p) => p.cacheKey)).size).toBe(listed.length);
      } finally {
        offerUnlistedPages(undefined);
      }
    });
  });

  it('is listed to Astro when its route lists it twice (a post on two pages of a list read while it moved), and never offered', () => {
    vi.stubEnv('CONTENT_DIR', contentDir(all, MEDIA, [[7], [7]]));
    vi.stubEnv('MEDIA_BASE', MEDIA);
    const listed = sectionDetailPaths();
    expect(listed).toHaveLength(2 * LANGUAGES.length);
    const asked: unknown[] = [];
    offerUnlistedPages((_key, params) => (asked.push(params), true));
    try {
      // Not offered at all: a page taken would be left out while its other listing stays.
      expect(sectionDetailPaths()).toEqual(listed);
      expect(asked).toEqual([]);
    } finally {
      offerUnlistedPages(undefined);
    }
  });
});
