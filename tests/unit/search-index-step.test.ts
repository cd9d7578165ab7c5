import { hash } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { brotliDecompressSync } from 'node:zlib';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startSearchIndex, storedSearchIndex } from '../../scripts/pipeline/search-index/search-index-step.ts';
import { indexFolder, searchIndex } from '../../src/features/search/search-index.ts';
import { LANGUAGES } from '../../src/i18n/languages.ts';
import { SNAPSHOT_FILE } from '../../src/content/snapshot.ts';

afterEach(() => {
  vi.unstubAllEnvs();
});

/** A snapshot of one news post a language (and `more` posts after it, with the pull's digests), in a folder of its own. */
function snapshotDir(dir = mkdtempSync(join(tmpdir(), 'search-index-')), more: number[] = []): string {
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
  const posts = [post, ...more.map((id) => ({ ...post, id, title: `Hashar ${id}`, html: `<p>Hashar ${id} oʻtkazildi.</p>` }))];
  const language = {
    lang: 1,
    menus: [],
    lists: { news: [posts.map((p) => p.id)], announcements: [], lectures: [], visitingReceptions: [], historicalPersons: [] },
    listPages: { news: [posts.map((p) => p.id)] },
    settledLatest: { news: [summary] },
    posts: Object.fromEntries(posts.map((p) => [p.id, p])),
    ...(more.length ? { postDigests: Object.fromEntries(posts.map((p) => [p.id, `digest of ${p.title}`])) } : {}),
    pages: {},
  };
  writeFileSync(join(dir, SNAPSHOT_FILE), JSON.stringify({ pulledAt: '', apiBase: '', languages: Object.fromEntries(LANGUAGES.map((l) => [l.code, language])) }));
  return dir;
}

/** A folder of its own for an index's store. */
const newStore = () => mkdtempSync(join(tmpdir(), 'search-index-store-'));
/** A file of a language's index as the store holds it. */
const storedFile = (store: string, lang: string) => async (name: string) => JSON.parse(readFileSync(join(store, lang, name), 'utf8')) as unknown;

describe("the search index's thread", () => {
  it("makes every language's index from the snapshot into its store, and a post is found by a word of its text", async () => {
    vi.stubEnv('CONTENT_DIR', snapshotDir());
    const store = newStore();
    const built = await startSearchIndex(store).built;
    expect(built.languages.map((l) => l.lang)).toEqual(LANGUAGES.map((l) => l.code));
    expect(built.documents).toBe(LANGUAGES.length);
    const [first] = built.languages;
    const found = await searchIndex('oʻtkazildi', storedFile(store, first!.lang));
    expect(found.map((r) => r.title)).toEqual(['Navroʻz sayllari']);
  });

  it('updates the index kept from the last build: only new and changed posts are read, only changed files written, and the files are those of an index made whole', async () => {
    const dir = snapshotDir(undefined, [8]);
    const kept = join(dir, 'cache', 'search-index.kept');
    const store = newStore();
    vi.stubEnv('CONTENT_DIR', dir);
    const first = await startSearchIndex(store, kept).built;
    expect([first.documents, first.made]).toEqual([2 * LANGUAGES.length, 2 * LANGUAGES.length]);
    const files = first.languages.reduce((n, l) => n + l.files.size, 0);
    expect(first.written).toBe(files);

    snapshotDir(dir, [8, 9]);
    const second = await startSearchIndex(store, kept).built;
    expect([second.documents, second.made]).toEqual([3 * LANGUAGES.length, LANGUAGES.length]);
    expect(second.written).toBeGreaterThan(0);
    expect(second.written).toBeLessThan(second.languages.reduce((n, l) => n + l.files.size, 0));
    // The same files, byte for byte (their hashes), as an index made whole.
    expect(second.languages).toEqual((await startSearchIndex(newStore()).built).languages);
    const found = await searchIndex('hashar', storedFile(store, second.languages[0]!.lang));
    expect(found.map((r) => r.title)).toEqual(['Hashar 9', 'Hashar 8']);

    const third = await startSearchIndex(store, kept).built;
    expect([third.made, third.written], 'nothing changed').toEqual([0, 0]);
    writeFileSync(kept, 'not an index');
    expect((await startSearchIndex(store, kept).built).made, 'a kept file that cannot be read').toBe(3 * LANGUAGES.length);

    // A kept file whose stated length is not its own (damaged, or another's) is not believed either; nor one as an
    // earlier version wrote it, the compressed index alone.
    const good = readFileSync(kept);
    const lengthAt = good.indexOf('\n') + 1;
    // A mark, the length of the index's bytes, then those bytes compressed (an earlier version wrote only these).
    expect(good.subarray(0, lengthAt).toString()).toBe('kept-index 2\n');
    expect(brotliDecompressSync(good.subarray(lengthAt + 4)).length).toBe(good.readUInt32LE(lengthAt));
    writeFileSync(kept, good.subarray(lengthAt + 4));
    expect((await startSearchIndex(store, kept).built).made, "an earlier version's kept file").toBe(3 * LANGUAGES.length);
    for (const stated of [good.readUInt32LE(lengthAt) - 1, good.readUInt32LE(lengthAt) + 1, 0xffffffff]) {
      const damaged = Buffer.from(good);
      damaged.writeUInt32LE(stated, lengthAt);
      writeFileSync(kept, damaged);
      expect((await startSearchIndex(store, kept).built).made, `a kept file that says ${stated} bytes`).toBe(3 * LANGUAGES.length);
      writeFileSync(kept, good);
      expect((await startSearchIndex(store, kept).built).made, 'the same file as written').toBe(0);
    }
  });

  it("names the store's files at their site paths, with the hashes of their bytes", async () => {
    vi.stubEnv('CONTENT_DIR', snapshotDir());
    const store = newStore();
    const built = await startSearchIndex(store).built;
    const stored = storedSearchIndex(store, built);
    expect(stored.files.size).toBe(built.languages.reduce((n, l) => n + l.files.size, 0));
    for (const { code } of LANGUAGES) expect([...stored.files.keys()].some((path) => path.startsWith(indexFolder(code)))).toBe(true);
    for (const { source, hash: fileHash } of stored.files.values()) expect(hash('sha256', readFileSync(source))).toBe(fileHash);
  });

  it('ends when the build stops it, and says it was stopped rather than failed', async () => {
    const index = startSearchIndex(newStore());
    await index.stop();
    await expect(index.built).rejects.toThrow('the search index was stopped');
  });
});
