/**
 * The picture and document maps the pages' keys in Astro's manifest were made with, copied beside it when a build
 * has succeeded. A key made from what its page is made from (src/content/cache-key.ts `madeFromKey`) holds the
 * entries of the files its page names as they were then: its page may be taken by the first part alone only while
 * every entry of those maps is the same in this build's. An entry added is no matter: a page that named a file its map
 * lacked has a key of one part. Whether the code is the same is the caller's to say (./changed-pages.ts, its record
 * beside the manifest, written after these).
 */
import { copyFileSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { DOCUMENT_MAP_FILE } from '../../../src/content/documents/map.ts';
import { PICTURE_MAP_FILE } from '../../../src/content/pictures/map.ts';
import { replaceFileSync } from '../../lib/replace-file.ts';

const KEPT_FOLDER = 'maps-of-the-keys';
const MAPS = [PICTURE_MAP_FILE, DOCUMENT_MAP_FILE];

/** A map's entries, each as JSON, by URL; null when the text is not a map. */
function entries(text: string): Map<string, string> | null {
  let map: unknown;
  try {
    map = JSON.parse(text);
  } catch {
    return null;
  }
  if (!map || typeof map !== 'object' || Array.isArray(map)) return null;
  return new Map(Object.entries(map).map(([url, entry]) => [url, JSON.stringify(entry)]));
}

const readOrNull = (file: string) => {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return null;
  }
};

/** Whether every entry of the maps kept in `cacheDir` is the same in those of `contentDir` (false when none were kept). */
export function keptMapsHold(cacheDir: string, contentDir: string): boolean {
  return MAPS.every((name) => {
    const kept = readOrNull(join(cacheDir, KEPT_FOLDER, name));
    if (kept === null) return false;
    // A map no pull has written is empty, as the pages read it (src/content/pulled-map.ts).
    const now = readOrNull(join(contentDir, name)) ?? '{}';
    if (now === kept) return true;
    const [before, current] = [entries(kept), entries(now) ?? new Map<string, string>()];
    if (!before) return false;
    for (const [url, entry] of before) if (current.get(url) !== entry) return false;
    return true;
  });
}

/** Keeps the maps of `contentDir` as this build's keys were made with them. */
export function keepMaps(cacheDir: string, contentDir: string): void {
  mkdirSync(join(cacheDir, KEPT_FOLDER), { recursive: true });
  for (const name of MAPS) {
    const kept = join(cacheDir, KEPT_FOLDER, name);
    // Never an earlier build's map left where this one's could not be written: entries of it may have changed since.
    rmSync(kept, { force: true });
    try {
      copyFileSync(join(contentDir, name), kept);
    } catch {
      replaceFileSync(kept, '{}');
    }
  }
}
