/**
 * A pull told what changed reads lists only as far as the change reaches
 * (scripts/pipeline/pull/list-reading.ts), and ends with the snapshot a full pull of
 * the same API writes. Against the real sample API at some scale.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SampleApi } from '../../scripts/sample-api/server.ts';
import { pullContent, type AlongsideWriting } from '../../scripts/pipeline/pull/pull-content.ts';
import { removedFromTexts } from '../../scripts/pipeline/pull/content-report.ts';
import { removedElements } from '../../src/lib/editor-content.ts';
import { EARLIER_SNAPSHOT_FILES, parseSnapshot, SNAPSHOT_FILE, snapshotTexts, type Snapshot } from '../../src/content/snapshot.ts';
import { itemKey, type ContentChanges } from '../../src/content/changes.ts';
import { startTestApi } from '../helpers/sample-api.ts';
import { LANGUAGES } from '../../src/i18n/languages.ts';
import { BODIES_FOLDER, withoutBody } from '../../src/content/post-bodies.ts';

let api: SampleApi;
const dirs: string[] = [];
const tmp = () => {
  const d = mkdtempSync(join(tmpdir(), 'pull-'));
  dirs.push(d);
  return d;
};
const incremental = tmp();
beforeAll(async () => {
  api = await startTestApi('pull-lists', { scale: 300 });
  await pull(incremental, 'all');
}, 120_000);
afterAll(async () => {
  await api.close();
  dirs.forEach((d) => rmSync(d, { recursive: true, force: true }));
});

const pull = (contentDir: string, changes: ContentChanges) => pullContent({ apiBase: api.url, mediaBase: api.url, contentDir, changes, log: () => {} });
/** A pull with `alongside`, the work on its snapshot started before the snapshot's file is written. */
const pullBeside = <T>(contentDir: string, changes: ContentChanges, alongside: AlongsideWriting<T>) =>
  pullContent({ apiBase: api.url, mediaBase: api.url, contentDir, changes, log: () => {}, alongside });
const content = (dir: string) => {
  const s = parseSnapshot(readFileSync(join(dir, SNAPSHOT_FILE), 'utf8'), dir);
  return Object.fromEntries(
    Object.entries(s.languages).map(([code, c]) => [
      code,
      { lists: c.lists, posts: Object.keys(c.posts).sort(), digests: c.postDigests, files: c.postFiles, bodies: c.postBodies },
    ]),
  );
};
/** The snapshot the incremental pull wrote (into `dir`) is the one a full pull writes now. */
const expectSameAsFull = async (dir = incremental) => expect(content(dir)).toEqual(content((await pull(tmp(), 'all'), dirs.at(-1)!)));
const newsId = (offset: number) =>
  (api.db.prepare('SELECT id FROM posts WHERE type = 1 AND lang = 1 ORDER BY date DESC, id DESC LIMIT 1 OFFSET ?').get(offset) as { id: number }).id;

describe('a pull told what changed', () => {
  it('a new post: some 60 requests in four languages instead of every list page', async () => {
    const id = (api.db.prepare('SELECT max(id) AS m FROM posts').get() as { m: number }).m + 1;
    api.db.exec(`INSERT INTO posts SELECT ${id}, lang, type, (SELECT max(date) FROM posts), 0, image, title || ' (yangi)', brief, html FROM posts WHERE id = ${newsId(40)}`);
    const summary = await pull(incremental, [{ type: 'post', id }]);
    expect(summary.diff.added).toContain(`post:${id}@ru`);
    expect(summary.requests).toBeLessThanOrEqual(60);
    await expectSameAsFull();
  }, 120_000);

  it('an edited post deep in the list: one page of each list', async () => {
    const id = newsId(250);
    api.db.prepare("UPDATE posts SET title = title || ' (tahrir)' WHERE id = ?").run(id);
    const summary = await pull(incremental, [{ type: 'post', id }]);
    // Exactly the post, in each language: the items taken from the previous snapshot are not named.
    expect(summary.diff).toEqual({ added: [], changed: LANGUAGES.map((l) => `post:${id}@${l.code}`), removed: [] });
    expect(summary.snapshot).toStrictEqual(parseSnapshot(readFileSync(join(incremental, SNAPSHOT_FILE), 'utf8'), incremental));
    expect(summary.requests).toBeLessThanOrEqual(56);
    await expectSameAsFull();
  }, 120_000);

  it("a post's text edited to link a document and show a picture: its files are found again, as a full pull finds them", async () => {
    const id = newsId(30);
    const added = { textPictures: [`${api.url}/uploads/yangi-rasm.jpg`], documents: [`${api.url}/media/hujjatlar/yangi-qaror.pdf`] };
    api.db.prepare(`UPDATE posts SET html = html || '<p><img src="/uploads/yangi-rasm.jpg" alt=""><a href="/media/hujjatlar/yangi-qaror.pdf">Qaror</a></p>' WHERE id = ?`).run(id);
    const summary = await pull(incremental, [{ type: 'post', id }]);
    expect(Object.values(summary.snapshot.languages).map((c) => c.postFiles?.[id])).toEqual(LANGUAGES.map(() => added));
    // The other posts' files, taken from the previous pull, are the ones a full pull finds.
    await expectSameAsFull();
  }, 120_000);

  it("a post's text edited to hold a script and a form: the report names what the sanitiser removes from what the pull kept, as reading every text finds", async () => {
    const id = newsId(35);
    api.db.prepare(`UPDATE posts SET html = html || '<script>alert(1)</script><form><input></form>' WHERE id = ?`).run(id);
    const summary = await pull(incremental, [{ type: 'post', id }]);
    expect(Object.values(summary.snapshot.languages).map((c) => c.postFiles?.[id]?.removed)).toEqual(LANGUAGES.map(() => ({ script: 1, form: 1, input: 1 })));
    const report = removedFromTexts(summary.snapshot, api.url);
    expect(report.filter((r) => r.item.startsWith(`post:${id}@`)).map((r) => r.elements)).toEqual(LANGUAGES.map(() => ({ script: 1, form: 1, input: 1 })));
    // Every text read again finds the same.
    const everyText = [...snapshotTexts(summary.snapshot)].filter(({ html }) => Object.keys(removedElements(html(), api.url)).length).map(({ item }) => item);
    expect(report.map((r) => r.item)).toEqual([...new Set(everyText)].sort());
    await expectSameAsFull();
  }, 120_000);

  it('a deleted post and a post dated anew: read as far as they reach, with the same lists as a full pull', async () => {
    const deleted = newsId(120);
    const redated = newsId(200);
    api.db.prepare('DELETE FROM posts WHERE id = ?').run(deleted);
    api.db.prepare('UPDATE posts SET date = (SELECT max(date) FROM posts) WHERE id = ?').run(redated);
    const summary = await pull(incremental, [
      { type: 'post', id: deleted },
      { type: 'post', id: redated },
    ]);
    expect(summary.diff.removed).toContain(`post:${deleted}@uz-latn`);
    await expectSameAsFull();
  }, 120_000);

  it('a new post and a deleted one: the report names them and the lists, language by language, and nothing else', async () => {
    const deleted = newsId(130);
    const id = (api.db.prepare('SELECT max(id) AS m FROM posts').get() as { m: number }).m + 1;
    api.db.prepare('DELETE FROM posts WHERE id = ?').run(deleted);
    api.db.exec(`INSERT INTO posts SELECT ${id}, lang, type, (SELECT max(date) FROM posts), 0, image, title || ' (yangi)', brief, html FROM posts WHERE id = ${newsId(40)}`);
    const summary = await pull(incremental, [
      { type: 'post', id: deleted },
      { type: 'post', id },
    ]);
    expect(summary.diff).toEqual({
      added: LANGUAGES.map((l) => itemKey('post', l.code, id)),
      changed: LANGUAGES.map((l) => itemKey('lists', l.code)),
      removed: LANGUAGES.map((l) => itemKey('post', l.code, deleted)),
    });
    await expectSameAsFull();
  }, 120_000);

  it("a pull with another media base finds every post's files again", async () => {
    const summary = await pullContent({
      apiBase: api.url,
      mediaBase: 'https://media.example.uz',
      contentDir: incremental,
      changes: [{ type: 'post', id: newsId(10) }],
      log: () => {},
    });
    const urls = Object.values(summary.snapshot.languages).flatMap((c) => Object.values(c.postFiles ?? {}).flatMap((f) => [...f.textPictures, ...f.documents]));
    expect(urls.filter((url) => url.startsWith(api.url))).toEqual([]);
    expect(urls.filter((url) => url.startsWith('https://media.example.uz/')).length).toBeGreaterThan(4);
  }, 120_000);
});

describe('the work on the pulled snapshot beside the writing of its file', () => {
  it("starts before the snapshot's file is written, gets the snapshot and its changes, and is waited for", async () => {
    const dir = tmp();
    await pull(dir, 'all');
    const id = newsId(30);
    const before = readFileSync(join(dir, SNAPSHOT_FILE), 'utf8');
    let finished = false;
    const summary = await pullBeside(dir, [{ type: 'post', id }], async ({ snapshot, diff, written }) => {
      const fileThen = readFileSync(join(dir, SNAPSHOT_FILE), 'utf8');
      await written;
      const fileWritten = readFileSync(join(dir, SNAPSHOT_FILE), 'utf8');
      await new Promise((resolve) => setTimeout(resolve, 50));
      finished = true;
      return { fileThen, fileWritten, snapshot, diff };
    });
    expect(finished).toBe(true);
    expect(summary.alongside.fileThen).toBe(before);
    // What it writes beside the snapshot (the maps) it writes once the snapshot is in place.
    expect(JSON.parse(summary.alongside.fileWritten).pulledAt).toBe(summary.snapshot.pulledAt);
    expect(summary.alongside.snapshot).toBe(summary.snapshot);
    expect(summary.alongside.diff).toEqual(summary.diff);
    // Written after it began: the snapshot of this pull, with its time.
    expect(JSON.parse(readFileSync(join(dir, SNAPSHOT_FILE), 'utf8')).pulledAt).toBe(summary.snapshot.pulledAt);
    expect(summary.snapshot.pulledAt).not.toBe(JSON.parse(before).pulledAt);
  }, 120_000);

  it('tells a failure of the work beside it once the snapshot is written, whenever it fails', async () => {
    const dir = tmp();
    // Fails before anything is written: the picture store is not there.
    const summary = pullBeside(dir, 'all', async () => {
      throw new Error('the picture store cannot be made');
    });
    await expect(summary).rejects.toThrow('the picture store cannot be made');
    expect(existsSync(join(dir, SNAPSHOT_FILE))).toBe(true);
  }, 120_000);

  it("tells the snapshot's failure to be written, not the work's beside it, and leaves that work finished", async () => {
    const blocked = tmp();
    // Where the snapshot's file goes, a folder that holds something: it cannot be put there.
    mkdirSync(join(blocked, SNAPSHOT_FILE, 'x'), { recursive: true });
    let settled = false;
    const run = pullBeside(blocked, 'all', async ({ written }) => {
      await new Promise((resolve) => setTimeout(resolve, 50));
      settled = true;
      await written;
    });
    await expect(run).rejects.toThrow(/EISDIR|ENOTEMPTY|EEXIST|directory/i);
    expect(settled).toBe(true);
  }, 120_000);
});

describe('the posts and their bodies, in files of their own', () => {
  const groupFiles = (dir: string) => new Set(readdirSync(join(dir, BODIES_FOLDER)));
  const bodies = (snapshot: Snapshot) => Object.values(snapshot.languages).map((c) => Object.values(c.posts).map((p) => [p.id, p.html]));
  const posts = (snapshot: Snapshot) => Object.values(snapshot.languages).map((c) => Object.values(c.posts).map((p) => ({ ...p })));
  const modified = (dir: string) => new Map([...groupFiles(dir)].map((f) => [f, statSync(join(dir, BODIES_FOLDER, f)).mtimeMs]));

  it("a post's edit writes its group's two files again in each language and no other, the old ones go a pull later; the snapshot's file holds no post", async () => {
    const id = newsId(60);
    const before = modified(incremental);
    api.db.prepare("UPDATE posts SET html = html || '<p>Yangi xatboshi.</p>' WHERE id = ?").run(id);
    await pull(incremental, [{ type: 'post', id }]);
    const after = modified(incremental);
    const added = [...after.keys()].filter((f) => !before.has(f));
    expect(added.filter((f) => f.endsWith('.posts.json'))).toHaveLength(LANGUAGES.length);
    expect(added).toHaveLength(2 * LANGUAGES.length);
    // Every other group's files were left as they were, not written again.
    expect([...before].filter(([f, time]) => after.has(f) && after.get(f) !== time)).toEqual([]);
    // The previous snapshot's stay while a build started on it may still read them; the next pull removes them.
    expect([...before.keys()].filter((f) => !after.has(f))).toEqual([]);
    await pull(incremental, []);
    expect([...before.keys()].filter((f) => !groupFiles(incremental).has(f))).toHaveLength(2 * LANGUAGES.length);
    const text = readFileSync(join(incremental, SNAPSHOT_FILE), 'utf8');
    expect(Object.values((JSON.parse(text) as Snapshot).languages).filter((c) => 'posts' in c)).toEqual([]);
    // Read back, every post is the one a full pull reads from the API, with its body.
    const full = await pull(tmp(), 'all');
    const read = parseSnapshot(text, incremental);
    expect(read.languages.ru.posts[id]!.html).toContain('<p>Yangi xatboshi.</p>');
    expect(bodies(read)).toEqual(bodies(full.snapshot));
    expect(posts(read)).toEqual(posts(full.snapshot));
    await expectSameAsFull();
  }, 120_000);

  it("a group's file gone or cut short (a power lost): its posts are read again from the API and the file is written again", async () => {
    const names = [...groupFiles(incremental)];
    const [gone, cut] = names.filter((f) => !f.endsWith('.posts.json'));
    const [postsGone, postsCut, postsCutAtPost] = names.filter((f) => f.endsWith('.posts.json')).slice(-3);
    for (const file of [gone!, postsGone!]) rmSync(join(incremental, BODIES_FOLDER, file));
    for (const file of [cut!, postsCut!]) writeFileSync(join(incremental, BODIES_FOLDER, file), '');
    // Cut just after a post's closing brace: it ends as a whole file does.
    const atPost = join(incremental, BODIES_FOLDER, postsCutAtPost!);
    const whole = readFileSync(atPost, 'utf8');
    writeFileSync(atPost, whole.slice(0, whole.indexOf('},"') + 1));
    const summary = await pull(incremental, []);
    expect(groupFiles(incremental)).toContain(gone);
    expect(groupFiles(incremental)).toContain(postsGone);
    expect(readFileSync(atPost, 'utf8')).toBe(whole);
    // The same posts as before: nothing is said to have changed.
    expect(summary.diff).toEqual({ added: [], changed: [], removed: [] });
    const read = parseSnapshot(readFileSync(join(incremental, SNAPSHOT_FILE), 'utf8'), incremental);
    const full = await pull(tmp(), 'all');
    expect(bodies(read)).toEqual(bodies(full.snapshot));
    expect(posts(read)).toEqual(posts(full.snapshot));
    await expectSameAsFull();
  }, 120_000);

  /** Writes into `dir` the file the latest earlier version writes of the snapshot pulled into `from` (`content.json`, the posts in it); its path. */
  const writeAsEarlierVersion = (from: string, dir: string) => {
    const snapshot = parseSnapshot(readFileSync(join(from, SNAPSHOT_FILE), 'utf8'), from);
    const languages = Object.fromEntries(
      Object.entries(snapshot.languages).map(([code, c]) => [code, { ...c, posts: Object.fromEntries(Object.values(c.posts).map((p) => [p.id, withoutBody(p)])) }]),
    );
    const file = join(dir, EARLIER_SNAPSHOT_FILES.at(-1)!);
    writeFileSync(file, JSON.stringify({ ...snapshot, languages }));
    return file;
  };
  /** Dates a file a minute ahead: the newest of the snapshot's files. */
  const makeNewest = (file: string) => {
    const later = new Date(Date.now() + 60_000);
    utimesSync(file, later, later);
  };

  it("after an upgrade, reads the earlier version's snapshot (its posts in it) as the previous one, then removes it", async () => {
    const dir = tmp();
    await pull(dir, 'all');
    const earlier = writeAsEarlierVersion(dir, dir);
    rmSync(join(dir, SNAPSHOT_FILE));
    const id = newsId(20);
    api.db.prepare("UPDATE posts SET title = title || ' (yangilandi)' WHERE id = ?").run(id);
    const summary = await pull(dir, [{ type: 'post', id }]);
    // Told of one post, it reads one page of each list, not the whole archive again.
    expect(summary.requests).toBeLessThanOrEqual(56);
    expect(summary.diff).toEqual({ added: [], changed: LANGUAGES.map((l) => `post:${id}@${l.code}`), removed: [] });
    expect(existsSync(earlier)).toBe(false);
    await expectSameAsFull(dir);
  }, 120_000);

  it('after code rolled back pulled and was rolled forward again, reads what the earlier version pulled, not its own older file', async () => {
    const dir = tmp();
    await pull(dir, 'all');
    const id = newsId(25);
    api.db.prepare("UPDATE posts SET title = title || ' (orqaga qaytilganda)' WHERE id = ?").run(id);
    // What the earlier version writes when it pulls the edit: its file, the posts in it, and the bodies' files beside.
    const earlierPull = tmp();
    await pull(earlierPull, 'all');
    for (const name of readdirSync(join(earlierPull, BODIES_FOLDER))) writeFileSync(join(dir, BODIES_FOLDER, name), readFileSync(join(earlierPull, BODIES_FOLDER, name)));
    makeNewest(writeAsEarlierVersion(earlierPull, dir));
    // Rolled forward, told of nothing: the edit the earlier version pulled stays on the site.
    const summary = await pull(dir, []);
    expect(Object.values(summary.snapshot.languages).map((c) => c.posts[id]!.title.endsWith(' (orqaga qaytilganda)'))).toEqual(LANGUAGES.map(() => true));
    expect(content(dir)).toEqual(content(earlierPull));
  }, 120_000);

  it("removes the earlier versions' snapshots: code rolled back to one of them pulls everything; a damaged one, however new, is no previous snapshot", async () => {
    // An edit no webhook named: only a pull that reads everything sees it.
    api.db.prepare("UPDATE posts SET title = title || ' (hech kim aytmadi)' WHERE id = ?").run(newsId(15));
    for (const earlier of EARLIER_SNAPSHOT_FILES) writeFileSync(join(incremental, earlier), '{}');
    await pull(incremental, []);
    expect(EARLIER_SNAPSHOT_FILES.filter((earlier) => existsSync(join(incremental, earlier)))).toEqual([]);
    await expectSameAsFull();
  }, 120_000);

  it('after code older still (its snapshot.json) pulled and was rolled forward, pulls everything rather than trust its own older file', async () => {
    const dir = tmp();
    await pull(dir, 'all');
    api.db.prepare("UPDATE posts SET title = title || ' (eski kod)' WHERE id = ?").run(newsId(16));
    writeFileSync(join(dir, EARLIER_SNAPSHOT_FILES[0]), readFileSync(join(dir, SNAPSHOT_FILE)));
    makeNewest(join(dir, EARLIER_SNAPSHOT_FILES[0]));
    await pull(dir, []);
    await expectSameAsFull(dir);
  }, 120_000);
});
