/**
 * scripts/pipeline/astro/kept-maps.ts: a page's key of two parts may be taken by its first part only while every
 * picture and document the build before knew is the same.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { keepMaps, keptMapsHold } from '../../scripts/pipeline/astro/kept-maps.ts';

const picture = (id: string) => ({ id, width: 800, height: 600, widths: [320, 800] });
const A = 'https://media.example.uz/uploads/a.jpg';
const B = 'https://media.example.uz/uploads/b.jpg';
const DOC = 'https://media.example.uz/files/plan.pdf';

function folders(pictures: object, documents: object | null = {}) {
  const cacheDir = mkdtempSync(join(tmpdir(), 'kept-maps-cache-'));
  const contentDir = mkdtempSync(join(tmpdir(), 'kept-maps-content-'));
  const write = (p: object, d: object | null) => {
    writeFileSync(join(contentDir, 'pictures.json'), JSON.stringify(p));
    if (d) writeFileSync(join(contentDir, 'documents.json'), JSON.stringify(d));
    else rmSync(join(contentDir, 'documents.json'), { force: true });
  };
  write(pictures, documents);
  return { cacheDir, contentDir, write };
}

describe('the maps the keys were made with', () => {
  it('hold once kept, and while pictures and documents are only added', () => {
    const { cacheDir, contentDir, write } = folders({ [A]: picture('a1') }, { [DOC]: { type: 'pdf', path: '/documents/x/plan.pdf', bytes: 10, sha: 's' } });
    expect(keptMapsHold(cacheDir, contentDir)).toBe(false);
    keepMaps(cacheDir, contentDir);
    expect(keptMapsHold(cacheDir, contentDir)).toBe(true);
    write({ [A]: picture('a1'), [B]: picture('b1') }, { [DOC]: { type: 'pdf', path: '/documents/x/plan.pdf', bytes: 10, sha: 's' } });
    expect(keptMapsHold(cacheDir, contentDir)).toBe(true);
  });

  it('do not hold when a picture is drawn anew at its URL or is gone, or a document changed', () => {
    const doc = { [DOC]: { type: 'pdf', path: '/documents/x/plan.pdf', bytes: 10, sha: 's' } };
    const { cacheDir, contentDir, write } = folders({ [A]: picture('a1'), [B]: picture('b1') }, doc);
    keepMaps(cacheDir, contentDir);
    write({ [A]: picture('a2'), [B]: picture('b1') }, doc);
    expect(keptMapsHold(cacheDir, contentDir)).toBe(false);
    write({ [B]: picture('b1') }, doc);
    expect(keptMapsHold(cacheDir, contentDir)).toBe(false);
    write({ [A]: picture('a1'), [B]: picture('b1') }, { [DOC]: { type: 'pdf', failed: 'HTTP 404' } });
    expect(keptMapsHold(cacheDir, contentDir)).toBe(false);
    write({ [A]: picture('a1'), [B]: picture('b1') }, null);
    expect(keptMapsHold(cacheDir, contentDir)).toBe(false);
    write({ [A]: picture('a1'), [B]: picture('b1') }, doc);
    expect(keptMapsHold(cacheDir, contentDir)).toBe(true);
  });

  it('a map no pull wrote is kept as empty; a kept map cut short holds nothing', () => {
    const { cacheDir, contentDir, write } = folders({ [A]: picture('a1') }, null);
    keepMaps(cacheDir, contentDir);
    write({ [A]: picture('a1') }, { [DOC]: { type: 'pdf', failed: 'HTTP 404' } });
    expect(keptMapsHold(cacheDir, contentDir)).toBe(true);
    writeFileSync(join(cacheDir, 'maps-of-the-keys', 'pictures.json'), '{"https://media.example.uz/uplo');
    expect(keptMapsHold(cacheDir, contentDir)).toBe(false);
  });
});
