/**
 * Shared fragments: HTML that thousands of pages show identically, rendered
 * once per build and spliced into those pages after Astro has written them.
 *
 * Why: every news detail page shows the latest news beside it (§2). Rendered
 * into each page, one new post changes every detail page's HTML and its
 * incremental-build key, so a rebuild renders the whole site again. Instead a
 * page that shows the list as everyone sees it carries a marker, its key does
 * not include the list, and the build's last pass (scripts/lib/finish-build.ts)
 * replaces the marker with the fragment, which its own route renders once per
 * language. A cold build does exactly the same, so an incremental build still
 * writes the same bytes as a cold one.
 */
import { splitLocalizedPath, type Language } from '../i18n/languages.ts';

/** The site folder the fragment routes render into; the last pass removes it, so it is never published. */
export const FRAGMENT_DIR = 'fragment';

/** The name of a fragment, e.g. `latest-news@ru`. */
export const fragmentName = (kind: string, lang: Pick<Language, 'code'>) => `${kind}@${lang.code}`;

/**
 * The name of the fragment a fragment route rendered, from its site path:
 * `/ru/fragment/latest/news/index.html` → `latest-news@ru`.
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

const MARKER = /<!--fragment:([\w@.-]+)-->/g;

/** The fragment between its bounds in the page its route rendered. */
export function extractFragment(page: string): string | null {
  const start = page.indexOf(FRAGMENT_START);
  const end = page.indexOf(FRAGMENT_END);
  return start >= 0 && end > start ? page.slice(start + FRAGMENT_START.length, end) : null;
}

/** The names of the fragments `html` carries, in order. */
export const fragmentsIn = (html: string): string[] => (html.includes('<!--fragment:') ? [...html.matchAll(MARKER)].map((m) => m[1]!) : []);

/** `html` with every marker replaced by its fragment; throws on a marker whose fragment was not built. */
export function spliceFragments(html: string, fragments: ReadonlyMap<string, string>): string {
  if (!html.includes('<!--fragment:')) return html;
  return html.replace(MARKER, (_m, name: string) => {
    const fragment = fragments.get(name);
    if (fragment === undefined) throw new Error(`a page asks for the fragment "${name}", which the build did not render`);
    return fragment;
  });
}
