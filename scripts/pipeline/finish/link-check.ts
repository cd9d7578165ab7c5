/**
 * The link check: every internal link, image, script, stylesheet or frame of
 * a built site must resolve to a file, and every #fragment name an element, in
 * every language. The build's last pass runs it on the pages it has in hand
 * (finish-step.ts); `npm run check:links` on a built folder.
 */
import type { PageVisitor } from './page-visitor.ts';
import { referenceFilter, referenceProbe } from './reference-filter.ts';
import { decodeHTMLAttribute } from 'entities';
import { readFile } from 'node:fs/promises';
import { join, relative, resolve } from 'node:path';
import { BASE_PATH, siteAddress, withinSite } from '../../../src/lib/base-path.ts';
import { EDITOR_LINK } from '../../../src/lib/editor-content.ts';
import { FILE_CONCURRENCY, listFiles, mapLimit } from '../../lib/files.ts';

const ATTR = /\s(?:href|src|srcset|poster|action)\s*=\s*("([^"]*)"|'([^']*)')/gi;
const ID = /\sid="([^"]+)"/g;
/** A link an editor wrote in an API text (src/lib/editor-content.ts): content, reported when it leads nowhere, never a reason to fail. */
const EDITOR_ANCHOR = new RegExp(`<a\\b[^>]*\\s${EDITOR_LINK}(?=[\\s>=])[^>]*>`, 'g');
const HREF = /\shref="([^"]*)"/;

/**
 * A copy of a string cut from a page. V8 keeps a long substring as a view into the string it was cut from, so
 * a URL the check keeps (a plain path it has looked up, a page's anchors and editors' links in the memo, a
 * broken reference) would keep that page's whole text alive: in a cold build at 10,000 news per language,
 * some 500 MB of pages by the end of the last pass. Every URL is taken from a page through this.
 */
const own = (text: string) => (' ' + text).slice(1);

/** The file a site path is served from, as the production server finds it. */
function targetFile(files: ReadonlySet<string>, root: string, pathname: string): string | null {
  const base = join(root, pathname);
  for (const candidate of [base, join(base, 'index.html'), `${base.replace(/\/+$/, '')}.html`]) if (files.has(candidate)) return candidate;
  return null;
}

/** The URLs a page refers to, from its attributes (srcset gives several), each a string of its own. */
export function referencedUrls(html: string): string[] {
  const urls: string[] = [];
  for (const m of html.matchAll(ATTR)) {
    const raw = decodeHTMLAttribute(m[2] ?? m[3] ?? '');
    if (/srcset/i.test(m[0]))
      urls.push(
        ...raw
          .split(',')
          .map((s) => own(s.trim().split(/\s+/)[0] ?? ''))
          .filter(Boolean),
      );
    else urls.push(own(raw));
  }
  return urls;
}

/** An editor's link that leads to no page or file of the site. */
export interface DeadEditorLink {
  /** The site path of the page that shows it. */
  page: string;
  /** The link as the editor wrote it. */
  link: string;
}

export interface LinkReport {
  pages: number;
  checked: number;
  broken: string[];
  deadEditorLinks: DeadEditorLink[];
}

/**
 * What the check of one clean page depends on besides the page itself and the
 * site's files: its anchors into other pages (and, apart, the files it refers to,
 * `CheckedPage.targets`). A later build may replay it for the same bytes at the
 * same path while none of those files has gone (scripts/pipeline/finish/finish-step.ts):
 * every reference that resolved still does.
 */
export interface PageLinks {
  checked: number;
  anchors: { url: string; path: string; id: string }[];
  /** The editors' links of the page, looked up again on a replay: a page published since makes one work. */
  editorLinks?: { url: string; path: string }[];
}

/** What the check of a page found, and the site paths of the files its references resolved to, as a filter (reference-filter.ts). */
export interface CheckedPage {
  links: PageLinks;
  targets: string;
}

/** The editors' links of a page (their hrefs), and the page without them, for the check of what the code wrote. */
function editorLinksOf(html: string): { hrefs: string[]; rest: string } {
  if (!html.includes(EDITOR_LINK)) return { hrefs: [], rest: html };
  const hrefs: string[] = [];
  const rest = html.replace(EDITOR_ANCHOR, (tag) => {
    const href = HREF.exec(tag)?.[1];
    if (href) hrefs.push(own(decodeHTMLAttribute(href)));
    return '<a>';
  });
  return { hrefs, rest };
}

/**
 * A checker over a known set of files: `page()` each HTML page as it is read
 * (or `replay()` what an earlier check of the same page found), then
 * `finish()`. A site of 10,000 pages refers to a million URLs, so the tree is
 * listed once and each distinct path is looked up once.
 */
export function linkChecker(root: string, files: ReadonlySet<string>) {
  root = resolve(root);
  const broken: string[] = [];
  const deadEditorLinks: DeadEditorLink[] = [];
  const anchors: { from: string; url: string; target: string; id: string }[] = [];
  const found = new Map<string, string | null>();
  /** A plain site path's file, once looked up. */
  const plainPaths = new Map<string, string>();
  let checked = 0;
  let pages = 0;
  const target = (pathname: string) => {
    let t = found.get(pathname);
    if (t === undefined) found.set(pathname, (t = targetFile(files, root, pathname)));
    return t;
  };
  /** An editor's link: a page or file of the site, or else reported (a mailto: or another site's is no concern of the check). */
  const editorLink = (page: string, url: string, path: string) => {
    if (/^[a-z][a-z0-9+.-]*:/i.test(url) || url.startsWith('//')) return;
    if (path === '' || !target(path)) deadEditorLinks.push({ page, link: url });
  };
  /** An anchor into a page: other pages' ids are read at the end, so that no ids taken from a page keep its whole text alive meanwhile. */
  const anchor = (file: string, html: () => string, from: string, url: string, path: string, id: string) => {
    const into = target(path);
    if (!into) broken.push(`${from}: ${url}`);
    else if (into !== file) anchors.push({ from, url, target: into, id });
    else if (!idsOf(html()).has(id)) broken.push(`${from}: ${url} (no element with that id)`);
  };
  return {
    page(file: string, html: string): CheckedPage {
      pages++;
      const from = relative(root, file);
      const pagePath = pagePathOf(from);
      // Resolved from the page's address, under the site's base path: a reference outside that path leads nowhere of the site's.
      const address = siteAddress(pagePath);
      const base = `http://site${address.endsWith('/') ? address : `${address}/`}`;
      const record: PageLinks = { checked: 0, anchors: [] };
      const targets = new Set<string>();
      const editors = editorLinksOf(html);
      for (const url of editors.hrefs) {
        const path = sitePathOf(url, base);
        (record.editorLinks ??= []).push({ url, path });
        editorLink(address, url, path);
      }
      for (const url of referencedUrls(editors.rest)) {
        if (!url || /^(?:[a-z][a-z0-9+.-]*:|\/\/)/i.test(url)) continue; // external, mailto:, tel:, data:
        record.checked++;
        // A plain site path means the same on every page: most references (menus, assets) are these.
        const plain = plainPaths.get(url);
        if (plain) {
          targets.add(plain);
          continue;
        }
        const resolved = new URL(url, base);
        let pathname: string;
        try {
          pathname = decodeURIComponent(resolved.pathname);
        } catch {
          broken.push(`${from}: ${url} (bad encoding)`);
          continue;
        }
        const within = withinSite(pathname);
        if (within === null) {
          broken.push(`${from}: ${url} (outside the site's path ${BASE_PATH}/)`);
          continue;
        }
        pathname = within;
        const into = target(pathname);
        if (!into) {
          broken.push(`${from}: ${url}`);
          continue;
        }
        targets.add(into.slice(root.length));
        if (resolved.hash.length > 1 && into.endsWith('.html')) {
          const id = decodeURIComponent(resolved.hash.slice(1));
          if (into !== file) record.anchors.push({ url, path: pathname, id });
          anchor(file, () => html, from, url, pathname, id);
        } else if (/^\/[^?#%]*$/.test(url)) plainPaths.set(url, into.slice(root.length));
      }
      checked += record.checked;
      return { links: record, targets: referenceFilter(targets) };
    },
    /** What `page()` returned for these bytes at this path in an earlier build whose files are all still here. */
    replay(file: string, html: () => string, record: PageLinks): void {
      pages++;
      checked += record.checked;
      // Most pages have neither: their name is not worked out (path.relative, 0.1 s at 45,000 pages).
      if (!record.editorLinks?.length && !record.anchors.length) return;
      const from = relative(root, file);
      for (const e of record.editorLinks ?? []) editorLink(siteAddress(pagePathOf(from)), e.url, e.path);
      for (const a of record.anchors) anchor(file, html, from, a.url, a.path, a.id);
    },
    /** Checks the anchors into other pages, reading each such page once. */
    async finish(): Promise<LinkReport> {
      const ids = new Map<string, Set<string>>();
      for (const a of anchors) {
        let known = ids.get(a.target);
        if (!known) ids.set(a.target, (known = idsOf(await readFile(a.target, 'utf8'))));
        if (!known.has(a.id)) broken.push(`${a.from}: ${a.url} (no element with that id)`);
      }
      deadEditorLinks.sort((a, b) => (a.page === b.page ? (a.link < b.link ? -1 : 1) : a.page < b.page ? -1 : 1));
      return { pages, checked, broken: broken.sort(), deadEditorLinks };
    },
  };
}

export type LinkChecker = ReturnType<typeof linkChecker>;

/** The last pass's link check (./page-visitor.ts): each page checked by `checker`, or its earlier check replayed. */
export function linkVisitor(checker: LinkChecker): PageVisitor<PageLinks> {
  const probes = new WeakMap<ReadonlySet<string>, (filter: string) => boolean>();
  const mayReferTo = (gone: ReadonlySet<string>) => probes.get(gone) ?? probes.set(gone, referenceProbe(gone)).get(gone)!;
  return {
    name: 'links',
    visit: ({ file, text }) => {
      const { links, targets } = checker.page(file, text());
      return { finding: links, refersTo: targets };
    },
    replay: ({ file, text }, links) => checker.replay(file, text, links),
    // Anchors and editors' links are looked up again on every replay; a file the page referred to must still be here.
    holdsWithout: (targets, gone) => typeof targets === 'string' && !mayReferTo(gone)(targets),
    readable: (found) => {
      const links = found as Partial<PageLinks> | null;
      return (
        typeof links === 'object' &&
        links !== null &&
        typeof links.checked === 'number' &&
        Array.isArray(links.anchors) &&
        links.anchors.every((a) => stringsAt(a, ['url', 'path', 'id'])) &&
        (links.editorLinks === undefined || (Array.isArray(links.editorLinks) && links.editorLinks.every((e) => stringsAt(e, ['url', 'path']))))
      );
    },
  };
}

/** Whether `value` is an object with a string at each of `keys`. */
const stringsAt = (value: unknown, keys: string[]) =>
  typeof value === 'object' && value !== null && keys.every((key) => typeof (value as Record<string, unknown>)[key] === 'string');

/** The site path of a built file, as a visitor's address bar shows it. */
const pagePathOf = (file: string) => `/${file.replace(/(^|\/)index\.html$/, '$1').replace(/\.html$/, '')}`;

/** The site path `url` leads to from a page whose address is `base`; '' when it cannot be decoded or lies outside the site's base path. */
function sitePathOf(url: string, base: string): string {
  try {
    return withinSite(decodeURIComponent(new URL(url, base).pathname)) ?? '';
  } catch {
    return '';
  }
}

const idsOf = (html: string) => new Set([...html.matchAll(ID)].map((m) => m[1]!));

export async function checkLinks(root: string): Promise<LinkReport> {
  root = resolve(root);
  const files = new Set(listFiles(root));
  const checker = linkChecker(root, files);
  const pages = [...files].filter((f) => f.endsWith('.html'));
  await mapLimit(pages, FILE_CONCURRENCY, async (file) => checker.page(file, await readFile(file, 'utf8')));
  return checker.finish();
}
