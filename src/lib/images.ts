/**
 * Pictures from the API, made for slow connections: fetched and drawn by the
 * pull (src/content/pictures/), served from the site itself in WebP at the
 * widths of where they are shown, with their real width and height so nothing
 * jumps as they load. A picture the pull could not fetch or draw has no entry
 * in the picture map: it is left out (the caller shows none), with a warning.
 */
import { readConfig } from '../config.ts';
import { pictureMap, pictureUrl } from '../content/pictures/map.ts';
import { PICTURE_SITE_DIR, PICTURE_WIDTHS, variantFile, type PictureRole } from '../content/pictures/settings.ts';
import { localPictures } from './text-pictures.ts';
import { siteAddress } from './base-path.ts';

export interface ResponsivePicture {
  srcset: string;
  /** The middle width, for browsers that read no srcset. */
  src: string;
  width: number;
  height: number;
  /** The largest drawn, for the lightbox. */
  large: string;
}

const warned = new Set<string>();

/**
 * The drawn sizes of the picture at `path` shown as `role`: the role's widths, or those of `widths`
 * (some of the role's), each no wider than the picture itself.
 */
export function responsivePicture<R extends PictureRole>(
  path: string | null,
  role: R,
  widths: readonly (typeof PICTURE_WIDTHS)[R][number][] = PICTURE_WIDTHS[role],
): ResponsivePicture | null {
  if (!path) return null;
  const url = pictureUrl(path, readConfig().mediaBase);
  const entry = pictureMap()[url];
  if (!entry) {
    if (!warned.has(url)) console.warn(`warning: picture ${url} left out: it was not fetched or could not be drawn`);
    warned.add(url);
    return null;
  }
  const wanted = new Set(widths.map((w) => Math.min(w, entry.width)));
  const shown = entry.widths.filter((w) => wanted.has(w));
  if (!shown.length) shown.push(entry.widths[0]!);
  const file = (w: number) => siteAddress(`/${PICTURE_SITE_DIR}/${variantFile(entry.id, w)}`);
  return {
    srcset: shown.map((w) => `${file(w)} ${w}w`).join(', '),
    src: file(shown[Math.floor((shown.length - 1) / 2)]!),
    width: entry.width,
    height: entry.height,
    large: file(entry.widths.at(-1)!),
  };
}

/** Serves the pictures of a sanitised API text from the site (see localPictures). */
export function withLocalPictures(html: string): string {
  return localPictures(html, new URL(pictureUrl('/', readConfig().mediaBase)).origin, (src) => responsivePicture(src, 'text'));
}
