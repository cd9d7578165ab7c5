/**
 * Pictures inside API texts (post bodies, pages, biographies), served from the
 * site like every other API picture. Kept apart from images.ts, which reads
 * the build's picture map, so the rewriting can be tested on its own.
 */
import { decodeHTMLAttribute } from 'entities';
import type { ResponsivePicture } from './images.ts';

const TEXT_PICTURE_SIZES = '(min-width:62rem) 760px,100vw';
const IMG_TAG = /<img\b([^>]*?)\s*\/?>/g;
const ATTRIBUTE = /\s([\w-]+)="([^"]*)"/g;
/** Attributes the site sets itself; the editor's alt, title and lang stay. */
const REPLACED = new Set(['src', 'srcset', 'sizes', 'width', 'height', 'loading', 'decoding']);
/** A value made safe inside a double-quoted attribute. */
export const escapeAttribute = (s: string) => s.replaceAll('&', '&amp;').replaceAll('"', '&quot;');

/**
 * Turns each `<img>` of `html` (already sanitised) whose address is on
 * `mediaOrigin` into the site's drawn sizes with its real size, lazy.
 * A media picture `make` cannot produce is left out, as API pictures are
 * everywhere (images.ts): it would be a broken image on a visitor's screen.
 * Pictures from other origins are left as they were.
 */
export function localPictures(html: string, mediaOrigin: string, make: (src: string) => ResponsivePicture | null): string {
  const tags = [...html.matchAll(IMG_TAG)];
  if (!tags.length) return html;
  const pictures = tags.map(([, attrs]) => {
    const quoted = /\ssrc="([^"]*)"/.exec(attrs!)?.[1];
    const src = quoted && decodeHTMLAttribute(quoted);
    return src && URL.canParse(src) && new URL(src).origin === mediaOrigin ? make(src) : undefined;
  });
  let i = 0;
  return html.replace(IMG_TAG, (tag: string, attrs: string) => {
    const picture = pictures[i++];
    if (picture === undefined) return tag;
    if (picture === null) return '';
    const kept = [...attrs.matchAll(ATTRIBUTE)]
      .filter(([, name]) => !REPLACED.has(name!.toLowerCase()))
      .map(([attribute]) => attribute)
      .join('');
    const sizes = escapeAttribute(TEXT_PICTURE_SIZES);
    return (
      `<img${kept} src="${escapeAttribute(picture.src)}" srcset="${escapeAttribute(picture.srcset)}" sizes="${sizes}" ` +
      `width="${picture.width}" height="${picture.height}" loading="lazy" decoding="async">`
    );
  });
}
