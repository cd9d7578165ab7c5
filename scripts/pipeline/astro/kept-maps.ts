/**
 * The picture and document maps the pages' keys in Astro's manifest were made with, copied beside it when a build
 * has succeeded. A key made from what its page is made from (src/content/cache-key.ts `madeFromKey`) holds the
 * entries of the files its page names as they were then: its page may be taken by the first part alone only while
 * every entry of those maps is the same in this build's. An entry added is no matter: a page that named a file its map
 * lacked has a key of one part. Whether the code is the same is the caller's to say (./changed-pages.ts, its record
 * beside the manifest, written after these).
 *
 * Each map is read once, checked, handed to the pages (src/content/pulled-map.ts `supplyPulledMaps`) and kept as that
 * same text: a pull that rewrites a map while the build runs cannot put other entries beside the keys.
 */
import { mkdirSync, rmSync } from 'node:fs';
import { basename, join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { DOCUMENT_MAP_FILE } from '../../../src/content/documents/map.ts';
import { PICTURE_MAP_FILE } from '../../../src/content/pictures/map.ts';
import { parsePulledMap } from '../../../src/content/pulled-map.ts';
import { readTextSync } from '../../../src/content/read-text.ts';
import { replaceFileSync } from '../../lib/replace-file.ts';

const KEPT_FOLDER = 'maps-of-the-keys';
const MAPS = [PICTURE_MAP_FILE, DOCUMENT_MAP_FILE];

/** The maps of this build, as read once, and whether the entries of those kept are all the same in them. */
export interface MapsRead {
  /** The text of each map by its file in the content folder; null where there is none (read as empty). */
  texts: ReadonlyMap<string, string | null>;
  /** Each map as the pages use it (src/content/pulled-map.ts `supplyPulledMaps`): null where there is none or it is not a map. */
  maps: ReadonlyMap<string, object | null>;
  hold: boolean;
}

const readOrNull = (file: string) => {
  try {
    return readTextSync(file);
  } catch {
    return null;
  }
};

/** Whether every entry of the `kept` map's text is the same in this build's (`text`, and `map` parsed from it; none is empty). */
function entriesHold(kept: string | null, text: string | null, map: object | null): boolean {
  if (kept === null) return false;
  if (kept === (text ?? '{}')) return true;
  const before = parsePulledMap<Record<string, unknown>>(kept);
  if (!before) return false;
  const now = (map ?? {}) as Record<string, unknown>;
  for (const url in before) if (!Object.hasOwn(now, url) || !isDeepStrictEqual(before[url], now[url])) return false;
  return true;
}

/** This build's maps in `contentDir`, read once, checked against those kept in `cacheDir`. */
export function readMaps(cacheDir: string, contentDir: string): MapsRead {
  const texts = new Map<string, string | null>();
  const maps = new Map<string, object | null>();
  let hold = true;
  for (const name of MAPS) {
    const file = join(contentDir, name);
    const text = readOrNull(file);
    const map = text === null ? null : parsePulledMap(text);
    texts.set(file, text);
    maps.set(file, map);
    hold &&= entriesHold(readOrNull(join(cacheDir, KEPT_FOLDER, name)), text, map);
  }
  return { texts, maps, hold };
}

/**
 * Keeps this build's maps (`readMaps`' texts) in `cacheDir`. False when they could not be written: then none is
 * kept, and the next build makes every key whole, as it does after one that kept none.
 */
export function keepMaps(cacheDir: string, texts: MapsRead['texts']): boolean {
  const folder = join(cacheDir, KEPT_FOLDER);
  try {
    mkdirSync(folder, { recursive: true });
    for (const [file, text] of texts) replaceFileSync(join(folder, basename(file)), text ?? '{}');
    return true;
  } catch {
    // Never an earlier build's map left where this one's could not be written: entries of it may have changed since.
    rmSync(folder, { recursive: true, force: true });
    return false;
  }
}
