/**
 * The one sanitiser for HTML from the API (descriptions, page text,
 * biographies). Runs at build time. An explicit allowlist: structure, lists,
 * tables, links, images and emphasis; no scripts, styles, event handlers,
 * `javascript:` or `data:` URLs. External links open in a new tab without
 * handing the opener to the other site.
 */
import sanitizeHtml from 'sanitize-html';

const OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: [
    'h2', 'h3', 'h4', 'h5', 'h6', 'p', 'br', 'hr', 'blockquote', 'pre', 'code',
    'ul', 'ol', 'li', 'dl', 'dt', 'dd',
    'table', 'caption', 'thead', 'tbody', 'tfoot', 'tr', 'th', 'td',
    'a', 'img', 'figure', 'figcaption',
    'strong', 'b', 'em', 'i', 'u', 's', 'sub', 'sup', 'small', 'mark', 'abbr', 'span',
  ],
  allowedAttributes: {
    a: ['href', 'title', 'target', 'rel'],
    // loading and decoding are set by the transform below, never taken from the source.
    img: ['src', 'alt', 'title', 'width', 'height', 'loading', 'decoding'],
    th: ['colspan', 'rowspan', 'scope'],
    td: ['colspan', 'rowspan'],
    abbr: ['title'],
    ol: ['start'],
    '*': ['lang'],
  },
  allowedSchemes: ['http', 'https', 'mailto', 'tel'],
  allowedSchemesByTag: { img: ['http', 'https'] },
  allowProtocolRelative: false,
  // An <h1> in the content would compete with the page's own title.
  transformTags: {
    h1: 'h2',
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
  nonTextTags: ['script', 'style', 'textarea', 'noscript', 'iframe', 'object', 'embed', 'template'],
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
        const absolute = base && src && !/^[a-z][a-z0-9+.-]*:/i.test(src) ? `${base}/${src.replace(/^\/+/, '')}` : src;
        // An image the editor gave no text is announced as nothing rather than by its file name.
        return { tagName, attribs: { alt: '', ...attribs, src: absolute, loading: 'lazy', decoding: 'async' } };
      },
    },
  });
  // A wide table scrolls inside its own box on a phone; keyboard users can reach and scroll it.
  return clean.replace(/<table/g, '<div class="table-scroll" tabindex="0"><table').replace(/<\/table>/g, '</table></div>');
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
