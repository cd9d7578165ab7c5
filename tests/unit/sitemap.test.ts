import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import librarySitemap from '@astrojs/sitemap';
import type { AstroIntegration } from 'astro';
import { afterEach, describe, expect, it } from 'vitest';
import { sitemap, sitemapFiles } from '../../src/lib/sitemap.ts';

const locales = { 'uz-latn': 'uz-Latn', 'uz-cyrl': 'uz-Cyrl', ru: 'ru', en: 'en' };
const folders: string[] = [];
afterEach(() => {
  for (const f of folders.splice(0)) rmSync(f, { recursive: true, force: true });
});

/** Runs an integration's hooks as Astro does after a build of `pages`, and reads back every file it wrote. */
async function written(integration: AstroIntegration, site: string, base: string, pages: string[]): Promise<Record<string, string>> {
  const dir = mkdtempSync(join(tmpdir(), 'sitemap-'));
  folders.push(dir);
  const hooks = integration.hooks as Record<string, (options: object) => unknown>;
  const logger = { info: () => {}, warn: (m: string) => expect.fail(m), error: (m: string) => expect.fail(m) };
  await hooks['astro:routes:resolved']?.({ routes: [] });
  await hooks['astro:config:done']?.({ config: { site, base, trailingSlash: 'ignore', build: { format: 'directory' } } });
  await hooks['astro:build:done']!({ dir: pathToFileURL(`${dir}/`), pages: pages.map((pathname) => ({ pathname })), logger });
  return Object.fromEntries(readdirSync(dir).map((name) => [name, readFileSync(join(dir, name), 'utf8')]));
}

describe('the sitemap', () => {
  // Paths as Astro reports them: the home page is '', with numbers that sort as numbers, a path that is not
  // plain ASCII and one with characters XML escapes.
  const paths = ['', 'news/', 'news/5/', 'news/10/', 'news/page/2/', 'page/7/', 'leaders/', 'search/', 'sahifa/oʻzbek tili/', "q&a's/"];
  const pages = [
    ...paths,
    // Russian and English have every page but one; Uzbek Cyrillic only the home page and one post.
    ...['ru', 'en'].flatMap((prefix) => paths.filter((p) => p !== 'page/7/').map((p) => `${prefix}/${p}`)),
    'uz-cyrl/',
    'uz-cyrl/news/5/',
    '404/',
  ];
  const filter = (url: string) => !/\/(search|404)\/$/.test(url);

  /** Every `<url>` element of the files an index lists, in order, and the files it lists. */
  const listed = (files: Record<string, string>, site: string) => {
    const names = [...(files['sitemap-index.xml'] ?? '').matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]!.slice(site.length));
    return { names, urls: names.flatMap((name) => files[name]?.match(/<url>.*?<\/url>/g) ?? []) };
  };

  for (const entryLimit of [45_000, 7]) {
    it(`writes every address as @astrojs/sitemap does with its i18n option, ${entryLimit} addresses a file at most`, async () => {
      const site = 'https://gov.example/';
      const library = await written(librarySitemap({ filter, entryLimit: 45_000, i18n: { defaultLocale: 'uz-latn', locales } }), 'https://gov.example', '/', pages);
      const ours = await written(sitemap({ site, defaultLocale: 'uz-latn', locales, filter, entryLimit }), 'https://gov.example', '/', pages);

      const { names, urls } = listed(ours, site);
      expect(urls.toSorted()).toEqual(listed(library, site).urls.toSorted());
      expect(names.toSorted(), 'the index lists every file written').toEqual(
        Object.keys(ours)
          .filter((name) => name !== 'sitemap-index.xml')
          .toSorted(),
      );
      for (const name of names) {
        expect(ours[name]!.startsWith(library['sitemap-0.xml']!.slice(0, library['sitemap-0.xml']!.indexOf('<url>'))), `${name} begins as the library's`).toBe(true);
        expect(ours[name]!.match(/<url>/g)!.length).toBeLessThanOrEqual(entryLimit);
      }
      expect(ours['sitemap-index.xml']).toBe(
        library['sitemap-index.xml']!.replace(/<sitemap>.*<\/sitemap>/, names.map((n) => `<sitemap><loc>${site}${n}</loc></sitemap>`).join('')),
      );
      const all = Object.values(ours).join('');
      expect(all, 'the filter is applied').not.toMatch(/\/(search|404)\//);
      expect(all).toContain(`<url><loc>${site}news/5/</loc><xhtml:link rel="alternate" hreflang="en" href="${site}en/news/5/"/>`);
      expect(all, 'a page in one language has no alternates').toContain(`<url><loc>${site}page/7/</loc></url>`);
      expect(all, 'an address is escaped').toContain(`href="${site}q&amp;a&apos;s/"`);
      expect(all, 'an address is percent-encoded').toContain(`${site}sahifa/o%CA%BBzbek%20tili/`);
    });

    // The library writes the home page under a base path without its slash (`/chust`), and so without its
    // alternates; this sitemap is the one at the domain's root with the base path in every address.
    it(`under a base path is the same with the path in every address, ${entryLimit} addresses a file at most`, async () => {
      const options = { defaultLocale: 'uz-latn', locales, filter, entryLimit };
      const atRoot = await written(sitemap({ ...options, site: 'https://gov.example/' }), 'https://gov.example', '/', pages);
      const underPath = await written(sitemap({ ...options, site: 'https://gov.example/chust/' }), 'https://gov.example', '/chust', pages);

      expect(underPath).toEqual(Object.fromEntries(Object.entries(atRoot).map(([name, body]) => [name, body.replaceAll('https://gov.example/', 'https://gov.example/chust/')])));
      expect(underPath['sitemap-0.xml']).toContain('<url><loc>https://gov.example/chust/</loc><xhtml:link rel="alternate" hreflang="uz-Latn" href="https://gov.example/chust/"/>');
    });
  }

  it('is split by part of the site, so that a new post changes only the last file of its part', async () => {
    const site = 'https://gov.example/';
    const options = { site, defaultLocale: 'uz-latn', locales, filter, entryLimit: 4 };
    const posts = (n: number) => Array.from({ length: n }, (_, i) => [`news/${i + 1}/`, `ru/news/${i + 1}/`]).flat();
    const others = ['', 'ru/', 'news/', 'ru/news/', 'news/page/1/', 'news/page/2/', 'page/7/', 'leaders/'];
    const before = await written(sitemap(options), 'https://gov.example', '/', [...others, ...posts(9)]);
    const after = await written(sitemap(options), 'https://gov.example', '/', [...others, ...posts(10)]);

    expect(listed(before, site).names).toEqual([
      'sitemap-0.xml',
      'sitemap-1.xml',
      'sitemap-news-0.xml',
      'sitemap-news-1.xml',
      'sitemap-news-2.xml',
      'sitemap-news-3.xml',
      'sitemap-news-4.xml',
      'sitemap-news.page-0.xml',
      'sitemap-page-0.xml',
    ]);
    // Numbers sort as numbers: post 10 comes after post 9.
    expect(before['sitemap-news-4.xml']).toBe(
      `${before['sitemap-news-4.xml']!.slice(0, before['sitemap-news-4.xml']!.indexOf('<url>'))}<url><loc>${site}news/9/</loc><xhtml:link rel="alternate" hreflang="uz-Latn" href="${site}news/9/"/><xhtml:link rel="alternate" hreflang="ru" href="${site}ru/news/9/"/></url><url><loc>${site}ru/news/9/</loc><xhtml:link rel="alternate" hreflang="uz-Latn" href="${site}news/9/"/><xhtml:link rel="alternate" hreflang="ru" href="${site}ru/news/9/"/></url></urlset>`,
    );
    const changed = Object.keys(after).filter((name) => after[name] !== before[name]);
    expect(changed).toEqual(['sitemap-news-4.xml']);
    expect(after['sitemap-news-4.xml']).toContain(`<loc>${site}ru/news/10/</loc>`);
  });

  it('lists the pages the build reused without handing them to Astro as if Astro had built them', async () => {
    const options = { site: 'https://gov.example/', defaultLocale: 'uz-latn', locales, filter };
    const reused = pages.filter((_, i) => i % 3 === 0);
    const handed = pages.filter((_, i) => i % 3 !== 0);
    const split = await written(sitemap({ ...options, reusedWithoutAstro: () => reused }), 'https://gov.example', '/', handed);
    expect(split).toEqual(await written(sitemap(options), 'https://gov.example', '/', pages));
    expect(split['sitemap-0.xml']).toContain('<url><loc>https://gov.example/</loc>');
  });

  it('refuses files of no address or of more than the protocol allows', () => {
    const options = { site: 'https://gov.example/', defaultLocale: 'uz-latn', locales };
    for (const entryLimit of [0, 0.5, 50_001, Number.NaN])
      expect(() => sitemapFiles(['https://gov.example/'], { ...options, entryLimit })).toThrow('a sitemap file holds 1 to 50,000 addresses');
  });

  it('fails the build when it would list no page', async () => {
    const none = sitemap({ site: 'https://gov.example/', defaultLocale: 'uz-latn', locales, filter: () => false });
    await expect(written(none, 'https://gov.example', '/', ['', 'news/'])).rejects.toThrow('the sitemap would list no page');
  });
});
