/**
 * The sitemap's files kept beside Astro's cache: written only where their text changed, the others left as they
 * were (their inode too, which published releases link to), and named to the last pass with the hash of their bytes.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { keepSitemap, keepSitemapIn, keptSitemap } from '../../scripts/pipeline/render/sitemap-store.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  delete (globalThis as Record<symbol, unknown>)[Symbol.for('hokimiyat.sitemap-store')];
});

const sha256 = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');

describe("the sitemap's store", () => {
  it('is not used unless the render step sets it up: Astro writes the sitemap into its own folder', () => {
    expect(keepSitemap(new Map([['sitemap-index.xml', '<x/>']]))).toBe(false);
    expect(keptSitemap().size).toBe(0);
  });

  it('writes a file only when none has its bytes, removes those the sitemap no longer has, and names each with its hash', () => {
    const folder = join(mkdtempSync(join(tmpdir(), 'sitemap-store-test-')), 'sitemap');
    dirs.push(folder);
    keepSitemapIn(folder);
    const first = new Map([
      ['sitemap-index.xml', '<sitemapindex>2</sitemapindex>'],
      ['sitemap-news-0.xml', '<urlset>news 1–1000</urlset>'],
      ['sitemap-news-1.xml', '<urlset>news 1001–</urlset>'],
    ]);
    expect(keepSitemap(first)).toBe(true);
    const sourceOf = (path: string) => keptSitemap().get(path)!.source;
    const unchanged = statSync(sourceOf('/sitemap-news-0.xml')).ino;

    // A new post: the part's last file changes; a part gone takes its file with it.
    const second = new Map([
      ['sitemap-news-0.xml', '<urlset>news 1–1000</urlset>'],
      ['sitemap-news-1.xml', '<urlset>news 1001– and the new one, “yangi”</urlset>'],
    ]);
    keepSitemap(second);
    const kept = keptSitemap();
    expect([...kept.keys()].sort()).toEqual(['/sitemap-news-0.xml', '/sitemap-news-1.xml']);
    expect(statSync(sourceOf('/sitemap-news-0.xml')).ino).toBe(unchanged);
    expect(readFileSync(sourceOf('/sitemap-news-1.xml'), 'utf8')).toBe(second.get('sitemap-news-1.xml'));
    expect(readdirSync(folder).sort()).toEqual([...kept.values()].map((file) => file.hash).sort());
    for (const { source, hash } of kept.values()) {
      expect(existsSync(source)).toBe(true);
      expect(hash).toBe(sha256(source));
    }

    // A file cut short (a power loss before the disk had it) is written again, not linked as it is.
    writeFileSync(sourceOf('/sitemap-news-0.xml'), '<urlset>ne');
    keepSitemap(second);
    expect(readFileSync(sourceOf('/sitemap-news-0.xml'), 'utf8')).toBe(second.get('sitemap-news-0.xml'));
  });
});
