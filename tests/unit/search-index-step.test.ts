import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startSearchIndex } from '../../scripts/pipeline/search-index/search-index-step.ts';
import { searchIndex } from '../../src/features/search/search-index.ts';
import { LANGUAGES } from '../../src/i18n/languages.ts';

afterEach(() => {
  vi.unstubAllEnvs();
});

/** A snapshot of one news post a language, in a folder of its own. */
function snapshotDir(): string {
  const post = {
    id: 7,
    title: 'Navroʻz sayllari',
    brief: 'Mahallalarda bayram.',
    imageUrl: null,
    date: '2026-03-21T09:00:00Z',
    views: 3,
    html: '<p>Sayllar <b>oʻtkazildi</b>.</p>',
  };
  const { html: _, ...summary } = post;
  const language = {
    lang: 1,
    menus: [],
    lists: { news: [[7]], announcements: [], lectures: [], visitingReceptions: [], historicalPersons: [] },
    listPages: { news: [[7]] },
    settledLatest: { news: [summary] },
    posts: { 7: post },
    pages: {},
  };
  const dir = mkdtempSync(join(tmpdir(), 'search-index-'));
  writeFileSync(join(dir, 'snapshot.json'), JSON.stringify({ pulledAt: '', apiBase: '', languages: Object.fromEntries(LANGUAGES.map((l) => [l.code, language])) }));
  return dir;
}

describe("the search index's thread", () => {
  it("makes every language's index from the snapshot, and a post is found by a word of its text", async () => {
    vi.stubEnv('CONTENT_DIR', snapshotDir());
    const built = await startSearchIndex().built;
    expect(built.languages.map((l) => l.lang)).toEqual(LANGUAGES.map((l) => l.code));
    expect(built.documents).toBe(LANGUAGES.length);
    const [first] = built.languages;
    const found = await searchIndex('oʻtkazildi', async (name) => JSON.parse(first!.index.get(name)!) as unknown);
    expect(found.map((r) => r.title)).toEqual(['Navroʻz sayllari']);
  });

  it('ends when the build stops it, and says it was stopped rather than failed', async () => {
    const index = startSearchIndex();
    await index.stop();
    await expect(index.built).rejects.toThrow('the search index was stopped');
  });
});
