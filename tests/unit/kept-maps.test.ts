/**
 * scripts/pipeline/astro/kept-maps.ts: a page's key of two parts may be taken by its first part only while every
 * picture and document the build before knew is the same; the maps are read once, and kept as read.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { keepMaps, readMaps } from '../../scripts/pipeline/astro/kept-maps.ts';
import { pictureMap } from '../../src/content/pictures/map.ts';
import { supplyPulledMaps } from '../../src/content/pulled-map.ts';

const picture = (id: string) => ({ id, width: 800, height: 600, widths: [320, 800] });
const A = 'https://media.example.uz/uploads/a.jpg';
const B = 'https://media.example.uz/uploads/b.jpg';
const DOC = 'https://media.example.uz/files/plan.pdf';
const kept = { [DOC]: { type: 'pdf', path: '/documents/x/plan.pdf', bytes: 10, sha: 's' } };

function folders(pictures: object, documents: object | null = {}) {
  const cacheDir = mkdtempSync(join(tmpdir(), 'kept-maps-cache-'));
  const contentDir = mkdtempSync(join(tmpdir(), 'kept-maps-content-'));
  const write = (p: object, d: object | null) => {
    writeFileSync(join(contentDir, 'pictures.json'), JSON.stringify(p));
    if (d) writeFileSync(join(contentDir, 'documents.json'), JSON.stringify(d));
    else rmSync(join(contentDir, 'documents.json'), { force: true });
  };
  write(pictures, documents);
  /** A build: its maps read and checked, then kept. */
  const build = () => {
    const maps = readMaps(cacheDir, contentDir);
    expect(keepMaps(cacheDir, maps.texts)).toBe(true);
    return maps.hold;
  };
  const hold = () => readMaps(cacheDir, contentDir).hold;
  return { cacheDir, contentDir, write, build, hold };
}

describe('the maps the keys were made with', () => {
  it('hold once kept, and while pictures and documents are only added', () => {
    const { write, build, hold } = folders({ [A]: picture('a1') }, kept);
    expect(build()).toBe(false);
    expect(hold()).toBe(true);
    write({ [A]: picture('a1'), [B]: picture('b1') }, kept);
    expect(hold()).toBe(true);
  });

  it('do not hold when a picture is drawn anew at its URL or is gone, or a document changed or is gone', () => {
    const { write, build, hold } = folders({ [A]: picture('a1'), [B]: picture('b1') }, kept);
    build();
    write({ [A]: picture('a2'), [B]: picture('b1') }, kept);
    expect(hold()).toBe(false);
    write({ [B]: picture('b1') }, kept);
    expect(hold()).toBe(false);
    write({ [A]: picture('a1'), [B]: picture('b1') }, { [DOC]: { type: 'pdf', failed: 'HTTP 404' } });
    expect(hold()).toBe(false);
    write({ [A]: picture('a1'), [B]: picture('b1') }, null);
    expect(hold()).toBe(false);
    write({ [A]: picture('a1'), [B]: picture('b1') }, kept);
    expect(hold()).toBe(true);
  });

  it('a map no pull wrote is kept as empty; a kept map cut short holds nothing', () => {
    const { cacheDir, write, build, hold } = folders({ [A]: picture('a1') }, null);
    build();
    write({ [A]: picture('a1') }, { [DOC]: { type: 'pdf', failed: 'HTTP 404' } });
    expect(hold()).toBe(true);
    writeFileSync(join(cacheDir, 'maps-of-the-keys', 'pictures.json'), '{"https://media.example.uz/uplo');
    expect(hold()).toBe(false);
  });

  it('are kept as the pages read them, whatever a pull writes meanwhile', () => {
    const { contentDir, write, hold, cacheDir } = folders({ [A]: picture('a1') });
    const maps = readMaps(cacheDir, contentDir);
    supplyPulledMaps(maps.maps);
    try {
      process.env.CONTENT_DIR = contentDir;
      // A pull rewrites the map while the build runs: the pages still read the map the build checked.
      write({ [A]: picture('a2') }, {});
      expect(pictureMap()[A]!.id).toBe('a1');
    } finally {
      supplyPulledMaps(undefined);
      delete process.env.CONTENT_DIR;
    }
    keepMaps(cacheDir, maps.texts);
    // Kept as read: against the pull's map, an entry changed.
    expect(hold()).toBe(false);
  });

  it('that cannot be written are not kept at all, not even an earlier build’s', () => {
    const { cacheDir, contentDir, write, build, hold } = folders({ [A]: picture('a1') });
    build();
    write({ [A]: picture('a2') }, {});
    const folder = join(cacheDir, 'maps-of-the-keys');
    // The document map's place taken by a folder that is not empty: the picture map is written, the document map not.
    rmSync(join(folder, 'documents.json'));
    mkdirSync(join(folder, 'documents.json', 'in-the-way'), { recursive: true });
    expect(keepMaps(cacheDir, readMaps(cacheDir, contentDir).texts)).toBe(false);
    expect(existsSync(folder)).toBe(false);
    expect(hold()).toBe(false);
  });
});
