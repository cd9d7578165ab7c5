/**
 * The search index's files between the index's thread and the site: a folder beside Astro's cache that holds
 * each language's files, which the build's last pass places into the site as hard links, with their hashes, as
 * it places the drawn pictures (../finish/finish-step.ts, `stored`). At 10,000 news per language the index is
 * some 1,150 files of 20 MB: written into the site on every build, they took 0.9 s of the build's main thread
 * and were read again and hashed by the last pass; an index kept from the last build changes a few of them.
 *
 * A file is written only when its text differs from the kept index's (./kept-index.ts) or the store lacks it,
 * always as a new file renamed into place, never through the old one: a published release may share its inode.
 */
import { hash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { replaceFileSync } from '../../lib/replace-file.ts';
import type { KeptLanguage } from './kept-index.ts';

/** A language's folder in the store. */
export const storeFolder = (store: string, lang: string) => join(store, lang);

/**
 * Writes a language's index files into the store where they changed since the kept index, removes those it no
 * longer has, and returns every file's hash (SHA-256, as the last pass hashes a file) by name.
 */
export function storeIndexFiles(store: string, lang: string, files: ReadonlyMap<string, string>, kept: KeptLanguage | undefined): { hashes: Map<string, string>; written: number } {
  const folder = storeFolder(store, lang);
  mkdirSync(folder, { recursive: true });
  const hashes = new Map<string, string>();
  let written = 0;
  for (const [name, body] of files) {
    const file = join(folder, name);
    if (kept?.files.get(name) !== body || !existsSync(file)) {
      replaceFileSync(file, body);
      written++;
    }
    hashes.set(name, hash('sha256', body));
  }
  for (const name of readdirSync(folder)) if (!files.has(name)) rmSync(join(folder, name), { force: true });
  return { hashes, written };
}
