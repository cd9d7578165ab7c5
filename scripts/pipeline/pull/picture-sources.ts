/**
 * Which pictures a snapshot shows, where (their roles, settings.ts) and for
 * which items (so that a rebuild told of a change looks again at only that
 * item's pictures). Only pictures on the media origin are the site's to
 * draw; a picture elsewhere is left out, as it always was.
 *
 * A pull told what changed does not walk the whole snapshot for them (40,000 posts and their texts at 10,000
 * news a language): it takes what the snapshot before it showed, kept beside the picture map
 * (`pictures-shown.json`), and looks again at the items that differ, in both snapshots (`shownSince`).
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { snapshotTextFiles } from '../../../src/content/text-files.ts';
import { itemTexts, snapshotItem, snapshotItems, type Snapshot, type SnapshotItem } from '../../../src/content/snapshot.ts';
import { pictureUrl } from '../../../src/content/pictures/map.ts';
import { PICTURE_WIDTHS, type PictureRole } from '../../../src/content/pictures/settings.ts';
import { codeTexts } from '../../lib/code-graph.ts';
import { replaceFileSync } from '../../lib/replace-file.ts';

/** Every item that shows a picture (snapshot item keys, `post:12@ru`), with the roles it shows it in, by the picture's URL. */
export type ShownPictures = Map<string, Map<string, Set<PictureRole>>>;

export interface PictureSource {
  roles: Set<PictureRole>;
  /** Snapshot item keys (`post:12@ru`) that show it. */
  items: Set<string>;
}

/** What a picture is shown as, and by which items. */
export function sourceOf(shownBy: ReadonlyMap<string, ReadonlySet<PictureRole>>): PictureSource {
  const roles = new Set<PictureRole>();
  for (const itemRoles of shownBy.values()) for (const role of itemRoles) roles.add(role);
  return { roles, items: new Set(shownBy.keys()) };
}

/** The pictures a snapshot shows; or only those the items named show (snapshot item keys, `post:12@ru`). */
export function shownPictures(snapshot: Snapshot, mediaBase: string, items?: Iterable<string>): ShownPictures {
  const origin = new URL(pictureUrl('/', mediaBase)).origin;
  const shown: ShownPictures = new Map();
  const elsewhere = new Set<string>();
  const add = (item: string, role: PictureRole, url: string | null) => {
    if (!url) return;
    let shownBy = shown.get(url);
    // Each URL parsed once: a post shows its picture in each of its languages (40,000 times 10,000 pictures at 10,000 news a language).
    if (!shownBy) {
      if (elsewhere.has(url)) return;
      if (!URL.canParse(url) || new URL(url).origin !== origin) return void elsewhere.add(url);
      shown.set(url, (shownBy = new Map()));
    }
    const roles = shownBy.get(item);
    if (roles) roles.add(role);
    else shownBy.set(item, new Set([role]));
  };
  const images = (key: string, item: SnapshotItem) => {
    for (const [role, path] of itemImages(item)) if (path) add(key, role, pictureUrl(path, mediaBase));
  };
  const named = items && [...items];
  for (const { item, files } of snapshotTextFiles(snapshot, mediaBase, named && itemTexts(snapshot, named))) for (const url of files.textPictures) add(item, 'text', url);
  if (named) {
    for (const key of named) {
      const item = snapshotItem(snapshot, key);
      if (item) images(key, item);
    }
  } else for (const { key, item } of snapshotItems(snapshot)) images(key, item);
  return shown;
}

/** The pictures an item shows besides those of its text, each with its role: a post its own, a person their photograph, a photo group its photos. */
function itemImages(item: SnapshotItem): [PictureRole, string | null][] {
  if (item.kind === 'post') return [['post', item.post.imageUrl]];
  if (item.kind === 'employee') return [['person', item.employee.imageUrl]];
  if (item.kind === 'gallery') return item.group.photos.map((p) => ['photo', p.imageUrl]);
  return [];
}

/**
 * What the pictures `snapshot` shows are, from what the snapshot before it (`previous`) showed (`before`, as kept:
 * by picture URL, then item) and the items that differ between the two (`changed`: added, changed and removed).
 * Only those items are looked at, in both snapshots; `before` is brought up to date in place. Returns the pictures
 * whose items or roles may differ (`touched`, with what now shows each: none when no item does); every other
 * picture is shown as before. Undefined when what is kept of a picture looked at cannot be read.
 */
export function shownSince(
  before: KeptShown,
  previous: Snapshot,
  snapshot: Snapshot,
  mediaBase: string,
  changed: ReadonlySet<string>,
): Map<string, Map<string, Set<PictureRole>>> | undefined {
  const touched = new Map<string, Map<string, Set<PictureRole>>>();
  const take = (url: string) => {
    let shownBy = touched.get(url);
    if (!shownBy) {
      const was = Object.hasOwn(before, url) ? keptShownBy(before[url]) : new Map<string, Set<PictureRole>>();
      if (!was) return undefined;
      touched.set(url, (shownBy = was));
    }
    return shownBy;
  };
  for (const [url, was] of shownPictures(previous, mediaBase, changed)) {
    const shownBy = take(url);
    if (!shownBy) return undefined;
    for (const item of was.keys()) shownBy.delete(item);
  }
  for (const [url, now] of shownPictures(snapshot, mediaBase, changed)) {
    const shownBy = take(url);
    if (!shownBy) return undefined;
    for (const [item, roles] of now) shownBy.set(item, roles);
  }
  for (const [url, shownBy] of touched) {
    if (shownBy.size) before[url] = keptText(shownBy);
    else delete before[url];
  }
  return touched;
}

// ---------------------------------------------------------------------------------------------
// What the last pull's snapshot showed, kept beside its picture map

export const SHOWN_FILE = 'pictures-shown.json';

/** The project's folder: the code below is hashed with its lockfile. */
const ROOT = fileURLToPath(new URL('../../..', import.meta.url));

/**
 * What the pictures a snapshot shows, and their entries in the map, are worked out with besides its items: the
 * media base, how its posts' files were found, and the pull's pictures step with all it imports. Kept pictures
 * worked out with another are not taken.
 */
export async function shownBasis(snapshot: Snapshot, mediaBase: string): Promise<string> {
  const code = await codeTexts([fileURLToPath(new URL('./pull-pictures.ts', import.meta.url))], ROOT);
  return createHash('sha256')
    .update(JSON.stringify([mediaBase, snapshot.postFilesFoundWith ?? null, code]))
    .digest('base64url');
}

/**
 * What a snapshot shows, as kept between pulls: by picture URL, each item that shows it with its roles, as one
 * string (`post:12@ru=post post:12@en=post,text`): 9,000 strings parse in a fraction of the time of 9,000 objects
 * of 40,000 arrays, and a pull reads only the few it looks at.
 */
export type KeptShown = Record<string, string>;

const ROLES = new Set<string>(Object.keys(PICTURE_WIDTHS));

/** A picture's items and roles as kept. */
const keptText = (shownBy: ReadonlyMap<string, ReadonlySet<PictureRole>>) => [...shownBy].map(([item, roles]) => `${item}=${[...roles].join(',')}`).join(' ');

/** A picture's items and roles from what was kept; undefined when that is not what `keptText` writes. */
export function keptShownBy(text: unknown): Map<string, Set<PictureRole>> | undefined {
  if (typeof text !== 'string' || !text) return undefined;
  const shownBy = new Map<string, Set<PictureRole>>();
  for (const entry of text.split(' ')) {
    const at = entry.lastIndexOf('=');
    const roles = entry.slice(at + 1).split(',');
    if (at < 1 || !roles.every((role) => ROLES.has(role))) return undefined;
    shownBy.set(entry.slice(0, at), new Set(roles as PictureRole[]));
  }
  return shownBy;
}

interface ShownFile {
  /** When the snapshot they are of was pulled (its `pulledAt`). */
  of: string;
  basis: string;
  shown: KeptShown;
}

/** What the snapshot pulled at `of` showed, when kept in `contentDir` with `basis`; else null. Only what a pull looks at is checked further. */
export function readShown(contentDir: string, of: string, basis: string): KeptShown | null {
  try {
    const file = JSON.parse(readFileSync(join(contentDir, SHOWN_FILE), 'utf8')) as Partial<ShownFile>;
    return file.of === of && file.basis === basis && typeof file.shown === 'object' && file.shown !== null && !Array.isArray(file.shown) ? file.shown : null;
  } catch {
    return null;
  }
}

/** Keeps what the snapshot pulled at `of` shows, for the next pull told what changed. */
export function writeShown(contentDir: string, of: string, basis: string, shown: ShownPictures | KeptShown): void {
  const kept: KeptShown = shown instanceof Map ? Object.fromEntries([...shown].map(([url, shownBy]) => [url, keptText(shownBy)])) : shown;
  replaceFileSync(join(contentDir, SHOWN_FILE), JSON.stringify({ of, basis, shown: kept } satisfies ShownFile));
}
