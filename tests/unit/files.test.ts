import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { listFiles } from '../../scripts/lib/files.ts';

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
