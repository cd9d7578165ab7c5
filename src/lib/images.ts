/**
 * Pictures from the API, made for slow connections: downloaded at build time,
 * served from the site itself, resized to a few widths in AVIF and WebP, with
 * their real width and height so nothing jumps as they load. A picture that
 * cannot be fetched or decoded is left out (the caller shows none) rather than
 * failing the whole build.
 */
import { getImage } from 'astro:assets';
import { mediaUrl } from './media.ts';
import { localPictures } from './text-pictures.ts';

export interface ResponsivePicture {
  avif: string;
  webp: string;
  /** The WebP at the middle width, for browsers that read neither srcset. */
  src: string;
  width: number;
  height: number;
  /** The largest WebP, for the lightbox. */
  large: string;
}

const cache = new Map<string, Promise<ResponsivePicture | null>>();

export function responsivePicture(path: string | null, widths: readonly number[]): Promise<ResponsivePicture | null> {
  const url = mediaUrl(path);
  if (!url) return Promise.resolve(null);
  const key = `${url} ${widths.join(',')}`;
  if (!cache.has(key)) cache.set(key, make(url, widths));
  return cache.get(key)!;
}

async function make(url: string, widths: readonly number[]): Promise<ResponsivePicture | null> {
  try {
    const [avif, webp] = await Promise.all(
      (['avif', 'webp'] as const).map((format) => getImage({ src: url, inferSize: true, format, widths: [...widths], quality: 60 })),
    );
    const largest = Math.max(...widths);
    const large = await getImage({ src: url, inferSize: true, format: 'webp', width: largest, quality: 70 });
    return {
      avif: avif!.srcSet.attribute,
      webp: webp!.srcSet.attribute,
      src: webp!.src,
      width: Number(webp!.attributes.width),
      height: Number(webp!.attributes.height),
      large: large.src,
    };
  } catch (err) {
    console.warn(`warning: picture ${url} left out: ${err instanceof Error ? err.message : String(err)}`);
    return null;
  }
}

/** Pictures inside API texts fill the text column at most (see PostDetailView). */
const TEXT_PICTURE_WIDTHS = [480, 800] as const;

/** Serves the pictures of a sanitised API text from the site (see localPictures). */
export function withLocalPictures(html: string): Promise<string> {
  return localPictures(html, new URL(mediaUrl('/')!).origin, (src) => responsivePicture(src, TEXT_PICTURE_WIDTHS));
}
