/**
 * Text files the build keeps in a folder of their own between builds (the search index's, the sitemap's), which
 * the last pass places into the site as hard links, with their hashes, as it places the drawn pictures
 * (../pipeline/finish/finish-step.ts, `stored`): never written into the site, nor read again to be hashed.
 *
 * A file is written only where it changed, always as a new file renamed into place, never through the old one:
 * a published release may share its inode.
 */
import { hash } from 'node:crypto';
import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { replaceFileSync } from './replace-file.ts';

/**
 * Writes `files` (text by name) into `folder` where `unchanged` does not vouch for the file there, removes the files
 * not among them, and returns every file's hash (SHA-256, as the last pass hashes a file) by name.
 */
export function storeTextFiles(
  folder: string,
  files: ReadonlyMap<string, string>,
  unchanged: (file: string, name: string, text: string) => boolean,
): { hashes: Map<string, string>; written: number } {
  mkdirSync(folder, { recursive: true });
  const hashes = new Map<string, string>();
  let written = 0;
  for (const [name, text] of files) {
    const file = join(folder, name);
    if (!unchanged(file, name, text)) {
      replaceFileSync(file, text);
      written++;
    }
    hashes.set(name, hash('sha256', text));
  }
  for (const name of readdirSync(folder)) if (!files.has(name)) rmSync(join(folder, name), { force: true });
  return { hashes, written };
}
