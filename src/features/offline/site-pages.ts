/**
 * The pages a release has, as its service worker knows them, so that a saved copy of a page the site
 * no longer has (a post taken down) is dropped instead of being shown offline for a month. The build
 * writes the list into /sw.js (src/features/offline/build-service-worker.ts): a release with other pages is a new
 * worker, and the new worker drops the saved pages that are not on its list when it takes over.
 *
 * A site has thousands of pages, nearly all of them numbered (`/ru/news/5`, `/news/page/3`), so the
 * list is grouped by folder and keeps numbers as ranges: some 7 KB for 11,700 pages.
 */
import { withinSite } from '../../lib/base-path.ts';

/** Folder (`/ru/news`; the root is `''`) → its pages' last segments: names, numbers and [first, last] ranges of numbers. */
export type SitePages = Record<string, (string | number | [number, number])[]>;

/** A segment kept as a number: what `Number` gives back exactly (not `05`, not 16 digits). */
const NUMBER = /^(?:0|[1-9]\d{0,14})$/;

/** A page's site path as the built site's folders have it: decoded, without a trailing slash (`/ru/news/5`, `/`); null for a malformed address. */
export function pagePath(pathname: string): string | null {
  try {
    return decodeURIComponent(pathname).replace(/\/+$/, '') || '/';
  } catch {
    return null;
  }
}

/** Splits `/ru/news/5` into its folder `/ru/news` and its name `5`; the home page `/` is the name `''` in the folder `''`. */
function split(path: string): [string, string] {
  const slash = path.lastIndexOf('/');
  return [path.slice(0, slash), path.slice(slash + 1)];
}

/** The list of `paths` (site paths of pages, `/`, `/ru/news/5`): the same for the same pages in any order. */
export function sitePages(paths: Iterable<string>): SitePages {
  const folders = new Map<string, { names: string[]; numbers: number[] }>();
  for (const path of paths) {
    const [folder, name] = split(path === '/' ? '/' : path.replace(/\/+$/, ''));
    let entry = folders.get(folder);
    if (!entry) folders.set(folder, (entry = { names: [], numbers: [] }));
    if (NUMBER.test(name)) entry.numbers.push(Number(name));
    else entry.names.push(name);
  }
  const pages: SitePages = {};
  for (const folder of [...folders.keys()].sort()) {
    const { names, numbers } = folders.get(folder)!;
    const list: SitePages[string] = [...new Set(names)].sort();
    const sorted = [...new Set(numbers)].sort((a, b) => a - b);
    for (let i = 0; i < sorted.length;) {
      let j = i;
      while (j + 1 < sorted.length && sorted[j + 1] === sorted[j]! + 1) j++;
      list.push(i === j ? sorted[i]! : [sorted[i]!, sorted[j]!]);
      i = j + 1;
    }
    pages[folder] = list;
  }
  return pages;
}

/** Whether the site path `path` (as pagePath gives it) is one of `pages`. */
export function hasPage(pages: SitePages, path: string): boolean {
  const [folder, name] = split(path);
  if (!Object.hasOwn(pages, folder)) return false;
  const number = NUMBER.test(name) ? Number(name) : null;
  return pages[folder]!.some((e) => (typeof e === 'string' ? e === name : typeof e === 'number' ? e === number : number !== null && number >= e[0] && number <= e[1]));
}

/** Of the addresses of saved pages (under the site's base path), those a release with `pages` does not have. A malformed address is left alone. */
export function removedPages(urls: readonly string[], pages: SitePages): string[] {
  return urls.filter((url) => {
    const address = withinSite(new URL(url).pathname);
    const path = address === null ? null : pagePath(address);
    return path !== null && !hasPage(pages, path);
  });
}
