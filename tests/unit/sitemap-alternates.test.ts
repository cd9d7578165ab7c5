import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { sitemapAlternates } from '../../src/lib/sitemap-alternates.ts';

type Item = { url: string; links?: { url: string; lang: string }[] };
/** @astrojs/sitemap's own way (its `i18n` option), which compares every address with every other. */
const library = async () => {
  const dir = dirname(createRequire(import.meta.url).resolve('@astrojs/sitemap/package.json'));
  return (await import(pathToFileURL(join(dir, 'dist/generate-sitemap.js')).href)) as {
    generateSitemap: (pages: string[], site: string, opts: object) => Item[];
  };
};

const locales = { 'uz-latn': 'uz-Latn', 'uz-cyrl': 'uz-Cyrl', ru: 'ru', en: 'en' };

describe('the sitemap’s hreflang alternates', () => {
  for (const site of ['https://gov.example/', 'https://gov.example/chust/']) {
    it(`are the links @astrojs/sitemap's i18n option makes, under ${site}`, async () => {
      const paths = ['', 'news/', 'news/5/', 'news/10/', 'news/page/2/', 'page/7/', 'leaders/', 'search/'];
      const pages = [
        ...paths.map((p) => `${site}${p}`),
        // Russian and English have every page but one; Uzbek Cyrillic only the home page and one post.
        ...['ru', 'en'].flatMap((prefix) => paths.filter((p) => p !== 'page/7/').map((p) => `${site}${prefix}/${p}`)),
        `${site}uz-cyrl/`,
        `${site}uz-cyrl/news/5/`,
      ];
      const alternates = sitemapAlternates({ site, defaultLocale: 'uz-latn', locales, filter: (url) => !url.includes('/search/') });
      const kept = pages.filter(alternates.filter);
      const { generateSitemap } = await library();
      const expected = generateSitemap(kept, site, { i18n: { defaultLocale: 'uz-latn', locales } });
      const ours = generateSitemap(kept, site, {}).map(alternates.serialize);

      expect(ours).toEqual(expected);
      expect(ours.find((i) => i.url === `${site}news/5/`)?.links?.map((l) => l.lang)).toEqual(['en', 'uz-Latn', 'ru', 'uz-Cyrl']);
      expect(ours.find((i) => i.url === `${site}page/7/`)?.links, 'a page in one language has none').toBeUndefined();
      expect(
        kept.some((u) => u.includes('/search/')),
        'the filter is applied',
      ).toBe(false);
    });
  }

  it('starts afresh for a second build in the same process', () => {
    const site = 'https://gov.example/';
    const alternates = sitemapAlternates({ site, defaultLocale: 'uz-latn', locales, filter: () => true });
    for (const url of [`${site}news/5/`, `${site}ru/news/5/`]) alternates.filter(url);
    expect(alternates.serialize<Item>({ url: `${site}news/5/` }).links).toHaveLength(2);
    alternates.filter(`${site}news/5/`);
    expect(alternates.serialize<Item>({ url: `${site}news/5/` }).links, 'the Russian page of the first build is not this build’s').toBeUndefined();
  });
});
