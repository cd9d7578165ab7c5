/**
 * A pull told what changed works on the pictures of the changed items alone, and writes the picture map a whole
 * pull of the same snapshot and store writes: byte for byte, whatever the change did to a picture (shown anew,
 * shown in another role, shown no more, shown by another item), and a picture left out before is tried again.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { pullPictures } from '../../scripts/pipeline/pull/pull-pictures.ts';
import { SHOWN_FILE } from '../../scripts/pipeline/pull/picture-sources.ts';
import { PICTURE_MAP_FILE, type PictureMap } from '../../src/content/pictures/map.ts';
import { variantFile } from '../../src/content/pictures/settings.ts';
import type { Snapshot } from '../../src/content/snapshot.ts';

const dirs: string[] = [];
const tempDir = (name: string) => {
  const dir = mkdtempSync(join(tmpdir(), `${name}-`));
  dirs.push(dir);
  return dir;
};
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));
const quiet = () => {};

interface Shown {
  posts: { id: number; image: string; text?: string }[];
  people?: { id: number; image: string }[];
  photos?: string[];
}

/** A snapshot of one language showing these pictures (paths on the media server). */
function snapshotOf(pulledAt: string, { posts, people = [], photos = [] }: Shown): Snapshot {
  return {
    pulledAt,
    apiBase: 'http://api.example',
    languages: {
      ru: {
        posts: Object.fromEntries(posts.map(({ id, image, text = '' }) => [id, { id, imageUrl: image, html: text }])),
        pages: {},
        employees: { leaders: people.map(({ id, image }) => ({ id, imageUrl: image, biographyHtml: '', dutiesHtml: '' })) },
        photoGroups: [{ id: 5, photos: photos.map((imageUrl) => ({ imageUrl })) }],
      },
    },
  } as unknown as Snapshot;
}

describe("a pull's pictures, told what changed", () => {
  it("looks at the changed items' pictures and those left out before, and writes the map a whole pull writes", async () => {
    // Each picture its own colour, 1,000 px wide: every role's widths below it are drawn.
    const down = new Set(['/media/late.png']);
    const server = createServer((req, res) => {
      if (down.has(req.url!)) return void res.writeHead(503).end();
      const shade = [...req.url!].reduce((n, c) => (n * 31 + c.charCodeAt(0)) % 256, 7);
      void sharp({ create: { width: 1000, height: 600, channels: 3, background: { r: shade, g: 255 - shade, b: 90 } } })
        .png()
        .toBuffer()
        .then((png) => res.writeHead(200, { 'content-type': 'image/png' }).end(png));
    });
    await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
    const media = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    try {
      const [contentDir, storeDir] = [tempDir('content'), tempDir('store')];
      const before = snapshotOf('2026-12-01T00:00:00.000Z', {
        posts: [
          { id: 1, image: '/media/a.png', text: '<p><img src="/media/in-text.png" alt=""></p>' },
          { id: 2, image: '/media/a.png' },
          { id: 3, image: '/media/late.png' },
          { id: 4, image: '/media/kept.png' },
          { id: 6, image: '/media/other.png' },
        ],
        people: [{ id: 7, image: '/media/person.png' }],
        photos: ['/media/photo.png'],
      });
      const whole = await pullPictures({ contentDir, snapshot: before, mediaBase: media, storeDir, revalidate: 'all', log: quiet });
      expect(whole).toMatchObject({ pictures: 6, lookedAt: 7 });
      expect(JSON.parse(readFileSync(join(contentDir, PICTURE_MAP_FILE), 'utf8'))).not.toHaveProperty(`${media}media/late.png`);

      // Post 1 shows another picture; post 2 now shows a.png in its text too (another role, more widths); the
      // person is gone with the only copy of their portrait; a new photo, and kept.png among the photos too, shown
      // by post 4 still (roles of a changed and an unchanged item); late.png answers now.
      down.clear();
      const after = snapshotOf('2026-12-02T00:00:00.000Z', {
        posts: [
          { id: 1, image: '/media/b.png', text: '<p><img src="/media/in-text.png" alt=""></p>' },
          { id: 2, image: '/media/a.png', text: '<img src="/media/a.png" alt="">' },
          { id: 3, image: '/media/late.png' },
          { id: 4, image: '/media/kept.png' },
          { id: 6, image: '/media/other.png' },
        ],
        photos: ['/media/photo.png', '/media/new-photo.png', '/media/kept.png'],
      });
      const changed = ['post:1@ru', 'post:2@ru', 'gallery:5@ru'];
      const told = {
        snapshot: after,
        mediaBase: media,
        storeDir,
        revalidate: new Set(changed),
        since: { snapshot: before, items: new Set([...changed, 'employee:leaders/7@ru']) },
        log: quiet,
      };
      const partly = await pullPictures({ ...told, contentDir });
      // Those of the changed posts and group, and late.png (left out before); not other.png, whose post is as it was.
      expect(partly).toMatchObject({ pictures: 8, lookedAt: 7 });
      const mapTold = readFileSync(join(contentDir, PICTURE_MAP_FILE), 'utf8');

      const wholeDir = tempDir('content-whole');
      const again = await pullPictures({ ...told, contentDir: wholeDir, since: undefined });
      expect(again.lookedAt).toBe(8);
      expect(mapTold).toBe(readFileSync(join(wholeDir, PICTURE_MAP_FILE), 'utf8'));
      const a = JSON.parse(mapTold)[`${media}media/a.png`];
      expect(a.widths).toEqual([400, 800, 1000]);
      expect(JSON.parse(mapTold)[`${media}media/kept.png`].widths).toEqual([200, 400, 800, 1000]);
      expect(mapTold).not.toContain('person.png');
      // What it shows is kept for the next pull as a whole pull keeps it.
      const kept = (dir: string) => JSON.parse(readFileSync(join(dir, SHOWN_FILE), 'utf8')) as unknown;
      expect(kept(contentDir)).toEqual(kept(wholeDir));

      // Kept for another snapshot, damaged (whole, or where the pull looks), missing its map, a store that lost a drawn
      // file's hash, or a snapshot before that lost a group of posts: the pull looks at every picture.
      const third: Snapshot = { ...after, pulledAt: '2026-12-03T00:00:00.000Z' };
      const fourth: Snapshot = { ...after, pulledAt: '2026-12-04T00:00:00.000Z' };
      const shownFile = join(contentDir, SHOWN_FILE);
      const drawnList = join(storeDir, 'drawn', 'hashes.json');
      const hashesOf = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as Record<string, string>;
      // A drawn file of other.png, which no changed item shows.
      const otherFile = () => {
        const other = (JSON.parse(mapTold) as PictureMap)[`${media}media/other.png`]!;
        return variantFile(other.id, other.widths[0]!);
      };
      const spoils: [() => void, Snapshot][] = [
        [() => undefined, before],
        [() => writeFileSync(shownFile, '{"of": "2026-12-03T00:00:00.000Z", "shown": '), third],
        [() => writeFileSync(shownFile, readFileSync(shownFile, 'utf8').replace(`"${media}media/a.png":"`, `"${media}media/a.png":"post:9@ru=poster `)), third],
        [() => rmSync(join(contentDir, PICTURE_MAP_FILE)), third],
        [() => writeFileSync(drawnList, JSON.stringify({ ...hashesOf(drawnList), [otherFile()]: undefined })), third],
        [() => undefined, { ...third, languages: { ru: { ...third.languages.ru, postDigests: { 99: 'its group is gone' } } } } as unknown as Snapshot],
      ];
      for (const [spoil, previous] of spoils) {
        await pullPictures({ ...told, contentDir, since: { ...told.since, snapshot: after }, snapshot: third });
        spoil();
        const looked = await pullPictures({ ...told, contentDir, since: { ...told.since, snapshot: previous }, snapshot: fourth });
        expect(looked.lookedAt).toBe(8);
        expect(readFileSync(join(contentDir, PICTURE_MAP_FILE), 'utf8')).toBe(mapTold);
      }
    } finally {
      await new Promise((ok) => server.close(ok));
    }
  }, 60_000);
});
