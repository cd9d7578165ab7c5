/**
 * The build's last pass remembers what it found in each page between builds
 * (scripts/pipeline/finish/finish-step.ts). A rebuild that reuses those findings must
 * still fail on every broken reference a full check would find.
 */
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { DatabaseSync } from 'node:sqlite';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { ReusedPages } from '../../scripts/pipeline/astro/restore-output.ts';
import { finishBuild } from '../../scripts/pipeline/finish/finish-step.ts';
import { sha256 } from '../../scripts/pipeline/finish/precompress.ts';
import { KNOWN_INLINE_SCRIPTS, POLICY_FILES } from '../../scripts/pipeline/finish/csp.ts';
import { listFiles } from '../../scripts/lib/files.ts';
import { FRAGMENT_END, FRAGMENT_START, fragmentMarker } from '../../src/lib/fragments.ts';
import { releaseList } from '../../scripts/pipeline/publish/release-changes.ts';
import { diffByKey } from '../../scripts/lib/hash-diff.ts';

const work = mkdtempSync(join(tmpdir(), 'finish-build-'));
afterAll(() => rm(work, { recursive: true, force: true }));
const bases = { publicApiBase: 'https://api.example.uz', mediaBase: 'https://api.example.uz', siteUrl: 'https://example.uz', serviceWorker: false };
const memoFile = join(work, 'memo.db');
const compressCache = join(work, 'compressed');

/** A site as Astro leaves it: `pages` by site path. Each build gets a fresh folder, as a rebuild's staging does. */
let builds = 0;
function site(pages: Record<string, string>): string {
  const root = join(work, `build-${++builds}`);
  for (const [path, body] of Object.entries(pages)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), body);
  }
  return root;
}
const finish = (root: string) => finishBuild(root, bases, { compressCache, memoFile });
/** Pages Astro reused, kept at their site paths under `cache` (scripts/pipeline/astro/restore-output.ts). */
const reusedFrom = (cache: string, paths: string[]): ReusedPages =>
  new Map(paths.map((path) => [path, { source: join(cache, path), stat: statSync(join(cache, path), { bigint: true }) }]));

const page = (body: string) => `<!doctype html><html><head><link rel="stylesheet" href="/_astro/site.css"></head><body>${body}</body></html>`;
const clean = {
  '/_astro/site.css': 'p{}',
  '/index.html': page('<a href="/news/">Yangiliklar</a> <a href="/news/#photos">Suratlar</a>'),
  '/news/index.html': page('<h1 id="top">Yangiliklar</h1><section id="photos"></section><a href="/news/1/">Birinchi</a> <a href="#top">Tepaga</a>'),
  '/news/1/index.html': page('<h1>Birinchi</h1><a href="/">Bosh sahifa</a>'),
};

describe('the last pass between builds', () => {
  it('reuses the findings for pages that did not change, with the same result as a full check', async () => {
    rmSync(memoFile, { force: true });
    const first = await finish(site(clean));
    expect(first.links.broken).toEqual([]);
    expect(first.remembered).toBe(0);
    const second = await finish(site(clean));
    expect(second.remembered).toBe(3);
    expect(second.links).toEqual(first.links);
    expect(second.hashes).toEqual(first.hashes);
  });

  it('allows in the policy the inline scripts of pages whose findings it reuses, as a full check does', async () => {
    const [one, two] = [...KNOWN_INLINE_SCRIPTS];
    const scripted = {
      ...clean,
      '/index.html': page(`<a href="/news/">Yangiliklar</a><script>${one}</script>`),
      '/news/1/index.html': page(`<h1>Birinchi</h1><a href="/">Bosh sahifa</a><script>${two}</script>`),
    };
    rmSync(memoFile, { force: true });
    const policyOf = (root: string) => readFileSync(join(root, POLICY_FILES[0]), 'utf8');
    const firstRoot = site(scripted);
    await finish(firstRoot);
    const secondRoot = site(scripted);
    expect((await finish(secondRoot)).remembered).toBe(3);
    expect(policyOf(secondRoot)).toBe(policyOf(firstRoot));
    for (const script of [one!, two!]) expect(policyOf(secondRoot)).toContain(`'sha256-${createHash('sha256').update(script).digest('base64')}'`);
  });

  it('still finds an anchor that lost its target in a page that did not change', async () => {
    await finish(site(clean));
    const result = await finish(site({ ...clean, '/news/index.html': page('<h1 id="top">Yangiliklar</h1><a href="/news/1/">Birinchi</a> <a href="#top">Tepaga</a>') }));
    expect(result.remembered).toBe(2);
    expect(result.links.broken).toEqual(['index.html: /news/#photos (no element with that id)']);
  });

  it('checks afresh the pages that referred to a file that has gone, and only those', async () => {
    await finish(site(clean));
    const { ['/news/1/index.html']: _gone, ...rest } = clean;
    const result = await finish(site(rest));
    // The home page refers to /news/ and the stylesheet only: its findings hold.
    expect(result.remembered).toBe(1);
    expect(result.links.broken).toEqual(['news/index.html: /news/1/']);
  });

  it('a picture that has gone, named in a srcset of an unchanged page, is found', async () => {
    const withPicture = {
      ...clean,
      '/_astro/p-320.webp': 'w',
      '/_astro/p-640.webp': 'w',
      '/news/1/index.html': page('<img src="/_astro/p-320.webp" srcset="/_astro/p-320.webp 320w, /_astro/p-640.webp 640w" alt="">'),
    };
    await finish(site(withPicture));
    const { ['/_astro/p-640.webp']: _gone, ...rest } = withPicture;
    const result = await finish(site(rest));
    expect(result.remembered).toBe(2);
    expect(result.links.broken).toEqual(['news/1/index.html: /_astro/p-640.webp']);
  });

  it('checks a changed page afresh', async () => {
    await finish(site(clean));
    const result = await finish(site({ ...clean, '/news/1/index.html': page('<a href="/ru/">Русский</a>') }));
    expect(result.remembered).toBe(2);
    expect(result.links.broken).toEqual(['news/1/index.html: /ru/']);
  });

  it('remembers nothing from a build that failed its check', async () => {
    const broken = { ...clean, '/index.html': page('<a href="/yoq/">Yoʻq</a>') };
    expect((await finish(site(broken))).links.broken).toEqual(['index.html: /yoq/']);
    // The same broken page again: found again, not taken from a memo of the failed build;
    // the two unchanged pages come from the last clean build's memo.
    const again = await finish(site(broken));
    expect(again.links.broken).toEqual(['index.html: /yoq/']);
    expect(again.remembered).toBe(2);
  });

  /** Runs `sql` on the memo the last build left. */
  const inMemo = (sql: string) => {
    const db = new DatabaseSync(memoFile);
    db.exec(sql);
    db.close();
  };
  it('checks every page again when the memo file is not one, and remembers them after', async () => {
    await finish(site(clean));
    writeFileSync(memoFile, 'not a memo');
    expect(await finish(site(clean))).toMatchObject({ remembered: 0, links: { broken: [] } });
    expect((await finish(site(clean))).remembered).toBe(3);
  });

  for (const [what, column, text] of [
    ['cannot be read', 'memo', `'{"cut short'`],
    ['is not what the pass wrote', 'memo', `'{"stamp":1,"findings":{}}'`],
    ['has no findings', 'memo', `json_set(memo, '$.findings', json('null'))`],
    ['lacks the link check', 'memo', `json_remove(memo, '$.findings.links')`],
    ['has a link check that is not one', 'memo', `json_set(memo, '$.findings.links', json('{"checked":1}'))`],
    ['names an inline script the site has not', 'memo', `json_set(memo, '$.findings.scripts', '0 999')`],
    ['names inline scripts with a space too many', 'memo', `json_set(memo, '$.findings.scripts', ' ')`],
    ['has a detail that cannot be read', 'detail', `'{"cut short'`],
    ['has a detail without the hash of its bytes', 'detail', `json_remove(detail, '$.raw')`],
    ['has a detail whose references are not a filter', 'detail', `json_set(detail, '$.refersTo.links', 7)`],
    ['has a detail of another writing than its memo', 'detail', `json_set(detail, '$.stamp', '1:2:3')`],
  ]) {
    it(`checks a page again when its row in the memo ${what}, and remembers it after`, async () => {
      await finish(site(clean));
      inMemo(`UPDATE page_rows SET ${column} = ${text} WHERE path = '/news/index.html'`);
      const root = site(clean);
      expect(await finish(root)).toMatchObject({ remembered: 2, links: { broken: [] } });
      expect(readFileSync(join(root, POLICY_FILES[0]), 'utf8')).not.toContain('undefined');
      expect((await finish(site(clean))).remembered).toBe(3);
    });
  }

  it('checks every page when the memo has lost the list of files it was made for: a page referring to one gone since is found', async () => {
    await finish(site(clean));
    inMemo("DELETE FROM memo WHERE key = 'files'");
    const { ['/news/1/index.html']: _gone, ...rest } = clean;
    expect(await finish(site(rest))).toMatchObject({ remembered: 0, links: { broken: ['news/index.html: /news/1/'] } });
  });

  it('publishes without a memo when its place cannot be a memo nor be removed (a folder)', async () => {
    const folder = join(work, 'memo-folder');
    mkdirSync(join(folder, 'inside'), { recursive: true });
    for (let i = 0; i < 2; i++) {
      const built = await finishBuild(site(clean), bases, { compressCache, memoFile: folder });
      expect(built).toMatchObject({ remembered: 0, links: { broken: [] } });
    }
    expect(existsSync(join(folder, 'inside'))).toBe(true);
  });

  it('publishes when the memo cannot be written, and checks every page in the next build', async () => {
    await finish(site(clean));
    inMemo("CREATE TRIGGER refuse BEFORE INSERT ON page_rows BEGIN SELECT RAISE(ABORT, 'database or disk is full'); END");
    const edited = { ...clean, '/news/1/index.html': page('<h1>Birinchi, tuzatilgan</h1><a href="/">Bosh sahifa</a>') };
    expect(await finish(site(edited))).toMatchObject({ remembered: 2, links: { broken: [] } });
    expect(await finish(site(edited))).toMatchObject({ remembered: 0, links: { broken: [] } });
    expect((await finish(site(edited))).remembered).toBe(3);
  });

  it('tells what changed since the previous release as the two file lists say: pages and their compressed copies changed, added, gone', async () => {
    const about = { '/about/index.html': page('<h1>Tuman haqida</h1><a href="/">Bosh sahifa</a>') };
    const firstRoot = site({ ...clean, ...about });
    const first = await finish(firstRoot);
    expect(first.sincePrevious).toEqual({ added: Object.keys(first.hashes), changed: [], removed: [] });
    const since = async (pages: Record<string, string>) => {
      const built = await finishBuild(site(pages), bases, { compressCache, memoFile, previousRelease: { root: firstRoot, hashes: first.hashes } });
      // In the same order as the two lists compared, which the release's changes record is written in.
      expect(built.sincePrevious).toEqual(diffByKey(first.hashes, built.hashes));
      const sorted = (d: typeof built.sincePrevious) => ({ added: [...d.added].sort(), changed: [...d.changed].sort(), removed: [...d.removed].sort() });
      return sorted(built.sincePrevious);
    };
    // Nothing changed, nothing gone.
    expect(await since({ ...clean, ...about })).toEqual({ added: [], changed: [], removed: [] });
    const changed = {
      ...clean,
      '/news/1/index.html': page('<h1>Birinchi (tahrir)</h1><a href="/">Bosh sahifa</a>'),
      '/news/2/index.html': page('<h1>Ikkinchi</h1><a href="/">Bosh sahifa</a>'),
    };
    const found = await since(changed);
    expect(found.changed).toContain('/news/1/index.html');
    expect(found.added).toContain('/news/2/index.html');
    expect(found.removed).toEqual(
      Object.keys(first.hashes)
        .filter((path) => path.startsWith('/about/'))
        .sort(),
    );
    expect(found.removed).toContain('/about/index.html');
    expect(found.removed.length).toBeGreaterThan(1);
    // A folder an earlier pass finished, its compressed copies still in it, settles those twice: the same answer.
    cpSync(firstRoot, `${firstRoot}-again`, { recursive: true });
    rmSync(`${firstRoot}-again/about`, { recursive: true });
    const again = await finishBuild(`${firstRoot}-again`, bases, { compressCache, previousRelease: { root: firstRoot, hashes: first.hashes } });
    expect(again.sincePrevious).toEqual(diffByKey(first.hashes, again.hashes));
    expect(again.sincePrevious.removed).toContain('/about/index.html');
  });

  it('keeps working without a memo file', async () => {
    const root = site(clean);
    cpSync(root, `${root}-copy`, { recursive: true });
    const result = await finishBuild(`${root}-copy`, bases, { compressCache });
    expect(result.remembered).toBe(0);
    expect(result.links.broken).toEqual([]);
  });

  it('a new side list changes every page that carries it, without checking those pages again', async () => {
    const side = (items: string) => page(`${FRAGMENT_START}<ul>${items}</ul>${FRAGMENT_END}`);
    const withList = (items: string) => ({
      ...clean,
      '/fragment/latest/news/index.html': side(items),
      '/news/1/index.html': page(`<h1>Birinchi</h1><a href="/">Bosh sahifa</a>${fragmentMarker('latest-news@uz-latn')}`),
    });
    await finish(site(withList('<li><a href="/news/1/">Birinchi</a></li>')));
    const root = site(withList('<li><a href="/news/1/">Birinchi</a></li><li><a href="/news/">Hammasi</a></li>'));
    const result = await finish(root);
    expect(result.links.broken).toEqual([]);
    expect(result.remembered).toBe(3);
    const spliced = readFileSync(join(root, 'news/1/index.html'), 'utf8');
    expect(spliced).toContain('<li><a href="/news/">Hammasi</a></li>');
    expect(spliced).not.toContain('<!--fragment:');
    // A broken reference in the list is found once, in the fragment.
    const broken = await finish(site(withList('<li><a href="/news/9/">Yoʻq</a></li>')));
    expect(broken.links.broken).toEqual(['fragment/latest/news/index.html: /news/9/']);
    // The list stands in pages at every depth: a relative reference would mean something else in each.
    await expect(finish(site(withList('<li><a href="news/1/">Birinchi</a></li>')))).rejects.toThrow(/relative reference, "news\/1\/"/);
  });

  it('a pass that fails ends its process: no compression thread is left holding it open', async () => {
    // As the rebuild runs the build, in a process of its own that must exit for the rebuild to go on.
    const root = site({ ...clean, '/fragment/latest/news/index.html': page(`${FRAGMENT_START}<a href="news/">x</a>${FRAGMENT_END}`) });
    const script = `import { finishBuild } from ${JSON.stringify(new URL('../../scripts/pipeline/finish/finish-step.ts', import.meta.url).href)};
      await finishBuild(${JSON.stringify(root)}, ${JSON.stringify(bases)}, { compressCache: ${JSON.stringify(compressCache)} }).catch((e) => { console.error(e.message); process.exitCode = 3; });`;
    // A file, not `--input-type=module -e`: the compression threads take the process's flags, and that one stops them.
    const file = join(work, 'failing-pass.mjs');
    writeFileSync(file, script);
    const ended = await new Promise<{ code: number | null; killed: boolean; stderr: string }>((resolve) => {
      const child = execFile(process.execPath, [file], { timeout: 60_000 }, (_error, _out, stderr) => resolve({ code: child.exitCode, killed: child.killed, stderr }));
    });
    expect(ended.killed).toBe(false);
    expect(ended.code).toBe(3);
    expect(ended.stderr).toMatch(/relative reference/);
  }, 90_000);

  it("places the pages Astro reused from its cache, each in a file of its own, never writing through the cache's copies", async () => {
    // As Astro leaves reused pages (scripts/pipeline/astro/restore-output.ts): not in the folder, noted with their cache copies.
    const astroCache = join(work, 'astro-cache');
    const side = page(`${FRAGMENT_START}<ul><li><a href="/">Bosh sahifa</a></li></ul>${FRAGMENT_END}`);
    const carrier = page(`<h1>Birinchi</h1>${fragmentMarker('latest-news@uz-latn')}`);
    const cached = { '/news/1/index.html': carrier, '/news/index.html': clean['/news/index.html'], '/fragment/latest/news/index.html': side };
    for (const [path, body] of Object.entries(cached)) {
      mkdirSync(dirname(join(astroCache, path)), { recursive: true });
      writeFileSync(join(astroCache, path), body);
    }
    const root = site({ '/_astro/site.css': clean['/_astro/site.css'], '/index.html': clean['/index.html'] });
    const built = await finishBuild(root, bases, { compressCache, memoFile, reused: reusedFrom(astroCache, Object.keys(cached)) });
    expect(built.links.broken).toEqual([]);
    // The spliced page and the page kept as it was both stand apart from the cache, which keeps Astro's bytes.
    expect(readFileSync(join(root, 'news/1/index.html'), 'utf8')).toContain('Bosh sahifa</a></li></ul>');
    expect(readFileSync(join(root, 'news/index.html'), 'utf8')).toBe(cached['/news/index.html']);
    expect(existsSync(join(root, 'fragment'))).toBe(false);
    for (const [path, body] of Object.entries(cached)) {
      expect(readFileSync(join(astroCache, path), 'utf8')).toBe(body);
      if (path.startsWith('/fragment/')) continue;
      expect(statSync(join(root, path)).nlink, path).toBe(1);
      expect(statSync(join(root, path)).ino).not.toBe(statSync(join(astroCache, path)).ino);
    }
  });
});

describe("Astro's reuse of pages", () => {
  it("does not read a page that is Astro's unchanged cache entry, and reads it again once Astro rewrote it in place", async () => {
    const astroCache = join(work, 'astro-cache-stamps');
    const cachedPage = join(astroCache, 'news/1/index.html');
    mkdirSync(dirname(cachedPage), { recursive: true });
    writeFileSync(cachedPage, page('<h1>Birinchi</h1><a href="/">Bosh sahifa</a>'));
    // Each build after the previous one, as a rebuild runs: an unchanged page's .br comes from it.
    let previousRelease: { root: string; hashes: Record<string, string> } | undefined;
    const roots: string[] = [];
    const build = async () => {
      const { '/news/1/index.html': _reused, ...written } = clean;
      const root = site(written);
      const built = await finishBuild(root, bases, { compressCache, memoFile, previousRelease, reused: reusedFrom(astroCache, ['/news/1/index.html']) });
      roots.push(root);
      previousRelease = { root, hashes: built.hashes };
      return built;
    };
    rmSync(memoFile, { force: true });
    expect((await build()).pagesRead).toBe(3);
    // The three other pages are new files each time, as pages Astro renders are.
    const again = await build();
    expect(again).toMatchObject({ remembered: 3, pagesRead: 2 });
    // Unchanged since the previous release: placed as a link to its file.
    const placed = roots.map((root) => statSync(join(root, 'news/1/index.html')).ino);
    expect(placed[1]).toBe(placed[0]);
    expect(again.links.broken).toEqual([]);
    // What the memo keeps apart (the hash of its bytes, what it refers to) is not needed for a page left unread.
    const db = new DatabaseSync(memoFile);
    db.exec(`UPDATE page_rows SET detail = '{"cut short' WHERE path = '/news/1/index.html'`);
    db.close();
    expect(await build()).toMatchObject({ remembered: 3, pagesRead: 2, links: { broken: [] } });
    // Rendered again: the same inode and size, other bytes, a later time.
    const before = statSync(cachedPage);
    writeFileSync(cachedPage, page('<h1>Birinchi</h1><a href="/x">Bosh sahif</a>'));
    expect(statSync(cachedPage).size).toBe(before.size);
    const later = new Date(Date.now() + 5_000);
    utimesSync(cachedPage, later, later);
    const rewritten = await build();
    expect(rewritten.pagesRead).toBe(3);
    expect(rewritten.links.broken).toEqual(['news/1/index.html: /x']);
  });
  it('reads an unread page when a file it refers to has gone, and only then', async () => {
    const astroCache = join(work, 'astro-cache-gone');
    mkdirSync(join(astroCache, 'news/1'), { recursive: true });
    writeFileSync(join(astroCache, 'news/1/index.html'), clean['/news/1/index.html']);
    const { '/news/1/index.html': _reused, ...written } = clean;
    // Each build after the previous one, as a rebuild runs.
    let previousRelease: { root: string; hashes: Record<string, string> } | undefined;
    const build = async (pages: Record<string, string>) => {
      const root = site(pages);
      const built = await finishBuild(root, bases, { compressCache, memoFile, previousRelease, reused: reusedFrom(astroCache, ['/news/1/index.html']) });
      previousRelease = { root, hashes: built.hashes };
      return built;
    };
    rmSync(memoFile, { force: true });
    const withNote = { ...written, '/note.txt': 'eslatma' };
    await build(withNote);
    expect(await build(withNote)).toMatchObject({ remembered: 3, pagesRead: 2 });
    // A file it does not refer to: the page stays unread.
    expect(await build(written)).toMatchObject({ remembered: 3, pagesRead: 2, links: { broken: [] } });
    // The home page, which it links to: it is read and checked again.
    const { '/index.html': _home, ...withoutHome } = written;
    expect(await build(withoutHome)).toMatchObject({ remembered: 1, pagesRead: 2, links: { broken: ['news/1/index.html: /'] } });
  });
});

describe('a release made in an older one', () => {
  /** Every file under `root` (site path) with its bytes. */
  const tree = (root: string) => Object.fromEntries(listFiles(root).map((f) => [f.slice(root.length), readFileSync(f, 'base64')]));

  it('writes only what differs, never through a file the kept releases share, and ends as a fresh build does', async () => {
    const before = { ...clean, '/news/2/index.html': page('<h1>Ikkinchi</h1><a href="/">Bosh sahifa</a>') };
    const { '/news/2/index.html': _gone, ...rest } = before;
    const after = { ...rest, '/news/1/index.html': page('<h1>Birinchi, tahrir</h1><a href="/">Bosh sahifa</a>'), '/news/3/index.html': page('<h1>Uchinchi</h1>') };
    // The older release, and the served one made from it (its unchanged files are links to the older one's).
    const older = site(before);
    const olderHashes = (await finishBuild(older, bases, { compressCache })).hashes;
    const served = site(before);
    const servedHashes = (await finishBuild(served, bases, { compressCache, previousRelease: { root: older, hashes: olderHashes } })).hashes;
    const shared = statSync(join(served, 'news/1/index.html')).ino;
    expect(statSync(join(older, 'news/1/index.html')).ino).toBe(shared);
    const untouched = statSync(join(older, 'index.html'));

    const built = await finishBuild(site(after), bases, {
      compressCache,
      previousRelease: { root: served, hashes: servedHashes },
      into: { root: older, hashes: releaseList(olderHashes) },
    });
    const fresh = site(after);
    const expected = await finishBuild(fresh, bases, { compressCache });
    expect(built.hashes).toEqual(expected.hashes);
    expect(tree(older)).toEqual(tree(fresh));
    // Unchanged: not even replaced. Changed: a new file; the served release keeps its bytes.
    expect(statSync(join(older, 'index.html')).ino).toBe(untouched.ino);
    expect(statSync(join(older, 'index.html')).mtimeMs).toBe(untouched.mtimeMs);
    expect(statSync(join(older, 'news/1/index.html')).ino).not.toBe(shared);
    expect(readFileSync(join(served, 'news/1/index.html'), 'utf8')).toBe(before['/news/1/index.html']);
    // The page that has gone leaves no empty folder behind.
    expect(existsSync(join(older, 'news/2'))).toBe(false);
  });

  it('keeps the reused pages it already holds as they are, each with its compressed copies, and still reports what they show', async () => {
    const astroCache = join(work, 'astro-cache-older');
    const cached = {
      '/news/1/index.html': page('<h1>Birinchi</h1><a href="/news/404/" data-editor-link>eski havola</a>'),
      '/news/2/index.html': page('<h1>Ikkinchi</h1><a href="/">Bosh sahifa</a>'),
    };
    for (const [path, body] of Object.entries(cached)) {
      mkdirSync(dirname(join(astroCache, path)), { recursive: true });
      writeFileSync(join(astroCache, path), body);
    }
    const { '/news/1/index.html': _reused, ...written } = clean;
    const memo = join(work, 'memo-older.db');
    const build = async (options: Parameters<typeof finishBuild>[2] = {}) => {
      const root = site(written);
      const built = await finishBuild(root, bases, { compressCache, memoFile: memo, reused: reusedFrom(astroCache, Object.keys(cached)), ...options });
      return { ...built, root };
    };
    const older = await build();
    const served = await build({ previousRelease: older });
    // The older release lacks one page's compressed copy: that page is placed again, the other left as it is.
    rmSync(join(older.root, 'news/2/index.html.br'));
    const { '/news/2/index.html.br': _lost, ...olderHashes } = older.hashes;
    const kept = statSync(join(older.root, 'news/1/index.html.br'));

    const made = await build({ previousRelease: served, into: { root: older.root, hashes: releaseList(olderHashes) } });
    const fresh = site(written);
    expect(made.hashes).toEqual((await finishBuild(fresh, bases, { compressCache, reused: reusedFrom(astroCache, Object.keys(cached)) })).hashes);
    expect(tree(older.root)).toEqual(tree(fresh));
    expect(statSync(join(older.root, 'news/1/index.html.br')).ino).toBe(kept.ino);
    expect(made.links.deadEditorLinks).toEqual([{ page: '/news/1/', link: '/news/404/' }]);
    // Only the two pages Astro wrote anew are read.
    expect(made.pagesRead).toBe(2);
    // What the build reports: each file the older release held with these bytes kept, each compressed copy made or reused.
    expect(made.keptFromOlder).toBe(Object.keys(made.hashes).filter((path) => olderHashes[path] === made.hashes[path]).length);
    expect(made.compressed.made + made.compressed.reused).toBe(Object.keys(made.hashes).filter((path) => /\.(br|gz)$/.test(path)).length);
  });

  it("places a store's files as links to the store, hashed as the store says, never moving them out of it", async () => {
    const store = join(work, 'store');
    mkdirSync(store, { recursive: true });
    const inStore = (name: string, bytes: string) => {
      writeFileSync(join(store, name), bytes);
      return { source: join(store, name), hash: sha256(bytes) };
    };
    const [a, b] = [inStore('a.webp', 'AAAA'), inStore('b.webp', 'BBBB')];
    const pages = { ...clean, '/news/1/index.html': page('<img src="/_astro/pictures/a.webp" alt=""><img src="/_astro/pictures/b.webp" alt="">') };
    const older = site(pages);
    const first = await finishBuild(older, bases, {
      compressCache,
      stored: new Map([
        ['/_astro/pictures/a.webp', a],
        ['/_astro/pictures/b.webp', b],
      ]),
    });
    expect(first.links.broken).toEqual([]);
    expect(first.hashes['/_astro/pictures/a.webp']).toBe(a.hash);
    expect(statSync(join(older, '_astro/pictures/a.webp')).ino).toBe(statSync(a.source).ino);

    // b drawn again: the store holds it in a new file.
    const redrawn = inStore('b-2.webp', 'BBBB, drawn again');
    const stored = new Map([
      ['/_astro/pictures/a.webp', a],
      ['/_astro/pictures/b.webp', redrawn],
    ]);
    const built = await finishBuild(site(pages), bases, { compressCache, stored, into: { root: older, hashes: releaseList(first.hashes) } });
    const fresh = site(pages);
    expect(built.hashes).toEqual((await finishBuild(fresh, bases, { compressCache, stored })).hashes);
    expect(tree(older)).toEqual(tree(fresh));
    expect(statSync(join(older, '_astro/pictures/a.webp')).ino).toBe(statSync(a.source).ino);
    expect(statSync(join(older, '_astro/pictures/b.webp')).ino).toBe(statSync(redrawn.source).ino);
    expect([a, b, redrawn].map((f) => readFileSync(f.source, 'utf8'))).toEqual(['AAAA', 'BBBB', 'BBBB, drawn again']);
  });
});
