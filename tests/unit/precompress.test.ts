/** The precompressed siblings the server sends, and the cache that keeps rebuilds from compressing twice. */
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync, utimesSync, writeFileSync, mkdirSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { finishBuild } from '../../scripts/pipeline/finish/finish-step.ts';
import { bestQuality, CACHE_UNUSED_MS, PRUNED_MARK, sha256 } from '../../scripts/pipeline/finish/precompress.ts';

/** The build's last pass compresses every text file it finishes. */
const bases = { publicApiBase: 'https://api.example.uz', mediaBase: 'https://api.example.uz', siteUrl: 'https://example.uz', serviceWorker: false };
const precompress = async (site: string, compressCache: string) => (await finishBuild(site, bases, { compressCache })).compressed;

const dirs: string[] = [];
function folder(): string {
  const d = mkdtempSync(join(tmpdir(), 'precompress-'));
  dirs.push(d);
  return d;
}
/** The cache's entries, without its note of the last pruning. */
const entries = (cache: string) => readdirSync(cache).filter((n) => n !== PRUNED_MARK);
afterEach(async () => {
  for (const d of dirs.splice(0)) await rm(d, { recursive: true, force: true });
});

describe('precompress', () => {
  it('writes .br and .gz beside text files only, none beside pictures, and they decompress to the original', async () => {
    const site = folder();
    const cache = folder();
    const html = '<!doctype html><title>Yangiliklar</title>' + '<p>Qorakoʻl tumani hokimligi</p>'.repeat(50);
    writeFileSync(join(site, 'index.html'), html);
    mkdirSync(join(site, '_astro'));
    writeFileSync(join(site, '_astro', 'photo.avif'), Buffer.from([0, 1, 2, 3]));
    const result = await precompress(site, cache);
    // The page, and the policy and service worker the pass writes beside it (content-security-policy.txt, sw.js).
    expect(result).toMatchObject({ files: 3, made: 6, reused: 0 });
    expect(brotliDecompressSync(readFileSync(join(site, 'index.html.br'))).toString()).toBe(html);
    expect(gunzipSync(readFileSync(join(site, 'index.html.gz'))).toString()).toBe(html);
    expect(readdirSync(join(site, '_astro'))).toEqual(['photo.avif']);
  });

  it('gives a page that is not a landing page a .br only, and other text files both', async () => {
    const site = folder();
    const html = '<!doctype html><title>Yangilik</title>' + '<p>Qorakoʻl tumani hokimligi</p>'.repeat(50);
    mkdirSync(join(site, 'news', '7'), { recursive: true });
    writeFileSync(join(site, 'news', '7', 'index.html'), html);
    writeFileSync(join(site, 'sitemap-0.xml'), '<urlset></urlset>');
    await precompress(site, folder());
    expect(readdirSync(join(site, 'news', '7'))).toEqual(['index.html', 'index.html.br']);
    expect(brotliDecompressSync(readFileSync(join(site, 'news', '7', 'index.html.br'))).toString()).toBe(html);
    expect(readdirSync(site).filter((f) => f.startsWith('sitemap'))).toEqual(['sitemap-0.xml', 'sitemap-0.xml.br', 'sitemap-0.xml.gz']);
  });

  it('keeps a page with a .br only out of the cache, and a rebuild links its .br from the previous release', async () => {
    const cache = folder();
    const html = (title: string) => `<!doctype html><title>${title}</title>` + '<p>Qorakoʻl tumani hokimligi</p>'.repeat(50);
    const build = async (title: string, previousRelease?: { root: string; hashes: Record<string, string> }) => {
      const site = folder();
      mkdirSync(join(site, 'news', '7'), { recursive: true });
      writeFileSync(join(site, 'news', '7', 'index.html'), html(title));
      return { site, ...(await finishBuild(site, bases, { compressCache: cache, previousRelease })) };
    };
    const br = (site: string) => join(site, 'news', '7', 'index.html.br');
    const first = await build('Yangilik');
    expect(entries(cache).filter((name) => name.startsWith(sha256(html('Yangilik')).slice(0, 40)))).toEqual([]);
    // The same page again: its .br is the previous release's file, nothing is compressed.
    const second = await build('Yangilik', { root: first.site, hashes: first.hashes });
    expect(statSync(br(second.site)).ino).toBe(statSync(br(first.site)).ino);
    expect(second.compressed.made).toBe(0);
    // Another title: compressed anew, and the previous release's .br is left as it was.
    const third = await build('Eʼlon', { root: second.site, hashes: second.hashes });
    expect(brotliDecompressSync(readFileSync(br(third.site))).toString()).toBe(html('Eʼlon'));
    expect(brotliDecompressSync(readFileSync(br(second.site))).toString()).toBe(html('Yangilik'));
    expect(third.compressed.made).toBe(1);
  });

  it('a previous release that lost a file it lists: this build publishes its own copy, with the same bytes', async () => {
    const cache = folder();
    const html = '<!doctype html><title>Yangilik</title>' + '<p>Qorakoʻl tumani hokimligi</p>'.repeat(50);
    const build = async (previousRelease?: { root: string; hashes: Record<string, string> }) => {
      const site = folder();
      mkdirSync(join(site, 'news', '7'), { recursive: true });
      writeFileSync(join(site, 'news', '7', 'index.html'), html);
      return { site, ...(await finishBuild(site, bases, { compressCache: cache, previousRelease })) };
    };
    const first = await build();
    // Someone removed them from the published release by hand; its file list still names them.
    rmSync(join(first.site, 'news', '7', 'index.html'));
    rmSync(join(first.site, 'news', '7', 'index.html.br'));
    const second = await build({ root: first.site, hashes: first.hashes });
    expect(readFileSync(join(second.site, 'news', '7', 'index.html'), 'utf8')).toBe(html);
    expect(brotliDecompressSync(readFileSync(join(second.site, 'news', '7', 'index.html.br'))).toString()).toBe(html);
  });

  it("a previous release that is the build's own folder (set so by hand) is not linked from: the file keeps its bytes", async () => {
    const site = folder();
    const html = '<!doctype html><title>Yangilik</title>' + '<p>Qorakoʻl tumani hokimligi</p>'.repeat(50);
    mkdirSync(join(site, 'news', '7'), { recursive: true });
    writeFileSync(join(site, 'news', '7', 'index.html'), html);
    const first = await finishBuild(site, bases, { compressCache: folder() });
    await finishBuild(site, bases, { compressCache: folder(), previousRelease: { root: site, hashes: first.hashes } });
    expect(readFileSync(join(site, 'news', '7', 'index.html'), 'utf8')).toBe(html);
  });

  it('reuses the cache for unchanged files and drops entries no build used for a week, looking once a day', async () => {
    const site = folder();
    const cache = folder();
    writeFileSync(join(site, 'a.txt'), 'bir');
    writeFileSync(join(site, 'b.css'), 'p{color:red}');
    await precompress(site, cache);
    // Two files each of a.txt, b.css, the policy and the service worker.
    expect(entries(cache)).toHaveLength(8);
    // Every entry is old, and so is the note of the last pruning; b.css then changes, so its old entries are used by no build.
    const old = new Date(Date.now() - CACHE_UNUSED_MS - 60_000);
    for (const name of readdirSync(cache)) utimesSync(join(cache, name), old, old);
    writeFileSync(join(site, 'b.css'), 'p{color:blue}');
    const second = await precompress(site, cache);
    expect(second).toEqual({ files: 4, made: 2, reused: 6, pruned: 2 });
    // The other files' entries were used again, so they stay, beside b.css's new ones.
    expect(entries(cache)).toHaveLength(8);
    expect(brotliDecompressSync(readFileSync(join(site, 'b.css.br'))).toString()).toBe('p{color:blue}');
    // Pruned today: the next build does not look again, though b.css's newest entries are now unused.
    writeFileSync(join(site, 'b.css'), 'p{color:green}');
    for (const name of readdirSync(cache)) if (name !== PRUNED_MARK) utimesSync(join(cache, name), old, old);
    expect(await precompress(site, cache)).toEqual({ files: 4, made: 2, reused: 6, pruned: 0 });
    expect(entries(cache)).toHaveLength(10);
    expect(gunzipSync(readFileSync(join(site, 'b.css.gz'))).toString()).toBe('p{color:green}');
  });

  it('gives the best brotli to hashed assets and landing pages only, the pages cheaper to recompress on every new post', () => {
    for (const p of [
      '/_astro/index.B1x.css',
      '/index.html',
      '/ru/index.html',
      '/news/index.html',
      '/en/official-lectures/index.html',
      '/uz-cyrl/announcements-and-tenders/index.html',
      '/murojaat_yuborish/index.html',
      '/ru/murojaat_yuborish/index.html',
    ]) {
      expect(bestQuality(p), p).toBe(true);
    }
    for (const p of ['/news/page/2/index.html', '/ru/news/5/index.html', '/murojaat_yuborish/5/index.html', '/sitemap-0.xml', '/xx/index.html']) {
      expect(bestQuality(p), p).toBe(false);
    }
  });
});
