/**
 * A build step between Astro and the last pass: puts the district's pictures (its folder, src/district/) into
 * the site, and names the files of the stores the last pass places there, as hard links to the store's files,
 * with their hashes, so that it never reads a picture or a document to hash it: every drawn picture the picture
 * map names, and every document the document map keeps.
 */
import { copyFileSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { documentOriginal } from './document-store.ts';
import { district, districtDir, districtPicturePath, fetchedPicturesOf } from '../../../src/district/district.ts';
import type { DocumentMap } from '../../../src/content/documents/map.ts';
import { drawnDir, drawnHashes } from './draw-pictures.ts';
import type { PictureMap } from '../../../src/content/pictures/map.ts';
import { PICTURE_SITE_DIR, variantFile } from '../../../src/content/pictures/settings.ts';
import type { StoredFile } from '../finish/finish-step.ts';

/** The drawn pictures the pages show, by site path (`/_astro/pictures/…`). */
export function storedPictures(map: PictureMap, storeDir: string): Map<string, StoredFile> {
  const hashes = drawnHashes(storeDir);
  const placed = new Map<string, StoredFile>();
  for (const entry of Object.values(map)) {
    for (const width of entry.widths) {
      const name = variantFile(entry.id, width);
      const path = `/${PICTURE_SITE_DIR}/${name}`;
      if (placed.has(path)) continue;
      const hash = hashes[name];
      if (!hash) throw new Error(`the picture store has no ${name}: run the pull again (npm run pull)`);
      placed.set(path, { source: join(drawnDir(storeDir), name), hash });
    }
  }
  return placed;
}

/** The documents the pages link to, by site path (`/documents/…`). */
export function storedDocuments(map: DocumentMap, storeDir: string): Map<string, StoredFile> {
  const placed = new Map<string, StoredFile>();
  for (const entry of Object.values(map)) {
    if ('path' in entry && !placed.has(entry.path)) placed.set(entry.path, { source: documentOriginal(storeDir, entry.sha), hash: entry.sha });
  }
  return placed;
}

/** Copies the pictures of the district's folder that pages fetch to their site addresses: the favicon, and the figures and slides under `/illustrations/`. The emblem is drawn inline. */
export function placeDistrictPictures(outDir: string): void {
  for (const name of fetchedPicturesOf(district())) {
    const file = join(outDir, districtPicturePath(name));
    mkdirSync(dirname(file), { recursive: true });
    copyFileSync(join(districtDir(), name), file);
  }
}
