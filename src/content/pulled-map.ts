/**
 * The maps the pull writes beside the snapshot (pictures.json, documents.json), read once per build by
 * the pages without the network. A map no pull has written yet reads as empty: the pages then leave out
 * what it would name (a picture) or link to the media server instead (a document).
 */
import { join } from 'node:path';
import { readConfig } from '../config.ts';
import { readTextSync } from './read-text.ts';

const cached = new Map<string, unknown>();

const SUPPLIED = Symbol.for('hokimiyat.pulled-maps-supplied');
const shared = globalThis as { [SUPPLIED]?: ReadonlyMap<string, object | null> };

/**
 * The maps by file as the build read them (null: none, read as empty), which the pages then use instead of reading
 * the files: the build keeps the very maps its pages' keys were made with (scripts/pipeline/astro/kept-maps.ts),
 * whatever a pull writes meanwhile. Undefined withdraws them.
 */
export function supplyPulledMaps(maps: ReadonlyMap<string, object | null> | undefined): void {
  shared[SUPPLIED] = maps;
}

export function pulledMap<T extends object>(name: string): T {
  const file = join(readConfig().contentDir, name);
  if (!cached.has(file)) {
    const supplied = shared[SUPPLIED]?.get(file);
    cached.set(file, (supplied === undefined ? readPulledMap<T>(file) : supplied) ?? {});
  }
  return cached.get(file) as T;
}

/** A map as the pull wrote it in `file`, or null when there is none to read (not pulled yet, not a map). */
export function readPulledMap<T extends object>(file: string): T | null {
  try {
    return parsePulledMap<T>(readTextSync(file));
  } catch {
    return null;
  }
}

/** A map's text as the map, or null when it is not one. */
export function parsePulledMap<T extends object>(text: string): T | null {
  try {
    const map = JSON.parse(text) as unknown;
    return map && typeof map === 'object' && !Array.isArray(map) ? (map as T) : null;
  } catch {
    return null;
  }
}
