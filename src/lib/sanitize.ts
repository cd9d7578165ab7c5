/**
 * The one sanitiser for HTML from the API (descriptions, page text,
 * biographies). Runs at build time. An explicit allowlist (`./html-allowlist.ts`, shared with the
 * browser's DOMPurify for posts newer than the build): structure, lists,
 * tables, links, images and emphasis; no scripts, styles, event handlers,
 * `javascript:` or `data:` URLs. External links open in a new tab without
 * handing the opener to the other site.
 */
import { pictureUrl } from '../content/pictures/map.ts';
import sanitizeHtml from 'sanitize-html';
import { ALLOWED_ATTRIBUTES, ALLOWED_SCHEMES, ALLOWED_TAGS, DROPPED_WITH_CONTENT, IMG_SCHEMES, RENAMED_TAGS, TABLE_WRAPPER } from './html-allowlist.ts';

const OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: [...ALLOWED_TAGS],
  allowedAttributes: Object.fromEntries(Object.entries(ALLOWED_ATTRIBUTES).map(([tag, attrs]) => [tag, [...attrs]])),
  allowedSchemes: [...ALLOWED_SCHEMES],
  allowedSchemesByTag: { img: [...IMG_SCHEMES] },
  allowProtocolRelative: false,
  transformTags: {
    ...RENAMED_TAGS,
    a: (tagName, attribs) => {
      const href = attribs.href ?? '';
      if (/^https?:\/\//i.test(href)) {
        return { tagName, attribs: { ...attribs, target: '_blank', rel: 'noopener noreferrer' } };
      }
      const { target: _target, rel: _rel, ...rest } = attribs;
      return { tagName, attribs: rest };
    },
  },
  // Text inside dropped tags like <script> and <style> is dropped with them.
  nonTextTags: [...DROPPED_WITH_CONTENT],
};

/**
 * Cleans `html` from the API. Images with a relative address are, like every
 * `imageUrl` of the API, relative to the media base.
 */
export function sanitize(html: string, options: { mediaBase?: string } = {}): string {
  const base = options.mediaBase?.replace(/\/+$/, '');
  const clean = sanitizeHtml(html, {
    ...OPTIONS,
    transformTags: {
      ...OPTIONS.transformTags,
      img: (tagName, attribs) => {
        const src = attribs.src ?? '';
        // Joined as the picture map joins them, so a text's pictures are found under the same URLs.
        const absolute = base && src ? pictureUrl(src, base) : src;
        // An image the editor gave no text is announced as nothing rather than by its file name.
        return { tagName, attribs: { alt: '', ...attribs, src: absolute, loading: 'lazy', decoding: 'async' } };
      },
    },
  });
  // A wide table scrolls inside its own box on a phone; keyboard users can reach and scroll it.
  return clean.replace(/<table/g, `<div class="${TABLE_WRAPPER.className}" tabindex="${TABLE_WRAPPER.tabindex}"><table`).replace(/<\/table>/g, '</table></div>');
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ', '#39': "'", '#x27': "'" };

/**
 * The visible text of HTML from the API, for meta and Open Graph descriptions:
 * sanitised first (so the text of `<script>`, `<style>` and the like is gone
 * with them), then tags stripped, entities decoded and whitespace collapsed.
 * The caller truncates.
 */
export function textOf(html: string): string {
  return sanitizeHtml(html, { ...OPTIONS, allowedAttributes: {} })
    .replace(/<[^>]*>/g, ' ')
    .replace(/&(#?\w+);/g, (m, name: string) => ENTITIES[name.toLowerCase()] ?? m)
    .replace(/\s+/g, ' ')
    .trim();
}
