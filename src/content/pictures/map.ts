/**
 * The picture map: what pages know of each API picture, written by the pull
 * (pull.ts) beside the content snapshot and read, without the network, by the
 * pages (src/lib/images.ts) and by the page keys (src/lib/paths.ts). A picture
 * that could not be fetched or drawn has no entry, and the pages leave it out.
 */
import { decodeHTMLAttribute } from 'entities';
import { walkNamedFiles, type KnownFiles } from '../named-in-props.ts';
import { pulledMap } from '../pulled-map.ts';

export const PICTURE_MAP_FILE = 'pictures.json';

export interface PictureEntry {
  /** Names the drawn files (settings.ts `variantId`): changes with the picture's bytes. */
  id: string;
  width: number;
  height: number;
  /** The widths drawn, ascending. */
  widths: number[];
}

/** By the picture's absolute URL, as the media base and the sanitiser make it. */
export type PictureMap = Record<string, PictureEntry>;

/** The map of this build (empty before any pull made one: every picture is left out, with a warning where it would show). */
export const pictureMap = (): PictureMap => pulledMap<PictureMap>(PICTURE_MAP_FILE);

/** An API picture path as a URL: relative paths are joined to the media base, as the sanitiser does for texts. */
export function pictureUrl(path: string, mediaBase: string): string {
  if (/^[a-z][a-z0-9+.-]*:/i.test(path)) return path;
  return `${mediaBase.replace(/\/+$/, '')}/${path.replace(/^\/+/, '')}`;
}

const IMG_SRC = /<img\b[^>]*?\ssrc\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>"']+))/gi;

/** The picture URLs an API text names in its `<img src>`, joined to the media base as the sanitiser joins them. */
export function textPictureUrls(html: string, mediaBase: string): string[] {
  if (!html.includes('<img') && !html.includes('<IMG')) return [];
  return [...html.matchAll(IMG_SRC)]
    .map((m) => decodeHTMLAttribute(m[1] ?? m[2] ?? m[3] ?? '').trim())
    .filter(Boolean)
    .map((src) => pictureUrl(src, mediaBase));
}

const segments = new WeakMap<PictureMap, Set<string>>();

/** What follows the last `/` of each URL of the map: a path `pictureUrl` makes into one of them ends the same way. */
function lastSegments(map: PictureMap): Set<string> {
  let names = segments.get(map);
  if (!names) segments.set(map, (names = new Set(Object.keys(map).map((url) => url.slice(url.lastIndexOf('/') + 1)))));
  return names;
}

const described = new WeakMap<PictureMap, Map<string, string>>();

/**
 * What a page's key says of each picture of the map, made once a picture: the 40,000 list entries and posts at
 * 10,000 news a language name some 85,000 pictures, each made again into a string for every page (0.15 s, profiled).
 */
function descriptions(map: PictureMap): Map<string, string> {
  let known = described.get(map);
  if (!known) described.set(map, (known = new Map()));
  return known;
}

/**
 * The entries of every picture that `value` (a page's props) names, for the page's key: a picture replaced at
 * the same URL gets a new id, and the pages that show it are drawn again. Strings are an image path or an
 * API text; an object whose pictures are `known` is not walked; anything else is. `missing` is told of each
 * picture named that the map has no entry for.
 */
export function picturesNamedBy(value: unknown, map: PictureMap, mediaBase: string, known: KnownFiles = () => undefined, missing?: () => void): string[] {
  const found = new Set<string>();
  const names = lastSegments(map);
  const madeBefore = descriptions(map);
  const add = (url: string) => {
    let description = madeBefore.get(url);
    if (description === undefined) {
      const entry = map[url];
      if (!entry) return missing?.();
      madeBefore.set(url, (description = `${url} ${entry.id} ${entry.width}x${entry.height} ${entry.widths.join(',')}`));
    }
    found.add(description);
  };
  const inString = (v: string) => {
    if (v.includes('<')) textPictureUrls(v, mediaBase).forEach(add);
    // A string that cannot end a picture's URL is not made into one: every title and brief of 44,000 pages was.
    else if (v.length < 2048 && names.has(v.slice(v.lastIndexOf('/') + 1))) add(pictureUrl(v, mediaBase));
  };
  walkNamedFiles(value, inString, known, add);
  return [...found].sort();
}
