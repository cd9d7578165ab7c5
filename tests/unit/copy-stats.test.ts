/**
 * The stats of Astro's page copies, taken ahead on a thread of their own (scripts/pipeline/astro/copy-stats.ts):
 * what the build reads from them is what a stat where they are used gives.
 */
import { linkSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { stampsAhead } from '../../scripts/pipeline/astro/copy-stats.ts';

let dir = '';
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'copy-stats-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe("the stats of Astro's page copies, taken ahead", () => {
  it("give each file's inode, size, time and links as a stat does, and nothing for a missing file or a folder", async () => {
    const page = join(dir, 'news/5/index.html');
    mkdirSync(join(dir, 'news/5'), { recursive: true });
    writeFileSync(page, '<html>news 5</html>');
    const linked = join(dir, 'home.html');
    writeFileSync(linked, '<html>home</html>');
    linkSync(linked, join(dir, 'home-link.html'));
    const stampOf = await stampsAhead([page, join(dir, 'news/6/index.html'), join(dir, 'news'), linked]);
    for (const [i, file] of [
      [0, page],
      [3, linked],
    ] as const) {
      const { ino, size, mtimeNs, nlink } = statSync(file, { bigint: true });
      expect(stampOf(i)).toEqual({ ino, size, mtimeNs, nlink });
    }
    expect(stampOf(3)?.nlink).toBe(2n);
    expect(stampOf(0)?.size).toBe(19n);
    expect(stampOf(1)).toBeUndefined();
    expect(stampOf(2)).toBeUndefined();
  });

  it('answer for no file at once, and for thousands', async () => {
    expect((await stampsAhead([]))(0)).toBeUndefined();
    const files = Array.from({ length: 3_000 }, (_, i) => join(dir, `${i}.html`));
    files.forEach((file, i) => writeFileSync(file, 'x'.repeat(i % 7)));
    const stampOf = await stampsAhead(files);
    expect(files.map((_, i) => stampOf(i)?.size)).toEqual(files.map((_, i) => BigInt(i % 7)));
  });
});
