/**
 * Which pictures a snapshot shows, where (their roles, settings.ts) and for
 * which items (so that a rebuild told of a change looks again at only that
 * item's pictures). Only pictures on the media origin are the site's to
 * draw; a picture elsewhere is left out, as it always was.
 */
import { itemKey } from '../../../src/content/changes.ts';
import type { Snapshot } from '../../../src/content/snapshot.ts';
import { snapshotTextFiles } from '../../../src/content/text-files.ts';
import { pictureUrl } from '../../../src/content/pictures/map.ts';
import type { PictureRole } from '../../../src/content/pictures/settings.ts';

export interface PictureSource {
  roles: Set<PictureRole>;
  /** Snapshot item keys (`post:12@ru`) that show it. */
  items: Set<string>;
}

export function pictureSources(snapshot: Snapshot, mediaBase: string): Map<string, PictureSource> {
  const origin = new URL(pictureUrl('/', mediaBase)).origin;
  const sources = new Map<string, PictureSource>();
  const elsewhere = new Set<string>();
  const add = (item: string, role: PictureRole, url: string | null) => {
    if (!url) return;
    let source = sources.get(url);
    // Each URL parsed once: a post shows its picture in each of its languages (40,000 times 10,000 pictures at 10,000 news a language).
    if (!source) {
      if (elsewhere.has(url)) return;
      if (!URL.canParse(url) || new URL(url).origin !== origin) return void elsewhere.add(url);
      sources.set(url, (source = { roles: new Set(), items: new Set() }));
    }
    source.roles.add(role);
    source.items.add(item);
  };
  const image = (item: string, role: PictureRole, path: string | null) => add(item, role, path ? pictureUrl(path, mediaBase) : null);
  for (const { item, files } of snapshotTextFiles(snapshot, mediaBase)) for (const url of files.textPictures) add(item, 'text', url);
  for (const [code, c] of Object.entries(snapshot.languages)) {
    for (const p of Object.values(c.posts)) image(itemKey('post', code, p.id), 'post', p.imageUrl);
    for (const [cat, people] of Object.entries(c.employees)) for (const e of people) image(itemKey('employee', code, `${cat}/${e.id}`), 'person', e.imageUrl);
    for (const g of c.photoGroups) for (const p of g.photos) image(itemKey('gallery', code, g.id), 'photo', p.imageUrl);
  }
  return sources;
}
