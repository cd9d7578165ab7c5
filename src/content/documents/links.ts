/**
 * Which of an editor's links lead to files on the media server, and which of those are documents the
 * site keeps (store.ts). One rule for the sanitiser, which joins such a link to the media base as it
 * joins pictures (src/lib/sanitize.ts), and for the pull, which fetches the documents it names.
 *
 * A relative link leads to the media server when it lies under a folder media servers use (/media/,
 * /uploads/, /files/, /storage/) or names a document, a picture, a sound or a video file outside the
 * site's own file folders (/documents/, /_astro/): the site's pages, feeds and icons are none of these,
 * and the API's `imageUrl` is relative to the media base in the same way.
 */
import { decodeHTMLAttribute } from 'entities';
import { pictureUrl } from '../pictures/map.ts';

/** Documents by extension: the type a citizen sees beside the link ("PDF, 240 KB") and the media type the site serves it with. */
export const DOCUMENT_TYPES: Readonly<Record<string, { label: string; mime: string }>> = {
  pdf: { label: 'PDF', mime: 'application/pdf' },
  doc: { label: 'Word', mime: 'application/msword' },
  docx: { label: 'Word', mime: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document' },
  rtf: { label: 'RTF', mime: 'application/rtf' },
  xls: { label: 'Excel', mime: 'application/vnd.ms-excel' },
  xlsx: { label: 'Excel', mime: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' },
  ppt: { label: 'PowerPoint', mime: 'application/vnd.ms-powerpoint' },
  pptx: { label: 'PowerPoint', mime: 'application/vnd.openxmlformats-officedocument.presentationml.presentation' },
  odt: { label: 'ODT', mime: 'application/vnd.oasis.opendocument.text' },
  ods: { label: 'ODS', mime: 'application/vnd.oasis.opendocument.spreadsheet' },
  odp: { label: 'ODP', mime: 'application/vnd.oasis.opendocument.presentation' },
  zip: { label: 'ZIP', mime: 'application/zip' },
  rar: { label: 'RAR', mime: 'application/vnd.rar' },
  '7z': { label: '7z', mime: 'application/x-7z-compressed' },
};

const MEDIA_FOLDER = /^\/?(?:media|uploads|files|storage)\//i;
/** The site's own folders of files (documents it keeps, hashed assets and pictures): a link there is the site's. */
const SITE_FILE_FOLDER = /^\/?(?:documents|_astro)\//;
/** Files a media server holds besides documents: pictures, sound and video. */
const MEDIA_EXTENSIONS = new Set(['jpg', 'jpeg', 'png', 'gif', 'webp', 'mp4', 'webm', 'mov', 'mp3', 'ogg', 'oga', 'm4a', 'wav']);
const FILE_NAME = /\.([a-z0-9]{1,5})$/i;

const extensionOf = (pathname: string) => FILE_NAME.exec(pathname)?.[1]?.toLowerCase() ?? null;

/** Whether a relative link (no scheme, not `//host`) leads to the media server rather than a page of the site. */
export function isMediaFilePath(href: string): boolean {
  if (/^[a-z][a-z0-9+.-]*:/i.test(href) || href.startsWith('//') || href.startsWith('#') || href.startsWith('?')) return false;
  const path = href.split(/[?#]/, 1)[0]!;
  if (MEDIA_FOLDER.test(path)) return true;
  if (SITE_FILE_FOLDER.test(path)) return false;
  const extension = extensionOf(path);
  return extension !== null && (extension in DOCUMENT_TYPES || MEDIA_EXTENSIONS.has(extension));
}

/** An editor's link as the citizen's browser must follow it: a media-server file joined to the media base, anything else as written. */
export function editorLinkUrl(href: string, mediaBase: string): string {
  return isMediaFilePath(href) ? pictureUrl(href, mediaBase) : href;
}

/** The type of the document at `url` ("PDF"), or null when it is no document the site keeps. */
export function documentType(url: string): string | null {
  if (!URL.canParse(url)) return null;
  const extension = extensionOf(new URL(url).pathname);
  return extension ? (DOCUMENT_TYPES[extension]?.label ?? null) : null;
}

const A_HREF = /<a\b[^>]*?\shref\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>"']+))/gi;

/** The documents on the media server that an API text links to, as absolute URLs. */
export function documentLinkUrls(html: string, mediaBase: string): string[] {
  if (!/<a\s/i.test(html)) return [];
  const origin = new URL(pictureUrl('/', mediaBase)).origin;
  const urls = new Set<string>();
  for (const m of html.matchAll(A_HREF)) {
    const href = decodeHTMLAttribute(m[1] ?? m[2] ?? m[3] ?? '').trim();
    if (!href) continue;
    const url = editorLinkUrl(href, mediaBase);
    if (URL.canParse(url) && new URL(url).origin === origin && documentType(url)) urls.add(new URL(url).href);
  }
  return [...urls];
}
