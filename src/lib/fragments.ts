/**
 * Shared fragments: HTML that thousands of pages show identically, rendered
 * once per build and spliced into those pages after Astro has written them.
 *
 * Why: every news detail page shows the latest news beside it (docs/rules.md, Detail pages). Rendered
 * into each page, one new post changes every detail page's HTML and its
 * incremental-build key, so a rebuild renders the whole site again. Instead a
 * page that shows the list as everyone sees it carries a marker, its key does
 * not include the list, and the build's last pass (scripts/pipeline/finish/finish-step.ts)
 * replaces the marker with the fragment, which its own route renders once per
 * language. A cold build does exactly the same, so an incremental build still
 * writes the same bytes as a cold one.
 */
import { splitLocalizedPath, type Language } from '../i18n/languages.ts';

/** The site folder the fragment routes render into; the last pass removes it, so it is never published. */
export const FRAGMENT_DIR = 'fragment';

/**
 * Whether a site path (`/ru/fragment/latest/news/index.html`) is in a fragment folder: one of its segments is
 * FRAGMENT_DIR. Found without splitting the path: asked of every file and every address of the site (95,000 and
 * 45,000 at 10,000 news a language).
 */
export const inFragmentFolder = (path: string) =>
  path.includes(`/${FRAGMENT_DIR}/`) || path.endsWith(`/${FRAGMENT_DIR}`) || path === FRAGMENT_DIR || path.startsWith(`${FRAGMENT_DIR}/`);

/** The name of a fragment, e.g. `latest-news@ru`. */
export const fragmentName = (kind: string, lang: Pick<Language, 'code'>) => `${kind}@${lang.code}`;

/**
 * The name of the fragment a fragment route rendered, from its site path:
 * `/ru/fragment/latest/news/index.html` → `latest-news@ru`, `/fragment/settled/news/index.html` → `settled-news@uz-latn`.
 */
export function fragmentNameOfPath(path: string): string {
  const { lang, path: rest } = splitLocalizedPath(path);
  const [dir, ...parts] = rest.split('/').filter(Boolean);
  if (dir !== FRAGMENT_DIR) throw new Error(`${path} is not a fragment of a known language`);
  return fragmentName(parts.slice(0, -1).join('-'), lang);
}

/** Where a page wants a fragment: an HTML comment the sanitiser would never let through from API text. */
export const fragmentMarker = (name: string) => `<!--fragment:${name}-->`;

/** The bounds of a fragment inside its own rendered page. */
export const FRAGMENT_START = '<!--fragment-start-->';
export const FRAGMENT_END = '<!--fragment-end-->';

/** The fragment between its bounds in the page its route rendered. */
export function extractFragment(page: string): string | null {
  const start = page.indexOf(FRAGMENT_START);
  const end = page.indexOf(FRAGMENT_END);
  return start >= 0 && end > start ? page.slice(start + FRAGMENT_START.length, end) : null;
}

/*
 * Pages are spliced as the bytes Astro wrote: decoding and encoding again some
 * 11,000 pages of 40 KB after every new post cost the last pass seconds. A
 * marker is ASCII and no byte of a multi-byte UTF-8 character is, so the
 * bytes hold the same markers as the text.
 */
const MARKER_OPEN = Buffer.from('<!--fragment:');
/** The bytes a fragment's name may hold: `[\w@.-]`. */
const NAME_BYTE = new Uint8Array(128).map((_, b) => Number(/[\w@.-]/.test(String.fromCharCode(b))));
const DASH = 0x2d;
const CLOSE = 0x3e;

/** Every marker `<!--fragment:NAME-->` in `page`, in order: where it starts and ends, and the name. */
function markersIn(page: Buffer): { start: number; end: number; name: string }[] {
  const found = [];
  for (let at = page.indexOf(MARKER_OPEN); at >= 0; at = page.indexOf(MARKER_OPEN, at + 1)) {
    const nameStart = at + MARKER_OPEN.length;
    let end = nameStart;
    while (end < page.length && NAME_BYTE[page[end]!]) end++;
    // The name's run takes in the "--" of "-->" (dashes are name bytes); the ">" ends it.
    if (page[end] === CLOSE && page[end - 1] === DASH && page[end - 2] === DASH && end - 2 > nameStart) {
      found.push({ start: at, end: end + 1, name: page.toString('latin1', nameStart, end - 2) });
      at = end;
    }
  }
  return found;
}

/** The names of the fragments a page carries, in order. */
export const fragmentsIn = (page: Buffer): string[] => markersIn(page).map((m) => m.name);

/** `page` with every marker replaced by its fragment (the same buffer if it has none); throws on a marker whose fragment was not built. */
export function spliceFragments(page: Buffer, fragments: ReadonlyMap<string, Buffer>): Buffer {
  const markers = markersIn(page);
  if (!markers.length) return page;
  const parts: Buffer[] = [];
  let from = 0;
  for (const { start, end, name } of markers) {
    const fragment = fragments.get(name);
    if (fragment === undefined) throw new Error(`a page asks for the fragment "${name}", which the build did not render`);
    parts.push(page.subarray(from, start), fragment);
    from = end;
  }
  parts.push(page.subarray(from));
  return Buffer.concat(parts);
}
