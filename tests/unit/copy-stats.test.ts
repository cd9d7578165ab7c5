/**
 * The stats of Astro's page copies, taken ahead on a thread of their own (scripts/pipeline/astro/copy-stats.ts):
 * what the build reads from them is what a stat where they are used gives.
 */
import { linkSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { COPIES_FOLDER } from '../../scripts/pipeline/astro/astro-cache.ts';
import { MANIFEST_FILE, MANIFEST_VERSION } from '../../scripts/pipeline/astro/astro-manifest.ts';
import { copyStampsAhead, stampTable } from '../../scripts/pipeline/astro/copy-stats.ts';

let cacheDir = '';
const copy = (outputFile: string, body: string) => {
  const file = join(cacheDir, COPIES_FOLDER, outputFile);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, body);
  return file;
};
const stampOfFile = (file: string) => {
  const { ino, size, mtimeNs, nlink } = statSync(file, { bigint: true });
  return { ino, size, mtimeNs, nlink };
};
const manifest = (paths: Record<string, object>) =>
  writeFileSync(
    join(cacheDir, MANIFEST_FILE),
    JSON.stringify({ version: MANIFEST_VERSION, configHash: 'c', lockfileHash: 'l', routes: { 'src/pages/news/[id].astro': { dependencyHash: 'd', paths } } }),
  );

beforeEach(() => {
  cacheDir = mkdtempSync(join(tmpdir(), 'copy-stats-'));
});
afterEach(() => rmSync(cacheDir, { recursive: true, force: true }));

describe("the stats of Astro's page copies, taken ahead", () => {
  it("give each copy's inode, size, time and links as a stat where it is used does, and nothing for a missing copy or a folder", async () => {
    const news5 = copy('news/5/index.html', '<html>news 5</html>');
    const home = copy('index.html', '<html>home</html>');
    linkSync(home, join(cacheDir, 'home-link.html'));
    copy('news/7/index.html/inner', 'a folder where a page was');
    const notInManifest = copy('news/9/index.html', '<html>news 9</html>');
    const withImages = copy('news/8/index.html', '<html>news 8</html>');
    manifest({
      '/news/5': { cacheKey: 'a', outputFile: 'news/5/index.html' },
      '/': { cacheKey: 'b', outputFile: 'index.html' },
      '/news/6': { cacheKey: 'c', outputFile: 'news/6/index.html' },
      '/news/7': { cacheKey: 'd', outputFile: 'news/7/index.html' },
      '/news/8': { cacheKey: 'e', outputFile: 'news/8/index.html', staticImages: ['x'] },
    });
    // The thread statted the manifest's plain pages, whose copies are there or not.
    expect(stampTable(cacheDir).files).toEqual(['news/5/index.html', 'index.html', 'news/6/index.html', 'news/7/index.html']);
    const stampOf = await copyStampsAhead(cacheDir);
    expect(stampOf('news/5/index.html')).toEqual(stampOfFile(news5));
    expect(stampOf('index.html')).toEqual(stampOfFile(home));
    expect(stampOf('index.html')?.nlink).toBe(2n);
    expect(stampOf('news/5/index.html')?.size).toBe(19n);
    expect(stampOf('news/6/index.html')).toBeUndefined();
    expect(stampOf('news/7/index.html')).toBeUndefined();
    // A copy the thread was not given is statted when asked for.
    expect(stampOf('news/8/index.html')).toEqual(stampOfFile(withImages));
    expect(stampOf('news/9/index.html')).toEqual(stampOfFile(notInManifest));
    expect(stampOf('news/10/index.html')).toBeUndefined();
    // The stamps are those the thread took as the build started (nothing writes Astro's copies before its page loop).
    const before = stampOfFile(news5);
    rmSync(news5);
    copy('news/5/index.html', '<html>news 5, rendered again</html>');
    expect(stampOf('news/5/index.html')).toEqual(before);
    copy('news/9/index.html', '<html>news 9, rendered again</html>');
    expect(stampOf('news/9/index.html')).toEqual(stampOfFile(notInManifest));
    expect(stampOf('news/9/index.html')?.size).toBe(35n);
  });

  it('when their thread fails, say so and stat each copy when asked', async () => {
    const news5 = copy('news/5/index.html', '<html>news 5</html>');
    // A name the thread cannot stat (a NUL byte) makes it fail.
    manifest({ '/news/5': { cacheKey: 'a', outputFile: 'news/5/index.html' }, '/bad': { cacheKey: 'b', outputFile: 'bad\u0000name' } });
    const warnings: string[] = [];
    const stampOf = await copyStampsAhead(cacheDir, (message) => warnings.push(message));
    expect(warnings).toEqual([expect.stringMatching(/^the stats of Astro's page copies are taken on the build's main thread, slower: their thread failed \(.+\)$/)]);
    rmSync(news5);
    const again = copy('news/5/index.html', '<html>news 5, rendered again</html>');
    expect(stampOf('news/5/index.html')).toEqual(stampOfFile(again));
  });

  it('without a manifest, or with one that is not JSON, stat each copy when asked, and warn of nothing', async () => {
    const news5 = copy('news/5/index.html', '<html>news 5</html>');
    const warnings: string[] = [];
    expect((await copyStampsAhead(cacheDir, (message) => warnings.push(message)))('news/5/index.html')).toEqual(stampOfFile(news5));
    writeFileSync(join(cacheDir, MANIFEST_FILE), '{"routes": ');
    expect((await copyStampsAhead(cacheDir, (message) => warnings.push(message)))('news/5/index.html')).toEqual(stampOfFile(news5));
    expect(warnings).toEqual([]);
  });

  it('answer for thousands of pages', async () => {
    const paths: Record<string, object> = {};
    for (let i = 0; i < 3_000; i++) {
      copy(`news/${i}/index.html`, 'x'.repeat(i % 7));
      paths[`/news/${i}`] = { cacheKey: String(i), outputFile: `news/${i}/index.html` };
    }
    manifest(paths);
    const stampOf = await copyStampsAhead(cacheDir);
    expect(Array.from({ length: 3_000 }, (_, i) => stampOf(`news/${i}/index.html`)?.size)).toEqual(Array.from({ length: 3_000 }, (_, i) => BigInt(i % 7)));
  });
});
