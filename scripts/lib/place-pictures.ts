/**
 * A build step between Astro and the last pass: puts every drawn picture the
 * picture map names into the site, as a hard link to the store's file (drawn
 * files are never rewritten in place, so releases may share them), and gives
 * the last pass their hashes, so that it never reads a picture to hash it.
 */
import { copyFileSync, linkSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { drawnDir, drawnHashes } from '../../src/content/pictures/draw.ts';
import type { PictureMap } from '../../src/content/pictures/map.ts';
import { PICTURE_SITE_DIR, variantFile } from '../../src/content/pictures/settings.ts';

/** Returns the placed files' hashes by site path (`/_astro/pictures/…`). */
export function placePictures(outDir: string, map: PictureMap, storeDir: string): Record<string, string> {
  const hashes = drawnHashes(storeDir);
  const target = join(outDir, PICTURE_SITE_DIR);
  mkdirSync(target, { recursive: true });
  const placed: Record<string, string> = {};
  for (const entry of Object.values(map)) {
    for (const width of entry.widths) {
      const name = variantFile(entry.id, width);
      const path = `/${PICTURE_SITE_DIR}/${name}`;
      if (placed[path]) continue;
      const hash = hashes[name];
      if (!hash) throw new Error(`the picture store has no ${name}: run the pull again (npm run pull)`);
      rmSync(join(target, name), { force: true });
      try {
        linkSync(join(drawnDir(storeDir), name), join(target, name));
      } catch (error) {
        // Another file system than the store's: a copy.
        if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
        copyFileSync(join(drawnDir(storeDir), name), join(target, name));
      }
      placed[path] = hash;
    }
  }
  return placed;
}
