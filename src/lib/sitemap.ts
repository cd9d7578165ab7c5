/**
 * The sitemap: `sitemap-index.xml` and the files it lists, every page Astro built that `filter` keeps, each with
 * the same page in the other languages (hreflang alternates). Each address is written as @astrojs/sitemap
 * writes it with its `i18n` option (tests/unit/sitemap.test.ts compares them), but the files are split by part
 * of the site (`sitemapFiles`), so that a new post changes one small file. Each file is made as one string: the
 * library parses every address and every alternate as a URL, sorts all addresses with `localeCompare`, finds
 * the alternates by comparing each page with every other, and writes through a stream an element at a time; at
 * 44,700 pages that was 2 s of every rebuild, the more the larger the archive (profiled). It also logs a
 * failure and goes on without a sitemap; here the build fails and says why.
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { AstroIntegration } from 'astro';
import { escapeUTF8 } from 'entities';

export interface SitemapOptions {
  /** The site's address with its base path, ending in `/`: `https://gov.example/chust/`. */
  site: string;
  /** The default language's locale key, which has no prefix. */
  defaultLocale: string;
  /** Path prefix (the default language's locale key for it) → hreflang. */
  locales: Readonly<Record<string, string>>;
  /** Which addresses go in the sitemap. */
  filter: (url: string) => boolean;
  /**
   * The pages of the build that Astro does not report, named as it names the pages it built (`news/5/`): the
   * build hands it only the pages whose key changed (scripts/pipeline/astro/changed-pages.ts).
   */
  reusedWithoutAstro?: () => readonly string[];
  /** Addresses a file at most (the protocol allows 50,000): a part's files hold this many but its last. */
  entryLimit?: number;
  /** Keeps the files (text by name) where the build places them from, and says whether it did; else they are written into Astro's folder. */
  keptElsewhere?: (files: ReadonlyMap<string, string>) => boolean;
}

/** An address, its language's hreflang, and the page it is in every language (its path without the prefix). */
interface Alternate {
  url: string;
  lang: string;
  page: string;
}

const XML = '<?xml version="1.0" encoding="UTF-8"?>';
const NS = 'http://www.sitemaps.org/schemas/sitemap/0.9';
/** The library's namespaces, all four declared though only `xhtml` is used. */
const URLSET =
  `<urlset xmlns="${NS}" xmlns:news="http://www.google.com/schemas/sitemap-news/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml" ` +
  'xmlns:image="http://www.google.com/schemas/sitemap-image/1.1" xmlns:video="http://www.google.com/schemas/sitemap-video/1.1">';

/** The library's order of addresses (its `localeCompare(b, 'en', { numeric: true })`), one collator for all. */
const byAddress = new Intl.Collator('en', { numeric: true });
/** A path of unreserved characters, no `.` or `..` segment: its address is the site's followed by it, unparsed. */
const PLAIN_PATH = /^(?:[\w~-][\w.~-]*\/)*(?:[\w~-][\w.~-]*)?$/;

/**
 * An address as text escapes `&`, `<` and `>`, as the library does (entities' `escapeText` is HTML's, with
 * `&nbsp;`, which XML has not). Almost none has any: a test first is cheaper than three replacements (0.2 s at
 * 44,700 pages).
 */
const TEXT_ESCAPED = /[&<>]/;
const text = (s: string) => (TEXT_ESCAPED.test(s) ? s.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;') : s);
/** In an attribute, the five characters XML escapes, as the library does; an address without them is returned as it is. */
const attribute = escapeUTF8;

/** The address of a page Astro reports by its path (`news/5/`, `` for the home page). */
export function pageAddress(site: string, pathname: string): string {
  const path = pathname.replace(/^\//, '');
  return PLAIN_PATH.test(path) ? site + path : new URL(new URL(site).pathname + path, site).href;
}

/**
 * The part of the sitemap a page is in: its path without the last segment (`news` for `/news/5/`, `news/page` for
 * `/news/page/3/`, the top part for `/` and `/ekologiya/`), as a file name's word: `-` and lower-case letters
 * and digits as they are, `/` as `.`, anything else as `_` and its code.
 */
function partOf(page: string): string {
  const segments = page.split('/').filter(Boolean);
  return segments
    .slice(0, -1)
    .join('/')
    .replace(/[^a-z0-9/-]/g, (c) => `_${c.charCodeAt(0).toString(16)}`)
    .replaceAll('/', '.');
}

/** A file of a part: `sitemap-news-3.xml`, and `sitemap-0.xml` for the top part's first. */
const partFile = (part: string, n: number) => (part ? `sitemap-${part}-${n}.xml` : `sitemap-${n}.xml`);

/**
 * Each file of the sitemap by name, for the addresses given (any order, repeats allowed): `sitemap-index.xml`,
 * and each part's addresses (`partOf`) in order, `entryLimit` a file. A new post is the last of its part, so it
 * changes that part's last file alone, and a crawler or a cache fetches that file again, not the whole archive's
 * list (at 10,000 news per language one file was 18.6 MB, compressed again on every rebuild).
 */
export function sitemapFiles(addresses: readonly string[], options: Omit<SitemapOptions, 'filter'>): Map<string, string> {
  const { site, defaultLocale, locales, entryLimit = 1_000 } = options;
  if (!Number.isInteger(entryLimit) || entryLimit < 1 || entryLimit > 50_000) throw new Error(`a sitemap file holds 1 to 50,000 addresses, not ${entryLimit}`);

  // The same page in every language: its path without the language's prefix (the library's parseI18nUrl).
  const parse = (url: string): Alternate => {
    let rest = url.startsWith(site) ? url.slice(site.length) : new URL(url).pathname;
    if (!rest || rest === '/') return { url, lang: locales[defaultLocale]!, page: '/' };
    if (!rest.startsWith('/')) rest = `/${rest}`;
    const locale = rest.split('/')[1]!;
    if (Object.hasOwn(locales, locale)) return { url, lang: locales[locale]!, page: rest.slice(1 + locale.length) || '/' };
    return { url, lang: locales[defaultLocale]!, page: rest };
  };
  // A page's addresses in the library's order of addresses; the pages in that order of their paths, part by part.
  const alternates = new Map<string, Alternate[]>();
  for (const address of [...new Set(addresses)].sort(byAddress.compare).map(parse)) {
    const links = alternates.get(address.page);
    if (links) links.push(address);
    else alternates.set(address.page, [address]);
  }
  const parts = new Map<string, Alternate[]>();
  for (const page of [...alternates.keys()].sort(byAddress.compare)) {
    const part = partOf(page);
    const listed = parts.get(part);
    if (listed) listed.push(...alternates.get(page)!);
    else parts.set(part, [...alternates.get(page)!]);
  }

  const files = new Map<string, string>();
  const index: string[] = [];
  for (const part of [...parts.keys()].sort()) {
    const listed = parts.get(part)!;
    for (let first = 0, n = 0; first < listed.length; first += entryLimit, n++) {
      const name = partFile(part, n);
      // Joined once, not appended to: a string grown piece by piece is copied whole wherever it is first read or hashed.
      const body = [XML, URLSET];
      for (const address of listed.slice(first, first + entryLimit)) {
        const links = alternates.get(address.page)!;
        body.push(`<url><loc>${text(address.url)}</loc>`);
        // A page in one language only has no alternates.
        if (links.length > 1) for (const link of links) body.push(`<xhtml:link rel="alternate" hreflang="${attribute(link.lang)}" href="${attribute(link.url)}"/>`);
        body.push('</url>');
      }
      body.push('</urlset>');
      files.set(name, body.join(''));
      index.push(`<sitemap><loc>${text(new URL(name, site).href)}</loc></sitemap>`);
    }
  }
  files.set('sitemap-index.xml', `${XML}<sitemapindex xmlns="${NS}">${index.join('')}</sitemapindex>`);
  return files;
}

/** The integration: writes the sitemap when Astro has built every page. */
export function sitemap(options: SitemapOptions): AstroIntegration {
  return {
    name: 'hokimiyat:sitemap',
    hooks: {
      'astro:build:done': ({ dir, pages }) => {
        const names = [...pages.map((p) => p.pathname), ...(options.reusedWithoutAstro?.() ?? [])];
        const addresses = names.map((name) => pageAddress(options.site, name)).filter((url) => options.filter(url));
        if (!addresses.length) throw new Error('the sitemap would list no page: every page built was left out by its filter');
        const files = sitemapFiles(addresses, options);
        if (options.keptElsewhere?.(files)) return;
        const outDir = fileURLToPath(dir);
        for (const [name, body] of files) writeFileSync(`${outDir}/${name}`, body);
      },
    },
  };
}
