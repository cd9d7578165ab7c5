/**
 * Which pictures a snapshot shows, where (their roles, settings.ts) and for
 * which items (so that a rebuild told of a change looks again at only that
 * item's pictures). Only pictures on the media origin are the site's to
 * draw; a picture elsewhere is left out, as it always was.
 *
 * A pull told what changed does not walk the whole snapshot for them (40,000 posts and their texts at 10,000
 * news a language): it takes what the snapshot before it showed, kept beside the picture map
 * (`pictures-shown.json`), and looks again at the items that differ (`shownSince`).
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { itemKey } from '../../../src/content/changes.ts';
import type { Snapshot } from '../../../src/content/snapshot.ts';
import { snapshotTextFiles } from '../../../src/content/text-files.ts';
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

/** The pictures a snapshot shows; only those of the items `wanted` lets through (by key), when given. */
export function shownPictures(snapshot: Snapshot, mediaBase: string, wanted: (item: string) => boolean = () => true): ShownPictures {
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
  const image = (item: string, role: PictureRole, path: string | null) => {
    if (path && wanted(item)) add(item, role, pictureUrl(path, mediaBase));
  };
  for (const { item, files } of snapshotTextFiles(snapshot, mediaBase, wanted)) for (const url of files.textPictures) add(item, 'text', url);
  for (const [code, c] of Object.entries(snapshot.languages)) {
    for (const p of Object.values(c.posts)) image(itemKey('post', code, p.id), 'post', p.imageUrl);
    for (const [cat, people] of Object.entries(c.employees)) for (const e of people) image(itemKey('employee', code, `${cat}/${e.id}`), 'person', e.imageUrl);
    for (const g of c.photoGroups) for (const p of g.photos) image(itemKey('gallery', code, g.id), 'photo', p.imageUrl);
  }
  return shown;
}

/**
 * The pictures `snapshot` shows, from those the snapshot before it showed (`before`, which this takes over) and
 * the items that differ between the two (`changed`: added, changed and removed), whose pictures alone are looked
 * at again. `touched`: the pictures whose items or roles may differ; every other one is shown as before.
 */
export function shownSince(before: ShownPictures, snapshot: Snapshot, mediaBase: string, changed: ReadonlySet<string>): { shown: ShownPictures; touched: Set<string> } {
  const touched = new Set<string>();
  for (const [url, shownBy] of before) {
    for (const item of shownBy.keys()) {
      if (!changed.has(item)) continue;
      shownBy.delete(item);
      touched.add(url);
    }
    if (!shownBy.size) before.delete(url);
  }
  for (const [url, shownBy] of shownPictures(snapshot, mediaBase, (item) => changed.has(item))) {
    touched.add(url);
    const kept = before.get(url);
    if (!kept) before.set(url, shownBy);
    else for (const [item, roles] of shownBy) kept.set(item, roles);
  }
  return { shown: before, touched };
}

// ---------------------------------------------------------------------------------------------
// What the last pull's snapshot showed, kept beside its picture map

export const SHOWN_FILE = 'pictures-shown.json';

/**
 * What the pictures a snapshot shows are worked out with, besides its items: the media base, how its posts' files
 * were found, and this code. Kept pictures worked out with another are not taken.
 */
export async function shownBasis(snapshot: Snapshot, mediaBase: string): Promise<string> {
  const code = await codeTexts([new URL(import.meta.url).pathname]);
  return createHash('sha256')
    .update(JSON.stringify([mediaBase, snapshot.postFilesFoundWith ?? null, code]))
    .digest('base64url');
}

interface ShownFile {
  /** When the snapshot they are of was pulled (its `pulledAt`). */
  of: string;
  basis: string;
  shown: Record<string, Record<string, PictureRole[]>>;
}

const ROLES = new Set(Object.keys(PICTURE_WIDTHS));

/** The pictures the snapshot pulled at `of` showed, when kept in `contentDir` with `basis`; else null. */
export function readShown(contentDir: string, of: string, basis: string): ShownPictures | null {
  try {
    const file = JSON.parse(readFileSync(join(contentDir, SHOWN_FILE), 'utf8')) as Partial<ShownFile>;
    if (file.of !== of || file.basis !== basis || !file.shown || typeof file.shown !== 'object') return null;
    const shown: ShownPictures = new Map();
    for (const url in file.shown) {
      const shownBy = new Map<string, Set<PictureRole>>();
      for (const [item, roles] of Object.entries(file.shown[url]!)) {
        if (!Array.isArray(roles) || !roles.every((role) => ROLES.has(role))) return null;
        shownBy.set(item, new Set(roles));
      }
      shown.set(url, shownBy);
    }
    return shown;
  } catch {
    return null;
  }
}

/** Keeps the pictures the snapshot pulled at `of` shows, for the next pull told what changed. */
export function writeShown(contentDir: string, of: string, basis: string, shown: ShownPictures): void {
  const file: ShownFile = { of, basis, shown: {} };
  for (const [url, shownBy] of shown) {
    const byItem: Record<string, PictureRole[]> = {};
    for (const [item, roles] of shownBy) byItem[item] = [...roles];
    file.shown[url] = byItem;
  }
  replaceFileSync(join(contentDir, SHOWN_FILE), JSON.stringify(file));
}
