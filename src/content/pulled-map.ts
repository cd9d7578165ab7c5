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
  if (!cached.has(file)) {
    let map = {};
    try {
      map = JSON.parse(readTextSync(file)) as T;
    } catch {
      // Not pulled yet.
    }
    cached.set(file, map);
  }
  return cached.get(file) as T;
}
