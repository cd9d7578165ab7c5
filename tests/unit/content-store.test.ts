/** What the pages read: a snapshot the site can no longer read is named, with what to run. */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LANGUAGES } from '../../src/i18n/languages.ts';
import { SNAPSHOT_FILE } from '../../src/content/snapshot.ts';

afterEach(() => {
  vi.unstubAllEnvs();
  vi.resetModules();
});

/** The store of a fresh module, reading a snapshot written into a folder of its own. */
async function storeReading(snapshot: unknown) {
  const dir = mkdtempSync(join(tmpdir(), 'snapshot-'));
  writeFileSync(join(dir, SNAPSHOT_FILE), JSON.stringify(snapshot));
  vi.stubEnv('CONTENT_DIR', dir);
  vi.resetModules();
  return { dir, store: await import('../../src/content/store.ts') };
}

const language = (listPages?: unknown, settledLatest?: unknown) => ({
  lang: 1,
  menus: [],
  lists: { news: [[1]] },
  ...(listPages ? { listPages } : {}),
  ...(settledLatest ? { settledLatest } : {}),
  posts: {},
  pages: {},
});

describe('the content store', () => {
  it('says a snapshot pulled before the list pages must be pulled again, and where it is', async () => {
    const { dir, store } = await storeReading({ pulledAt: '', apiBase: '', languages: Object.fromEntries(LANGUAGES.map((l) => [l.code, language()])) });
    expect(() => store.contentFor(LANGUAGES[0]!)).toThrow(`The content snapshot at ${join(dir, SNAPSHOT_FILE)} was pulled by an earlier version of the site: run "npm run pull"`);
  });

  it('says the same of a snapshot pulled before the settled side lists', async () => {
    const { store } = await storeReading({ pulledAt: '', apiBase: '', languages: Object.fromEntries(LANGUAGES.map((l) => [l.code, language({ news: [[1]] })])) });
    expect(() => store.contentFor(LANGUAGES[0]!)).toThrow(/was pulled by an earlier version of the site: run "npm run pull"/);
  });

  it('and of one whose settled side lists name posts by id only, not by what they showed', async () => {
    const { store } = await storeReading({ pulledAt: '', apiBase: '', languages: Object.fromEntries(LANGUAGES.map((l) => [l.code, language({ news: [[1]] }, { news: [1] })])) });
    expect(() => store.contentFor(LANGUAGES[0]!)).toThrow(/was pulled by an earlier version of the site: run "npm run pull"/);
  });

  it('reads a snapshot with them', async () => {
    const settled = { news: [{ id: 1, title: 'Yangilik', brief: '', imageUrl: null, date: null, views: 3 }] };
    const { store } = await storeReading({ pulledAt: '', apiBase: '', languages: Object.fromEntries(LANGUAGES.map((l) => [l.code, language({ news: [[1]] }, settled)])) });
    expect(store.contentFor(LANGUAGES[0]!).listPages.news).toEqual([[1]]);
  });

  it('is read once by every copy of the store while the file stays the same, and again once it is pulled anew', async () => {
    const settled = { news: [{ id: 1, title: 'Yangilik', brief: '', imageUrl: null, date: null, views: 3 }] };
    const snapshot = (listed: number[]) => ({ pulledAt: '', apiBase: '', languages: Object.fromEntries(LANGUAGES.map((l) => [l.code, language({ news: [listed] }, settled)])) });
    const { dir, store } = await storeReading(snapshot([1]));
    const first = store.contentFor(LANGUAGES[0]!);
    // A second copy of the module, as Astro's bundle is beside the configuration's.
    vi.resetModules();
    const other = (await import('../../src/content/store.ts')) as typeof store;
    expect(other.contentFor(LANGUAGES[0]!)).toBe(first);
    writeFileSync(join(dir, SNAPSHOT_FILE), JSON.stringify(snapshot([1, 2])));
    expect(other.contentFor(LANGUAGES[0]!).listPages.news).toEqual([[1, 2]]);
  });

  it("reads a post's body only when a page asks for it, and says to pull again when its file is gone", async () => {
    const settled = { news: [{ id: 1, title: 'Yangilik', brief: '', imageUrl: null, date: null, views: 3 }] };
    const post = { id: 1, title: 'Yangilik', brief: '', imageUrl: null, date: null, views: 3 };
    const { dir, store } = await storeReading({
      pulledAt: '',
      apiBase: '',
      languages: Object.fromEntries(LANGUAGES.map((l) => [l.code, { ...language({ news: [[1]] }, settled), posts: { 1: post }, postBodies: { 0: 'gone.json' } }])),
    });
    const content = store.contentFor(LANGUAGES[0]!);
    expect(content.posts[1]!.title).toBe('Yangilik');
    expect(() => content.posts[1]!.html).toThrow(
      `The posts' bodies at ${join(dir, 'post-bodies', 'gone.json')}, which the content snapshot names, cannot be read: run "npm run pull" again.`,
    );
  });

  it("says to pull again when the file of a group's posts is gone, and where it is", async () => {
    const settled = { news: [{ id: 1, title: 'Yangilik', brief: '', imageUrl: null, date: null, views: 3 }] };
    const { dir, store } = await storeReading({
      pulledAt: '',
      apiBase: '',
      languages: Object.fromEntries(
        LANGUAGES.map((l) => {
          const { posts: _inTheirFiles, ...rest } = language({ news: [[1]] }, settled);
          return [l.code, { ...rest, postBodies: { 0: 'gone.json' } }];
        }),
      ),
    });
    expect(() => store.contentFor(LANGUAGES[0]!)).toThrow(
      `The posts at ${join(dir, 'post-bodies', 'gone.posts.json')}, which the content snapshot names, cannot be read: run "npm run pull" again.`,
    );
  });
});
