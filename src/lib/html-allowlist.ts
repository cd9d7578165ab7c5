/**
 * What HTML from the API may contain: the one allowlist of tags, attributes and URL schemes. Two
 * sanitisers read it: the build's (`src/lib/sanitize.ts`, sanitize-html in Node) and the browser's
 * (`src/features/just-published/sanitize-browser.ts`, DOMPurify, for a post the build does not have yet). Kept here
 * so the two can never drift apart: a tag allowed at build time is allowed in the browser, and
 * nothing more.
 */
export const ALLOWED_TAGS: readonly string[] = [
  // Every heading level: both sanitisers then renumber them under the page's own (./heading-outline.ts).
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'p',
  'br',
  'hr',
  'blockquote',
  'pre',
  'code',
  'ul',
  'ol',
  'li',
  'dl',
  'dt',
  'dd',
  'table',
  'caption',
  'thead',
  'tbody',
  'tfoot',
  'tr',
  'th',
  'td',
  'a',
  'img',
  'figure',
  'figcaption',
  'strong',
  'b',
  'em',
  'i',
  'u',
  's',
  'sub',
  'sup',
  'small',
  'mark',
  'abbr',
  'span',
];

/** By tag; `*` applies to every allowed tag. */
export const ALLOWED_ATTRIBUTES: Readonly<Record<string, readonly string[]>> = {
  a: ['href', 'title', 'target', 'rel'],
  // loading and decoding are set by the sanitisers, never taken from the source.
  img: ['src', 'alt', 'title', 'width', 'height', 'loading', 'decoding'],
  th: ['colspan', 'rowspan', 'scope'],
  td: ['colspan', 'rowspan'],
  abbr: ['title'],
  ol: ['start'],
  '*': ['lang'],
};

/** Schemes of links; a relative address is allowed, a protocol-relative one (`//host`) is not. */
export const ALLOWED_SCHEMES: readonly string[] = ['http', 'https', 'mailto', 'tel'];
/** Pictures only over http(s): no `data:` or `javascript:`. */
export const IMG_SCHEMES: readonly string[] = ['http', 'https'];

/** Dropped with their text, not just their tags, so no script or style source turns into visible text. */
export const DROPPED_WITH_CONTENT: readonly string[] = ['script', 'style', 'textarea', 'noscript', 'iframe', 'object', 'embed', 'template'];

/** Whether a link or picture address is allowed: relative, or absolute with one of `schemes`. */
export function urlAllowed(value: string, schemes: readonly string[]): boolean {
  // Browsers ignore control characters and spaces inside a scheme ("java\tscript:"): strip them before looking.
  // eslint-disable-next-line no-control-regex -- the control characters are what this removes
  const v = value.replace(/[\u0000-\u0020\u007f-\u009f]+/g, '');
  if (v.startsWith('//') || v.startsWith('\\\\') || v.startsWith('/\\') || v.startsWith('\\/')) return false;
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(v);
  return !scheme || schemes.includes(scheme[1]!.toLowerCase());
}

/** A wide table scrolls inside its own box on a phone; keyboard users can reach and scroll it. */
export const TABLE_WRAPPER = { className: 'table-scroll', tabindex: '0' } as const;
