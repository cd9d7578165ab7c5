/**
 * How the site draws the API's pictures: one format, one quality, a few
 * widths per role. Chosen by measurement on photographs of about 1600×1066
 * (docs/speed.md, "Pictures"): WebP at quality 60 gives 43 KB at 1200 px for
 * 76 ms of one core; AVIF gave 57 KB for 244 ms even at its fastest effort,
 * and JPEG 63 KB. Every browser a citizen's phone runs reads WebP.
 */
import { createHash } from 'node:crypto';

export const PICTURE_ENCODING = { format: 'webp', quality: 60, effort: 4 } as const;

/**
 * The widths drawn for a picture, by where it is shown: a post's picture on
 * cards (half or whole width of a phone) and on its page (760 px at most);
 * a person's portrait (6.5 rem); a gallery photo's thumbnail (180 px) and its
 * lightbox view; a picture inside an API text (the text column, 760 px).
 */
export const PICTURE_WIDTHS = {
  post: [400, 800, 1200],
  person: [120, 240],
  photo: [200, 400, 1200],
  text: [400, 800],
} as const;
export type PictureRole = keyof typeof PICTURE_WIDTHS;

/** Where the drawn pictures are served: under /_astro/, whose names carry their hash and are cached for good. */
export const PICTURE_SITE_DIR = '_astro/pictures';

/** A drawn picture's name: the source's bytes and the encoding settings in the id, so a name never changes meaning. */
export const variantId = (sourceSha: string) =>
  createHash('sha256').update(`${sourceSha}|${PICTURE_ENCODING.format}|${PICTURE_ENCODING.quality}|${PICTURE_ENCODING.effort}`).digest('base64url').slice(0, 16);
export const variantFile = (id: string, width: number) => `${id}-${width}.${PICTURE_ENCODING.format}`;

/**
 * The widths to draw of a picture `intrinsic` px wide that is shown in `roles`: every width of those
 * roles below its own, and its own width where a role asks for more. A picture is never enlarged.
 */
export function widthsToDraw(roles: Iterable<PictureRole>, intrinsic: number): number[] {
  const out = new Set<number>();
  for (const role of roles) for (const w of PICTURE_WIDTHS[role]) out.add(Math.min(w, intrinsic));
  return [...out].sort((a, b) => a - b);
}
