/**
 * Incremental correctness of `rebuild` against the real sample API: a chain of
 * rebuilds into its own releases folder, editing the API's database between
 * them the way an editor would. After each, the published release must be
 * exactly what a cold build of the same snapshot writes: the same files, the
 * same bytes. That is what makes every shortcut of the rebuild safe.
 */
import { execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, lstatSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { mkdir, readdir, readFile, readlink, rm } from 'node:fs/promises';
import { join, relative, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SampleApi } from '../../scripts/sample-api/server.ts';
import { checkLinks } from '../../scripts/pipeline/finish/link-check.ts';
import { rebuild, type RebuildReport } from '../../scripts/pipeline/rebuild.ts';
import { readFreshness } from '../../scripts/webhook/freshness.ts';
import { listFiles } from '../../scripts/lib/files.ts';
import { startTestApi } from '../helpers/sample-api.ts';
import { htmlErrors } from '../helpers/html-checker.ts';
import { policyHelper, type PolicyHelper } from '../helpers/load-policy.ts';
import { startNginx, startVarnish, type Edge, type Nginx } from '../helpers/web-servers.ts';
import { foldersUnder } from '../../src/config.ts';

const WORK = '.cache/test-rebuild';
const FOLDERS = foldersUnder(WORK);
const RELEASES = FOLDERS.RELEASES_DIR;
let api: SampleApi;
/** deploy/nginx.conf serving the published release, and deploy/varnish.vcl in front of it, from the edge test on. */
let origin: Nginx | undefined;
let edge: Edge | undefined;
/** Root's policy helper, which the rebuild hands each policy to (POLICY_COMMAND), writing into the test's folder. */
let root: PolicyHelper;
const saved = { ...process.env };

beforeAll(async () => {
  await rm(WORK, { recursive: true, force: true });
  await mkdir(`${WORK}/root`, { recursive: true });
  root = policyHelper(resolve(WORK, 'root'));
  api = await startTestApi('rebuild');
  Object.assign(process.env, {
    API_BASE: api.url,
    SITE_URL: 'http://localhost:4321',
    // hCaptcha's public test key: rebuild refuses to publish without a key.
    HCAPTCHA_SITEKEY: '10000000-ffff-ffff-ffff-000000000001',
    // Every folder of the build under one, as a district's on a server of several.
    ...FOLDERS,
    POLICY_COMMAND: `${root.path} qorakul`,
  });
});
afterAll(async () => {
  process.env = saved;
  await edge?.close();
  await origin?.close();
  await api.close();
});

const release = (r: RebuildReport, path: string) => join(RELEASES, r.release, path);

/**
 * Builds the snapshot the last rebuild pulled from scratch into folders of its
 * own (no incremental cache, no compression cache; the pictures the pull drew
 * are the store's, as drawing them again changes nothing but the time) and
 * returns the paths whose bytes differ from the release, and the paths only
 * one of them has.
 */
async function differencesFromCold(r: RebuildReport, name: string, dir = `${WORK}/cold-${name}`): Promise<string[]> {
  await rm(dir, { recursive: true, force: true });
  await mkdir(`${dir}/astro`, { recursive: true });
  await promisify(execFile)(process.execPath, ['scripts/build.ts', '--skip-pull'], {
    env: { ...process.env, OUT_DIR: `${dir}/site`, ASTRO_CACHE_DIR: `${dir}/astro`, COMPRESS_CACHE_DIR: `${dir}/compressed` },
    maxBuffer: 64 * 1024 * 1024,
  });
  const tree = (root: string) => new Set(listFiles(root).map((f) => relative(root, f)));
  const published = tree(release(r, ''));
  const cold = tree(`${dir}/site`);
  const differences = [...published].filter((p) => !cold.has(p)).map((p) => `only in the release: ${p}`);
  differences.push(...[...cold].filter((p) => !published.has(p)).map((p) => `only in the cold build: ${p}`));
  for (const p of published) {
    if (cold.has(p) && !(await readFile(release(r, p))).equals(await readFile(join(dir, 'site', p)))) differences.push(`different bytes: ${p}`);
  }
  await rm(dir, { recursive: true, force: true });
  return differences.sort();
}
const html = (r: RebuildReport, path: string) => readFileSync(release(r, path), 'utf8');
/** Every file the sitemap's index lists, one after the other. */
const sitemapOf = (r: RebuildReport) => [...html(r, 'sitemap-index.xml').matchAll(/<loc>[a-z]+:\/\/[^/]+\/([^<]+)<\/loc>/g)].map((m) => html(r, m[1]!)).join('');
const LANG_PREFIXES = ['', '/uz-cyrl', '/ru', '/en'];

describe('rebuild', () => {
  let first: RebuildReport;
  let edited: RebuildReport;
  let postId: number;
  let menu: RebuildReport;
  /** An older post, on a numbered list page, and the new post published in the webhook's rebuild. */
  let archived: { id: number; newest: number };
  /** A recent post deleted by the webhook's rebuild, still named in the archive's side lists until the nightly one. */
  let removedRecent: number;

  it('publishes a first complete release', async () => {
    first = await rebuild('all');
    expect(first.previous).toBeNull();
    expect(first.build.pages).toBeGreaterThan(400);
    expect(await readlink(join(RELEASES, 'current'))).toBe(first.release);
    expect(existsSync(release(first, 'index.html.br'))).toBe(true);
    // Root's helper was handed the policy of this release, and wrote it where nginx reads it.
    const policy = readFileSync(release(first, 'content-security-policy.txt'), 'utf8').trim();
    expect(readFileSync(join(root.dir, 'qorakul.conf'), 'utf8')).toBe(`add_header Content-Security-Policy "${policy}" always;\n`);
    // Its reports name internal addresses and errors: the service's user and group may read them, nobody else.
    for (const report of ['last-report.json', `reports/${first.id}.json`, `reports/${first.id}.files.json`]) {
      expect(statSync(join(RELEASES, report)).mode & 0o777, report).toBe(0o640);
    }
    // A cold build draws every picture and compresses every file: generous on a busy 2-core machine.
  }, 600_000);

  it('re-renders only the pages that show an edited post, in all four languages', async () => {
    // The 21st newest of 28 news items: on numbered page 1 (the oldest ten), not on the list's first page, the home page or in the side lists.
    postId = (api.db.prepare('SELECT id FROM posts WHERE type = 1 AND lang = 1 ORDER BY date DESC, id DESC LIMIT 1 OFFSET 20').get() as { id: number }).id;
    api.db.prepare("UPDATE posts SET title = 'Yangilangan sarlavha ' || lang, html = html || '<p>Yangi xatboshi.</p>' WHERE id = ?").run(postId);
    edited = await rebuild([{ type: 'post', id: postId }]);
    expect(edited.previous).toBe(first.release);
    // Told what changed, the pull fetches the lists again but only that post's details.
    expect(edited.pull.requests).toBeLessThan(first.pull.requests / 2);
    expect(edited.pull.changed).toEqual(expect.arrayContaining([`post:${postId}@uz-latn`, `post:${postId}@ru`]));
    expect(edited.pull.added).toEqual([]);
    const changedHtml = edited.files.changed.filter((f) => f.endsWith('.html'));
    // Its detail page and the list page that shows its title, in each language.
    for (const prefix of LANG_PREFIXES) {
      expect(changedHtml).toContain(`${prefix}/news/${postId}/index.html`);
      expect(changedHtml).toContain(`${prefix}/news/page/1/index.html`);
    }
    expect(changedHtml, changedHtml.join(' ')).toHaveLength(8);
    expect(html(edited, `news/${postId}/index.html`)).toContain('Yangi xatboshi.');
    expect(html(edited, 'news/page/1/index.html')).toContain('Yangilangan sarlavha 1');
    expect(html(edited, 'ru/news/page/1/index.html')).toContain('Yangilangan sarlavha 3');
    // Pages that do not show it are the same bytes as before.
    for (const page of ['index.html', 'ru/news/index.html', 'en/gallery/photo/index.html', 'uz-cyrl/information-service/index.html']) {
      expect(html(edited, page)).toBe(html(first, page));
      // The very same file, so its modification time (ETag, Last-Modified) is unchanged and a browser gets a 304.
      expect(statSync(release(edited, page)).mtimeMs).toBe(statSync(release(first, page)).mtimeMs);
      expect(statSync(release(edited, `${page}.br`)).ino).toBe(statSync(release(first, `${page}.br`)).ino);
    }
    expect(statSync(release(edited, `news/${postId}/index.html`)).ino).not.toBe(statSync(release(first, `news/${postId}/index.html`)).ino);
    expect(edited.build.reused).toBeGreaterThan(edited.build.pages * 0.8);
    // Astro was handed only the pages it rendered: the others were reused without going through it.
    expect(edited.build.handedToAstro).toBe(edited.build.rendered);
    // Most were not even listed to it: their key was in its manifest (scripts/pipeline/astro/changed-pages.ts).
    expect(edited.build.notListed).toBeGreaterThan(edited.build.reused / 2);
    // The older posts' pages among them, found by what they are made from, their pictures not looked up again.
    expect(edited.build.foundByMadeFrom).toBeGreaterThan(0);
    expect(await differencesFromCold(edited, 'text')).toEqual([]);
  }, 300_000);

  it('behind the edge: an edit reaches it within 5 s of the publish, unchanged pages come from it alone, and with the origin down it serves what it holds', async () => {
    const releases = RELEASES;
    // The production rules, except one page kept a single second, to see a copy past its time stand in for a failed
    // origin (nginx matches the file a path was served from: try_files has changed $uri by then).
    origin = await startNginx({
      root: join(releases, 'current'),
      policyDir: root.dir,
      edit: (site) =>
        site.replace(
          'map $uri $hokimiyat_cache_by_path {',
          'map $uri $hokimiyat_cache_by_path {\n    /ru/address/index.html "public, max-age=0, s-maxage=1, stale-if-error=604800";',
        ),
    });
    edge = await startVarnish(origin.base);
    process.env.PURGE_URL = edge.base;
    process.env.PURGE_KEY_FILE = edge.purgeKeyFile;
    const get = (path: string, coding = 'br, gzip') => fetch(`${edge!.base}${path}`, { headers: { 'accept-encoding': coding } });
    const fromOrigin = (path: string) => origin!.requests().filter((line) => line.endsWith(` ${path}`)).length;
    const css = html(edited, 'index.html').match(/href="(\/_astro\/[^"]+\.css)"/)![1]!;

    const id = (api.db.prepare('SELECT id FROM posts WHERE type = 1 AND lang = 1 ORDER BY date DESC, id DESC LIMIT 1 OFFSET 17').get() as { id: number }).id;
    const page = `/ru/news/${id}`;
    const unchanged = ['/en/gallery/photo', '/ru/address', css];
    for (const path of [page, ...unchanged]) {
      expect((await get(path)).headers.get('x-edge'), path).toBe('miss');
      expect((await get(path)).headers.get('x-edge'), path).toBe('hit');
    }
    for (const coding of ['gzip', 'identity']) await get(page, coding);

    api.db.prepare("UPDATE posts SET title = 'Chekkada yangilangan ' || lang WHERE id = ?").run(id);
    const published = await rebuild([{ type: 'post', id }]);
    expect(published.purge).toMatchObject({ via: 'url', attempts: 1 });
    expect(published.purge.error).toBeUndefined();
    const swappedAt = lstatSync(join(releases, 'current')).mtimeMs;
    // Every coding of the page is the new one at once: the purge drops all of them.
    for (const coding of ['br, gzip', 'gzip', 'identity']) expect(await (await get(page, coding)).text(), coding).toContain('Chekkada yangilangan 3');
    const ms = Date.now() - swappedAt;
    console.log(`edge: the edited page is served by the edge ${ms} ms after the publish (purge ${published.purge.ms} ms, ${published.purge.paths} paths)`);
    expect(ms).toBeLessThan(5_000);

    // Unchanged pages and hashed assets still come from the edge: the origin has seen each once, when the edge first asked.
    for (const path of ['/en/gallery/photo', css]) {
      expect((await get(path)).headers.get('x-edge'), path).toBe('hit');
      expect(fromOrigin(path), path).toBe(1);
    }
    // Errors are never kept.
    for (let i = 0; i < 2; i++) expect((await get('/ru/no-such-page')).status).toBe(404);
    // nginx writes its log line after the answer has gone: wait for it.
    await expect.poll(() => fromOrigin('/ru/no-such-page')).toBe(2);

    // The origin stops: a copy past its time is served, a fresh one too, and a page the edge never held gets the
    // site's own error page in the visitor's language (the purge left the error pages at the edge).
    await new Promise((ok) => setTimeout(ok, 1_500));
    await origin.stop();
    const stale = await get('/ru/address');
    expect(stale.status).toBe(200);
    expect(stale.headers.get('x-edge')).toBe('stale');
    expect(await stale.text()).toContain('<html lang="ru"');
    expect(await (await get(page)).text()).toContain('Chekkada yangilangan 3');
    const never = await get('/ru/news/page/3');
    expect(never.status).toBe(503);
    expect(never.headers.get('cache-control')).toBe('no-store');
    expect(await never.text()).toBe(readFileSync(release(published, 'ru/500/index.html'), 'utf8'));
    await origin.start();
  }, 300_000);

  it("a recent post's new title reaches the side lists of the list's first page; the archive's pages keep the nightly list", async () => {
    const recent = (api.db.prepare('SELECT id FROM posts WHERE type = 1 AND lang = 1 ORDER BY date DESC, id DESC LIMIT 1 OFFSET 1').get() as { id: number }).id;
    const newest = (api.db.prepare('SELECT id FROM posts WHERE type = 1 AND lang = 1 ORDER BY date DESC, id DESC LIMIT 1').get() as { id: number }).id;
    const older = (api.db.prepare('SELECT id FROM posts WHERE type = 1 AND lang = 1 ORDER BY date DESC, id DESC LIMIT 1 OFFSET 20').get() as { id: number }).id;
    api.db.prepare("UPDATE posts SET title = 'Tahrirlangan yangilik ' || lang WHERE id = ?").run(recent);
    const retitled = await rebuild([{ type: 'post', id: recent }]);
    // Beside a post of the list's first page, the new title at once…
    expect(html(retitled, `news/${newest}/index.html`)).toContain('Tahrirlangan yangilik 1');
    expect(html(retitled, `ru/news/${newest}/index.html`)).toContain('Tahrirlangan yangilik 3');
    // …and an older post's page keeps its bytes, the title the nightly pull read, until the nightly rebuild.
    expect(html(retitled, `news/${older}/index.html`)).not.toContain('Tahrirlangan yangilik 1');
    for (const prefix of LANG_PREFIXES) expect(retitled.files.changed).not.toContain(`${prefix}/news/${older}/index.html`);
    expect(retitled.files.changed.filter((f) => f.endsWith('.html')).length).toBeLessThan(100);
    expect(retitled.build.rendered).toBeLessThan(retitled.build.pages * 0.3);
    expect(await differencesFromCold(retitled, 'title')).toEqual([]);
  }, 300_000);

  it('publishes a new post with its page in every language, as a cold build would', async () => {
    const model = (api.db.prepare('SELECT id FROM posts WHERE type = 1 AND lang = 1 ORDER BY date DESC, id DESC LIMIT 1 OFFSET 20').get() as { id: number }).id;
    // On a numbered list page, and not the post the deletion below removes.
    const deep = (api.db.prepare('SELECT id FROM posts WHERE type = 1 AND lang = 1 AND id != ? ORDER BY date DESC, id DESC LIMIT 1 OFFSET 21').get(postId) as { id: number }).id;
    const id = (api.db.prepare('SELECT max(id) AS m FROM posts').get() as { m: number }).m + 1;
    api.db.exec(
      `INSERT INTO posts SELECT ${id}, lang, type, (SELECT max(date) FROM posts WHERE type = 1), 0, image, 'Eng yangi xabar ' || lang, brief, html FROM posts WHERE id = ${model}`,
    );
    const added = await rebuild([{ type: 'post', id }]);
    // The pull looked at the new post's pictures, not at every picture the site shows.
    expect(added.pull.pictures.lookedAt).toBeLessThan(added.pull.pictures.pictures / 10);
    for (const prefix of LANG_PREFIXES) expect(added.files.added).toContain(`${prefix}/news/${id}/index.html`);
    expect(html(added, 'news/index.html')).toContain('Eng yangi xabar 1');
    // Beside a post of the list's first page the side list has it at once; an older post's page keeps its bytes
    // (its side list is the one the last full pull settled) until the nightly full rebuild.
    const recent = (api.db.prepare('SELECT id FROM posts WHERE type = 1 AND lang = 1 ORDER BY date DESC, id DESC LIMIT 1 OFFSET 1').get() as { id: number }).id;
    expect(html(added, `news/${recent}/index.html`)).toContain('Eng yangi xabar 1');
    expect(html(added, `news/${deep}/index.html`)).not.toContain('Eng yangi xabar 1');
    for (const prefix of LANG_PREFIXES) expect(added.files.changed).not.toContain(`${prefix}/news/${deep}/index.html`);
    archived = { id: deep, newest: id };
    expect(added.build.rendered).toBeLessThan(added.build.pages * 0.3);
    // Made in the oldest release that was no longer kept: most of its files stayed as they were.
    expect(added.build.keptFromOlderRelease).toBeGreaterThan(added.build.pages);
    // Whose file list followed from the served release's and the changes records of the publishes since.
    expect(added.build.olderReleaseList).toBe('derived');
    // Numbered from the oldest post, the numbered pages keep their posts and their bytes.
    for (const prefix of LANG_PREFIXES) {
      expect(added.files.changed).toContain(`${prefix}/news/index.html`);
      expect(added.files.changed).not.toContain(`${prefix}/news/page/1/index.html`);
    }
    // The sitemap's files are split by part of the site: the posts' last one alone is published again.
    expect([...added.files.added, ...added.files.changed].filter((f) => /^\/sitemap[^/]*\.xml$/.test(f))).toEqual([expect.stringMatching(/^\/sitemap-news-\d+\.xml$/)]);
    expect(sitemapOf(added)).toContain(`/news/${id}/</loc>`);
    expect(await differencesFromCold(added, 'new-post')).toEqual([]);
  }, 300_000);

  it("a recent post deleted: gone from the lists at once, and its address says it was removed while the archive's side lists still name it", async () => {
    // Among the latest when the last full pull read them, so in the side list of every older post.
    const gone = (
      api.db.prepare('SELECT id FROM posts WHERE type = 1 AND lang = 1 AND id != ? ORDER BY date DESC, id DESC LIMIT 1 OFFSET 3').get(archived.newest) as { id: number }
    ).id;
    api.db.prepare('DELETE FROM posts WHERE id = ?').run(gone);
    removedRecent = gone;
    const deleted = await rebuild([{ type: 'post', id: gone }]);
    for (const prefix of LANG_PREFIXES) {
      expect(html(deleted, `${prefix}/news/index.html`.slice(1))).not.toContain(`/news/${gone}"`);
      // The older posts' pages are not published again…
      expect(deleted.files.changed).not.toContain(`${prefix}/news/${archived.id}/index.html`);
      // …and the post's own address, which their side list links, says it was removed, and is not in the sitemap.
      expect(deleted.files.removed).not.toContain(`${prefix}/news/${gone}/index.html`);
    }
    expect(html(deleted, `news/${archived.id}/index.html`)).toContain(`/news/${gone}"`);
    const removed = html(deleted, `ru/news/${gone}/index.html`);
    expect(removed).toContain('<h1>Этот материал удалён</h1>');
    expect(removed).toContain('<meta name="robots" content="noindex">');
    expect(removed).toContain('href="/ru/news"');
    expect(html(deleted, `news/${gone}/index.html`)).toContain('<h1>Bu material olib tashlangan</h1>');
    const removedPages = LANG_PREFIXES.map((prefix) => release(deleted, `${prefix}/news/${gone}/index.html`.slice(1)));
    expect(await htmlErrors(release(deleted, ''), removedPages)).toEqual([]);
    const sitemap = sitemapOf(deleted);
    expect(sitemap).toContain(`/news/${archived.id}/</loc>`);
    expect(sitemap).not.toContain(`/news/${gone}/</loc>`);
    expect(deleted.files.changed.filter((f) => f.endsWith('.html')).length).toBeLessThan(100);
    expect(await differencesFromCold(deleted, 'deleted-recent')).toEqual([]);
  }, 300_000);

  it('removes a deleted post from the published site and from the lists', async () => {
    api.db.prepare('DELETE FROM posts WHERE id = ?').run(postId);
    const third = await rebuild('all');
    for (const prefix of LANG_PREFIXES) expect(third.files.removed).toContain(`${prefix}/news/${postId}/index.html`);
    expect(existsSync(release(third, `news/${postId}/index.html`))).toBe(false);
    // Its page is one shorter; no other list page moves.
    expect(html(third, 'news/page/1/index.html')).not.toContain(`/news/${postId}"`);
    const listPages = third.files.changed.filter((f) => /\/news\/page\/.*\.html$/.test(f));
    expect(listPages.sort()).toEqual(LANG_PREFIXES.map((prefix) => `${prefix}/news/page/1/index.html`).sort());
    // The full rebuild brings the older posts' side list up to date, and the removed post's address is not found.
    expect(html(third, `news/${archived.id}/index.html`)).toContain(`/news/${archived.newest}"`);
    expect(html(third, `news/${archived.id}/index.html`)).not.toContain(`/news/${removedRecent}"`);
    for (const prefix of LANG_PREFIXES) expect(third.files.removed).toContain(`${prefix}/news/${removedRecent}/index.html`);
    // The previous release is still there to roll back to.
    expect(await readlink(join(RELEASES, 'previous'))).toBe(third.previous);
    expect(await differencesFromCold(third, 'deleted')).toEqual([]);
  }, 300_000);

  it('a new content page in the menu appears in every menu, as a cold build would', async () => {
    for (const lang of [1, 2, 3, 4]) {
      api.db.prepare('INSERT INTO pages (id, lang, views, title, html) VALUES (9001, ?, 5, ?, ?)').run(lang, `Yangi sahifa ${lang}`, `<p>Yangi sahifa matni ${lang}.</p>`);
      const group = (api.db.prepare('SELECT id FROM menu_groups WHERE lang = ? ORDER BY position LIMIT 1').get(lang) as { id: number }).id;
      api.db.prepare("INSERT INTO menu_items (id, lang, group_id, position, page, is_page, title) VALUES (9001, ?, ?, 99, '9001', 1, ?)").run(lang, group, `Yangi bo'lim ${lang}`);
    }
    menu = await rebuild('all');
    for (const prefix of LANG_PREFIXES) expect(menu.files.added).toContain(`${prefix}/page/9001/index.html`);
    expect(html(menu, 'index.html')).toContain('/page/9001');
    expect(html(menu, 'ru/news/index.html')).toContain('/ru/page/9001');
    expect(await differencesFromCold(menu, 'menu')).toEqual([]);
  }, 400_000);

  it("builds into a folder outside the project whose path begins with the project's (/srv/site-releases beside /srv/site)", async () => {
    // Astro took such a folder for one of the project's and failed there ("Cannot find package '@oslojs/encoding'").
    const beside = `${process.cwd()}-releases-${process.pid}`;
    try {
      expect(await differencesFromCold(menu, 'beside', beside)).toEqual([]);
    } finally {
      await rm(beside, { recursive: true, force: true });
    }
  }, 300_000);

  it('publishes nothing when nothing changed, and says so', async () => {
    const current = await readlink(join(RELEASES, 'current'));
    const same = await rebuild('all');
    expect(same.unchanged).toBe(true);
    expect(same.release).toBe(current);
    expect(same.files).toEqual({ added: [], changed: [], removed: [] });
    expect(await readlink(join(RELEASES, 'current'))).toBe(current);
  }, 120_000);

  it('a forced rebuild in which every page is reused publishes, as a cold build would', async () => {
    const forced = await rebuild('all', undefined, { force: true });
    expect(forced.unchanged).toBeUndefined();
    // Every page with a picture among them: Astro's image service failed such a build; the site's pictures do not.
    expect(forced.build.rendered).toBeLessThan(forced.build.pages * 0.02);
    expect(forced.files).toEqual({ added: [], changed: [], removed: [] });
    expect(await differencesFromCold(forced, 'forced')).toEqual([]);
  }, 300_000);

  it('a setting that reaches every page (SERVICE_WORKER=off) re-renders every page, as a cold build would', async () => {
    process.env.SERVICE_WORKER = 'off';
    try {
      const off = await rebuild('all');
      expect(off.unchanged).toBeUndefined();
      for (const page of ['index.html', 'ru/news/index.html', 'en/gallery/photo/index.html']) expect(html(off, page), page).toContain('data-worker="off"');
      expect(await differencesFromCold(off, 'setting')).toEqual([]);
    } finally {
      delete process.env.SERVICE_WORKER;
    }
    const on = await rebuild('all');
    expect(html(on, 'index.html')).toContain('data-worker="on"');
  }, 400_000);

  it("publishes what editors paste: a dead link is reported, not a failed build; a document is the site's own", async () => {
    // Another editor links a post that was deleted, and the sample's decision.
    const other = (api.db.prepare('SELECT id FROM posts WHERE type = 1 AND lang = 1 ORDER BY date DESC, id DESC LIMIT 1 OFFSET 3').get() as { id: number }).id;
    api.db.prepare(`UPDATE posts SET html = html || '<p><a href="/news/88888">eski xabar</a> <a href="/media/hujjatlar/qaror-12.pdf">qaror</a></p>' WHERE id = ?`).run(other);
    const linked = await rebuild([{ type: 'post', id: other }]);
    expect(linked.files.changed).toContain(`/en/news/${other}/index.html`);
    // The sample's post with a decision, a deleted post's link, an unlisted page's, a video and a Telegram post.
    const withLinks = (api.db.prepare("SELECT id FROM posts WHERE lang = 3 AND html LIKE '%eski-qaror-2025.pdf%'").get() as { id: number }).id;
    expect(linked.content.deadLinks).toEqual(
      expect.arrayContaining([
        { page: `/en/news/${other}/`, language: 'en', link: '/news/88888' },
        { page: `/ru/news/${withLinks}/`, language: 'ru', link: '/news/99999' },
        { page: `/news/${withLinks}/`, language: 'uz-latn', link: '/page/999' },
      ]),
    );
    expect(linked.content.unavailableDocuments).toEqual([
      expect.objectContaining({ url: `${api.url}/media/hujjatlar/eski-qaror-2025.pdf`, reason: 'HTTP 404', items: expect.arrayContaining([`post:${withLinks}@ru`]) }),
    ]);
    // The document, served from the release under its own name, with its type and size beside the link in each language.
    const ru = html(linked, `ru/news/${withLinks}/index.html`);
    const path = /<a href="(\/documents\/[0-9a-f]{12}\/qaror-12\.pdf)">[^<]*<span class="file-note">\(PDF, 40 КБ\)<\/span><\/a>/.exec(ru)?.[1];
    expect(path, ru.slice(ru.indexOf('qaror'), ru.indexOf('qaror') + 300)).toBeTruthy();
    expect(readFileSync(release(linked, path!)).subarray(0, 8).toString()).toBe('%PDF-1.4');
    expect(html(linked, `en/news/${withLinks}/index.html`)).toContain('<span class="file-note">(PDF, 40 KB)</span>');
    expect(html(linked, `news/${other}/index.html`)).toContain(`<a href="${path}">qaror`);
    // The operator sees the counts without the key.
    expect((await readFreshness(RELEASES)).release?.content).toEqual({
      deadLinks: linked.content.deadLinks.length,
      unavailableDocuments: 1,
      itemsWithRemovedElements: linked.content.removed.length,
    });
    expect(linked.content.deadLinks.length).toBe(12);
    expect(await differencesFromCold(linked, 'editor-links')).toEqual([]);
  }, 300_000);

  it('publishes a post far over the page budget all the same, and the report names its pages', async () => {
    const id = (api.db.prepare('SELECT id FROM posts WHERE type = 1 AND lang = 1 ORDER BY date DESC, id DESC LIMIT 1 OFFSET 25').get() as { id: number }).id;
    // Some 600 KB of text that does not compress away: an editor pasting a whole report into one post.
    const words = randomBytes(400_000)
      .toString('base64')
      .replace(/(.{8})/g, '$1 ');
    api.db.prepare('UPDATE posts SET html = ? WHERE id = ?').run(`<p>${words}</p>`, id);
    const long = await rebuild([{ type: 'post', id }]);
    expect(existsSync(release(long, `ru/news/${id}/index.html`))).toBe(true);
    const overLong = expect.arrayContaining([expect.stringMatching(new RegExp(`^ru/news/${id}/index\\.html: \\d+ KB as sent, over 256 KB$`))]);
    expect(long.overBudget).toEqual(overLong);
    // The next release, which leaves that page as it was, still names it (carried from this report, not measured again).
    const other = (api.db.prepare('SELECT id FROM posts WHERE type = 1 AND lang = 1 ORDER BY date DESC, id DESC LIMIT 1 OFFSET 24').get() as { id: number }).id;
    api.db.prepare("UPDATE posts SET html = html || '<p>Qoʻshimcha.</p>' WHERE id = ?").run(other);
    const next = await rebuild([{ type: 'post', id: other }]);
    expect(next.files.changed).not.toContain(`/ru/news/${id}/index.html`);
    expect(next.overBudget).toEqual(overLong);
  }, 300_000);

  it("a photograph replaced at the same URL is shown after the nightly run, not by a rebuild told of another item, on an old post's page too", async () => {
    const path = (api.db.prepare('SELECT image FROM employees WHERE category = 2 AND lang = 1 ORDER BY id LIMIT 1').get() as { image: string }).image;
    const page = 'the-leadership-of-the-regional-administration/index.html';
    // The oldest news post with a picture: its page, deep in the archive, is otherwise taken as it was (src/content/cache-key.ts).
    const post = api.db.prepare("SELECT id, image FROM posts WHERE type = 1 AND lang = 1 AND image LIKE '/%' ORDER BY date, id LIMIT 1").get() as { id: number; image: string };
    const postPage = `news/${post.id}/index.html`;
    const shown = (r: RebuildReport, file = page) => html(r, file).match(/src="(\/_astro\/pictures\/[^"]+)"/)![1]!;
    const before = await rebuild([{ type: 'survey' }]);
    const [old, oldOfPost] = [shown(before), shown(before, postPage)];
    await api.replaceMedia(path);
    await api.replaceMedia(post.image);
    const other = await rebuild([{ type: 'post', id: 1 }]);
    expect(other.pull.pictures.fetch.replaced).toBe(0);
    const nightly = await rebuild('all');
    expect(nightly.pull.pictures.fetch.replaced).toBeGreaterThan(0);
    // A picture the last build knew drawn anew: no page is taken by what it is made from, every key is made whole.
    expect(nightly.build.foundByMadeFrom).toBe(0);
    expect(shown(nightly)).not.toBe(old);
    expect(shown(nightly, postPage)).not.toBe(oldOfPost);
    expect(nightly.files.added).toContain(shown(nightly));
    for (const prefix of LANG_PREFIXES) expect(nightly.files.changed).toEqual(expect.arrayContaining([`${prefix}/${page}`, `${prefix}/${postPage}`]));
    expect(await differencesFromCold(nightly, 'replaced-picture')).toEqual([]);
  }, 400_000);

  it('after a stylesheet-only change, every page links the new stylesheet and no /_astro/ reference dangles', async () => {
    const stylesheet = 'src/styles/global.scss';
    const probe = '\n@layer utilities {\n  .rebuild-probe {\n    outline-offset: 7px;\n  }\n}\n';
    // Also mends the file if an earlier run was killed before it could put it back.
    const original = readFileSync(stylesheet, 'utf8').replace(probe, '');
    let restyled: RebuildReport;
    try {
      // No content change at all: only the look of the site changes.
      writeFileSync(stylesheet, `${original}${probe}`);
      restyled = await rebuild([]);
      expect(await differencesFromCold(restyled, 'stylesheet')).toEqual([]);
    } finally {
      writeFileSync(stylesheet, original);
    }
    const newCss = restyled.files.added.filter((f) => /^\/_astro\/.+\.css$/.test(f));
    expect(newCss.length).toBeGreaterThan(0);
    expect((await checkLinks(release(restyled, ''))).broken).toEqual([]);
    // Pages whose content did not change (reused or not) link the stylesheet that has the new rule.
    for (const page of ['index.html', 'ru/news/index.html', 'en/gallery/photo/index.html']) {
      const links = [...html(restyled, page).matchAll(/href="(\/_astro\/[^"]+\.css)"/g)].map((m) => m[1]!);
      expect(links.length).toBeGreaterThan(0);
      const css = links.map((href) => readFileSync(release(restyled, href.slice(1)), 'utf8')).join('\n');
      expect(css).toContain('.rebuild-probe');
    }
  }, 600_000);

  it('two rebuilds started together: one publishes a complete release, the other refuses', async () => {
    const before = await readlink(join(RELEASES, 'current'));
    const runOnce = () =>
      new Promise<{ code: number | null; out: string }>((resolve) => {
        const child = spawn(process.execPath, ['scripts/rebuild.ts'], { env: process.env, stdio: ['ignore', 'pipe', 'pipe'] });
        let out = '';
        child.stdout.on('data', (d) => (out += d));
        child.stderr.on('data', (d) => (out += d));
        child.on('exit', (code) => resolve({ code, out }));
      });
    const results = await Promise.all([runOnce(), runOnce()]);
    const codes = results.map((r) => r.code).sort();
    expect(codes, results.map((r) => r.out.slice(-400)).join('\n----\n')).toEqual([0, 75]);
    expect(results.find((r) => r.code === 75)!.out).toMatch(/Rebuild not started: another rebuild is running/);
    const current = await readlink(join(RELEASES, 'current'));
    expect(current).not.toBe(before);
    // The published release is one run's whole output: its files are exactly those its report hashed, and its links resolve.
    const hashed = Object.keys(JSON.parse(readFileSync(join(RELEASES, 'reports', `${current}.files.json`), 'utf8')) as object);
    for (const f of hashed.slice(0, 50)) expect(existsSync(join(RELEASES, current, f)), f).toBe(true);
    expect((await checkLinks(join(RELEASES, current))).broken).toEqual([]);
    expect(existsSync(join(RELEASES, 'rebuild.lock'))).toBe(false);
  }, 600_000);

  it('leaves the published release in place when the API fails', async () => {
    const current = await readlink(join(RELEASES, 'current'));
    process.env.API_BASE = 'http://127.0.0.1:9';
    // The operator reads which call failed; the bundled sample API is never started in its place.
    await expect(rebuild('all')).rejects.toThrow(/The content API at http:\/\/127\.0\.0\.1:9 does not answer \(api\/home\/menus: fetch failed/);
    process.env.API_BASE = api.url;
    expect(await readlink(join(RELEASES, 'current'))).toBe(current);
  }, 60_000);

  it('after many publishes keeps three releases, the served and the previous one among them, each with its file list and changes record', async () => {
    const releases = RELEASES;
    const kept = (await readdir(releases)).filter((n) => /^\d{8}T\d{6}Z$/.test(n));
    expect(kept).toHaveLength(3);
    expect(kept).toContain(await readlink(join(releases, 'current')));
    expect(kept).toContain(await readlink(join(releases, 'previous')));
    const lists = (await readdir(join(releases, 'reports'))).filter((n) => n.endsWith('.files.json'));
    expect(lists.sort()).toEqual(kept.map((id) => `${id}.files.json`).sort());
    const records = (await readdir(join(releases, 'reports'))).filter((n) => n.endsWith('.changes.json'));
    expect(records.sort()).toEqual(kept.map((id) => `${id}.changes.json`).sort());
  });
});
