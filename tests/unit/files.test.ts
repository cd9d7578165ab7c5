import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { linkInPlace, listFiles, namesIn, placeFile } from '../../scripts/lib/files.ts';

const made: string[] = [];
afterEach(() => {
  for (const folder of made.splice(0)) rmSync(folder, { recursive: true, force: true });
});

describe('listFiles', () => {
  it('lists every file below a folder, and does not follow a link to a folder, which the passes would write through', () => {
    const root = mkdtempSync(join(tmpdir(), 'list-files-'));
    const elsewhere = mkdtempSync(join(tmpdir(), 'list-files-elsewhere-'));
    made.push(root, elsewhere);
    mkdirSync(join(root, 'news', '5'), { recursive: true });
    writeFileSync(join(root, 'index.html'), '');
    writeFileSync(join(root, 'news', '5', 'index.html'), '');
    writeFileSync(join(elsewhere, 'secret.txt'), '');
    symlinkSync(elsewhere, join(root, 'linked'));
    symlinkSync(root, join(root, 'news', 'loop'));
    expect(listFiles(root).sort()).toEqual([join(root, 'index.html'), join(root, 'news', '5', 'index.html')]);
  });
});

describe('namesIn', () => {
  it('answers alike whether it lists the folder (many questions) or looks for each name (a few), and knows a file added since', () => {
    const folder = mkdtempSync(join(tmpdir(), 'names-'));
    try {
      writeFileSync(join(folder, 'kept.webp'), '');
      for (const asking of [1, 1000]) {
        const names = namesIn(folder, asking);
        expect([names.has('kept.webp'), names.has('drawn.webp')]).toEqual([true, false]);
        names.add('drawn.webp');
        expect(names.has('drawn.webp')).toBe(true);
      }
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});

describe('linkInPlace and placeFile', () => {
  const folder = () => {
    const root = mkdtempSync(join(tmpdir(), 'link-in-place-'));
    made.push(root);
    writeFileSync(join(root, 'store.webp'), 'drawn');
    writeFileSync(join(root, 'page.html'), 'built');
    return root;
  };

  it('puts a link to the source in the place of a file already there', () => {
    const root = folder();
    expect(linkInPlace(join(root, 'store.webp'), join(root, 'page.html'))).toBe(true);
    expect(statSync(join(root, 'page.html')).ino).toBe(statSync(join(root, 'store.webp')).ino);
    placeFile(join(root, 'store.webp'), join(root, 'new.webp'));
    expect(readFileSync(join(root, 'new.webp'), 'utf8')).toBe('drawn');
  });

  it('keeps the file when the source is missing, and placing a missing store file says so', () => {
    const root = folder();
    expect(linkInPlace(join(root, 'gone.webp'), join(root, 'page.html'))).toBe(false);
    expect(readFileSync(join(root, 'page.html'), 'utf8')).toBe('built');
    expect(() => placeFile(join(root, 'gone.webp'), join(root, 'page.html'))).toThrow(/ENOENT/);
  });
});
