/**
 * Documents inside API texts, served from the site: a link to a document the pull kept
 * (src/content/documents/) leads to the site's copy, and says its type and size, so a citizen on a slow
 * line knows what a tap costs ("PDF, 240 KB"). A document the pull could not keep keeps its link to
 * the media server, with its type.
 */
import { decodeHTMLAttribute } from 'entities';
import { readConfig } from '../config.ts';
import { documentMap, type DocumentMap } from '../content/documents/map.ts';
import { pictureUrl } from '../content/pictures/map.ts';
import { siteAddress } from './base-path.ts';
import { escapeAttribute } from './text-pictures.ts';

const LINK = /<a\b([^>]*?)\shref="([^"]*)"([^>]*)>([\s\S]*?)<\/a>/g;

/** A size as a citizen reads it: "240 KB", "1.4 MB" (`units` gives the language's words). */
export function fileSize(bytes: number, units: { kb: (size: string) => string; mb: (size: string) => string }, locale: string): string {
  if (bytes < 1024 * 1024) return units.kb(new Intl.NumberFormat(locale, { maximumFractionDigits: 0 }).format(Math.max(1, Math.round(bytes / 1024))));
  return units.mb(new Intl.NumberFormat(locale, { maximumFractionDigits: 1 }).format(bytes / (1024 * 1024)));
}

/**
 * Rewrites the document links of `html` (already sanitised) whose URL `map` knows: to the site's copy,
 * with "(type, size)" after the link's words; "(type)" for one left on the media server.
 */
export function localDocuments(html: string, map: DocumentMap, mediaOrigin: string, size: (bytes: number) => string): string {
  if (!html.includes('<a ')) return html;
  return html.replace(LINK, (tag: string, before: string, href: string, after: string, words: string) => {
    const raw = decodeHTMLAttribute(href);
    if (!URL.canParse(raw) || new URL(raw).origin !== mediaOrigin) return tag;
    const entry = map[new URL(raw).href];
    if (!entry) return tag;
    const note = `<span class="file-note">(${'path' in entry ? `${entry.type}, ${size(entry.bytes)}` : entry.type})</span>`;
    if (!('path' in entry)) return `<a${before} href="${href}"${after}>${words} ${note}</a>`;
    // The site's own file: no new tab, no opener to withhold.
    const attributes = `${before}${after}`.replace(/\s(?:target|rel)="[^"]*"/g, '');
    return `<a${attributes} href="${escapeAttribute(siteAddress(entry.path))}">${words} ${note}</a>`;
  });
}

/** Serves the documents of a sanitised API text from the site (see localDocuments). */
export function withLocalDocuments(html: string, size: (bytes: number) => string): string {
  return localDocuments(html, documentMap(), new URL(pictureUrl('/', readConfig().mediaBase)).origin, size);
}
