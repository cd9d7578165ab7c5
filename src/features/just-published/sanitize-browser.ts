/**
 * The browser's sanitiser, for HTML from the API that the build has not seen yet (a post published
 * after the last build, shown by the not-found page). DOMPurify, configured from the same allowlist
 * as the build's sanitiser (`./html-allowlist.ts`), and doing the same small rewrites: headings are
 * renumbered under the page's h1 (`src/lib/heading-outline.ts`), external links open without the
 * opener, pictures are lazy and relative to the media base, wide tables scroll in their own box.
 * Returns nodes, not a string, so the cleaned tree is never parsed a second time (no mutation
 * between sanitising and inserting).
 */
import DOMPurify from 'dompurify';
import { ALLOWED_ATTRIBUTES, ALLOWED_SCHEMES, ALLOWED_TAGS, DROPPED_WITH_CONTENT, IMG_SCHEMES, TABLE_WRAPPER, urlAllowed } from '../../lib/html-allowlist.ts';
import { headingOutline, TEXT_TOP_HEADING } from '../../lib/heading-outline.ts';
import { editorSiteLink } from '../../lib/base-path.ts';

const HEADINGS = 'h1, h2, h3, h4, h5, h6';

const GLOBAL_ATTRIBUTES = ALLOWED_ATTRIBUTES['*'] ?? [];
let purifier: ReturnType<typeof DOMPurify> | null = null;

/** One configured instance, hooks added once. */
function configured(): ReturnType<typeof DOMPurify> {
  if (purifier) return purifier;
  const p = DOMPurify(window);
  // DOMPurify's attribute list is flat; the allowlist is per tag, so the hook narrows it per tag.
  p.addHook('uponSanitizeAttribute', (node, data) => {
    const tag = node.nodeName.toLowerCase();
    const name = data.attrName.toLowerCase();
    if (!(ALLOWED_ATTRIBUTES[tag] ?? []).includes(name) && !GLOBAL_ATTRIBUTES.includes(name)) {
      data.keepAttr = false;
      return;
    }
    if ((name === 'href' || name === 'src') && !urlAllowed(data.attrValue, tag === 'img' ? IMG_SCHEMES : ALLOWED_SCHEMES)) {
      data.keepAttr = false;
    }
  });
  purifier = p;
  return p;
}

export function sanitizeInBrowser(html: string, options: { mediaBase?: string } = {}): DocumentFragment {
  const base = options.mediaBase?.replace(/\/+$/, '');
  const fragment = configured().sanitize(html, {
    ALLOWED_TAGS: [...ALLOWED_TAGS],
    ALLOWED_ATTR: [...new Set(Object.values(ALLOWED_ATTRIBUTES).flat())],
    // Not data-* or aria-* attributes by default: the allowlist names every attribute.
    ALLOW_DATA_ATTR: false,
    ALLOW_ARIA_ATTR: false,
    FORBID_CONTENTS: [...DROPPED_WITH_CONTENT],
    RETURN_DOM_FRAGMENT: true,
  });

  // As the build does: empty headings go, a heading inside another becomes its text, the rest are renumbered.
  const levelOf = headingOutline(TEXT_TOP_HEADING);
  for (const el of [...fragment.querySelectorAll(HEADINGS)]) {
    if (!el.textContent?.trim() && !el.querySelector('img')) el.remove();
    else if (el.parentElement?.closest(HEADINGS)) el.replaceWith(...el.childNodes);
  }
  for (const el of [...fragment.querySelectorAll(HEADINGS)]) {
    const renamed = document.createElement(`h${levelOf(Number(el.tagName[1]))}`);
    for (const attr of [...el.attributes]) renamed.setAttribute(attr.name, attr.value);
    renamed.append(...el.childNodes);
    el.replaceWith(renamed);
  }
  for (const a of fragment.querySelectorAll('a')) {
    if (/^https?:\/\//i.test(a.getAttribute('href') ?? '')) {
      a.target = '_blank';
      a.rel = 'noopener noreferrer';
    } else {
      a.removeAttribute('target');
      a.removeAttribute('rel');
      const href = a.getAttribute('href');
      if (href) a.setAttribute('href', editorSiteLink(href));
    }
  }
  for (const img of fragment.querySelectorAll('img')) {
    const src = img.getAttribute('src') ?? '';
    if (base && src && !/^[a-z][a-z0-9+.-]*:/i.test(src)) img.setAttribute('src', `${base}/${src.replace(/^\/+/, '')}`);
    // An image the editor gave no text is announced as nothing rather than by its file name.
    if (!img.hasAttribute('alt')) img.alt = '';
    img.loading = 'lazy';
    img.decoding = 'async';
  }
  for (const table of fragment.querySelectorAll('table')) {
    const box = document.createElement('div');
    box.className = TABLE_WRAPPER.className;
    box.tabIndex = Number(TABLE_WRAPPER.tabindex);
    table.replaceWith(box);
    box.append(table);
  }
  return fragment;
}
