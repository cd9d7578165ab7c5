/**
 * The maps the pull writes beside the snapshot (pictures.json, documents.json), read once per build by
 * the pages without the network. A map no pull has written yet reads as empty: the pages then leave out
 * what it would name (a picture) or link to the media server instead (a document).
 */
import { join } from 'node:path';
import { readConfig } from '../config.ts';
import { readTextSync } from './read-text.ts';

const cached = new Map<string, unknown>();

export function pulledMap<T extends object>(name: string): T {
  const file = join(readConfig().contentDir, name);
  if (!cached.has(file)) cached.set(file, readPulledMap<T>(file) ?? {});
  return cached.get(file) as T;
}

/** A map as the pull wrote it in `file`, or null when there is none to read (not pulled yet, not a map). */
export function readPulledMap<T extends object>(file: string): T | null {
  try {
    const map = JSON.parse(readTextSync(file)) as unknown;
    return map && typeof map === 'object' && !Array.isArray(map) ? (map as T) : null;
  } catch {
    return null;
  }
}
