/**
 * The sitemap's hreflang alternates (each address with the same page in the other languages), found in one
 * pass over the addresses. @astrojs/sitemap's own `i18n` option finds them by comparing each page with every
 * other: 10 s of every rebuild at 44,700 pages, and four times that at twice the archive. These are the same
 * links in the same order (tests/unit/sitemap-alternates.test.ts compares them with the library's).
 */

interface Alternate {
  url: string;
  lang: string;
}

/** The library's order of addresses (its `localeCompare(b, 'en', { numeric: true })`), one collator for all. */
const byAddress = new Intl.Collator('en', { numeric: true });

/** The sitemap integration's `filter` and `serialize` that add the alternates of every address kept. */
export function sitemapAlternates(options: {
  /** The site's address with its base path: `https://gov.example/chust/`. */
  site: string;
  /** The default language's locale key, which has no prefix. */
  defaultLocale: string;
  /** Path prefix (the default language's locale key for it) → hreflang. */
  locales: Readonly<Record<string, string>>;
  /** Which addresses go in the sitemap. */
  filter: (url: string) => boolean;
}) {
  const { site, defaultLocale, locales, filter } = options;
  const kept: string[] = [];
  let byPage: Map<string, Alternate[]> | undefined;

  /** The language of an address and its path without the language's prefix (the library's parseI18nUrl). */
  const parse = (url: string): { locale: string; path: string } | undefined => {
    if (!url.startsWith(site)) return undefined;
    let rest = url.slice(site.length);
    if (!rest || rest === '/') return { locale: defaultLocale, path: '/' };
    if (!rest.startsWith('/')) rest = `/${rest}`;
    const locale = rest.split('/')[1]!;
    if (Object.hasOwn(locales, locale)) return { locale, path: rest.slice(1 + locale.length) || '/' };
    return { locale: defaultLocale, path: rest };
  };

  const group = () => {
    const pages = new Map<string, Alternate[]>();
    for (const url of kept) {
      const parsed = parse(url);
      if (!parsed) continue;
      const links = pages.get(parsed.path) ?? [];
      links.push({ url, lang: locales[parsed.locale]! });
      pages.set(parsed.path, links);
    }
    // The library's order, the addresses sorted with numbers as numbers, within each page's few: sorting all
    // 44,700 addresses first took 0.4 s of every rebuild (profiled).
    for (const links of pages.values()) links.sort((a, b) => byAddress.compare(a.url, b.url));
    return pages;
  };

  return {
    filter: (url: string): boolean => {
      // A second build in the same process (the configuration module is cached) starts afresh.
      if (byPage) [kept.length, byPage] = [0, undefined];
      if (!filter(url)) return false;
      kept.push(url);
      return true;
    },
    serialize: <T extends { url: string; links?: Alternate[] }>(item: T): T => {
      byPage ??= group();
      const parsed = parse(item.url);
      const links = parsed && byPage.get(parsed.path);
      // A page in one language only has no alternates.
      return links && links.length > 1 ? { ...item, links } : item;
    },
  };
}
