/**
 * A build step between Astro and the last pass: puts the district's pictures (its folder, src/district/),
 * every drawn picture the picture map names, and every document the document map keeps, into the site, as a hard link to its store's file, and gives the last
 * pass their hashes, so that it never reads a picture or a document to hash it.
 */
import { copyFileSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { documentOriginal } from './document-store.ts';
import { district, districtDir, districtPicturePath, fetchedPicturesOf } from '../../../src/district/district.ts';
import type { DocumentMap } from '../../../src/content/documents/map.ts';
import { drawnDir, drawnHashes } from './draw-pictures.ts';
import type { PictureMap } from '../../../src/content/pictures/map.ts';
import { PICTURE_SITE_DIR, variantFile } from '../../../src/content/pictures/settings.ts';
import { placeFile } from '../../lib/files.ts';

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
      placeFile(join(drawnDir(storeDir), name), join(target, name));
      placed[path] = hash;
    }
  }
  return placed;
}

/** Returns the placed documents' hashes by site path (`/documents/…`). */
export function placeDocuments(outDir: string, map: DocumentMap, storeDir: string): Record<string, string> {
  const placed: Record<string, string> = {};
  for (const entry of Object.values(map)) {
    if (!('path' in entry) || placed[entry.path]) continue;
    const file = join(outDir, entry.path);
    mkdirSync(dirname(file), { recursive: true });
    placeFile(documentOriginal(storeDir, entry.sha), file);
    placed[entry.path] = entry.sha;
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
