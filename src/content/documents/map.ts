/**
 * The document map: what pages know of each document an editor linked to, written by the pull
 * (pull.ts) beside the content snapshot and read, without the network, by the pages
 * (src/lib/text-documents.ts) and by the page keys (src/lib/paths.ts).
 */
import { createHash } from 'node:crypto';
import { pulledMap } from '../pulled-map.ts';
import { documentLinkUrls } from './links.ts';
import { walkNamedFiles, type KnownFiles } from '../named-in-props.ts';

export const DOCUMENT_MAP_FILE = 'documents.json';
/** Where the site serves the documents it keeps. */
export const DOCUMENT_SITE_DIR = 'documents';

export type DocumentEntry =
  /** Kept by the site: served at `path`, `bytes` long. */
  | { type: string; path: string; bytes: number; sha: string }
  /** Could not be fetched: the link stays on the media server, and the report says why. */
  | { type: string; failed: string };

/** By the document's absolute URL (`new URL(…).href`). */
export type DocumentMap = Record<string, DocumentEntry>;

/** The map of this build (empty before any pull made one: every document link stays on the media server). */
export const documentMap = (): DocumentMap => pulledMap<DocumentMap>(DOCUMENT_MAP_FILE);

/**
 * The stable site address of the document at `url`: a folder named by the URL (so a document replaced at
 * the same URL keeps its address) holding the file under its own name, made safe for a path.
 */
export function documentSitePath(url: string): string {
  const id = createHash('sha256').update(url).digest('hex').slice(0, 12);
  const last = decodeURIComponentSafe(new URL(url).pathname.split('/').pop() ?? '');
  // Never a dot file, which servers refuse to serve: the leading dots and hyphens go after the name is cut.
  const name =
    last
      .normalize('NFKD')
      .replace(/[^\w.-]+/g, '-')
      .slice(-80)
      .replace(/^[-.]+/, '') || 'document';
  return `/${DOCUMENT_SITE_DIR}/${id}/${name}`;
}

function decodeURIComponentSafe(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/** The entries of every document the API texts in `value` (a page's props) link to, for the page's key; `missing` is told of each the map has not. */
export function documentsNamedBy(value: unknown, map: DocumentMap, mediaBase: string, known: KnownFiles = () => undefined, missing?: () => void): string[] {
  const found = new Set<string>();
  const add = (url: string) => {
    const entry = Object.hasOwn(map, url) ? map[url] : undefined;
    if (!entry) missing?.();
    found.add(`${url} ${JSON.stringify(entry ?? null)}`);
  };
  walkNamedFiles(value, (v) => documentLinkUrls(v, mediaBase).forEach(add), known, add);
  return [...found].sort();
}
