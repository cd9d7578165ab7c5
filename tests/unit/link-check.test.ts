/** The link check that guards every build and every rebuild before it is published. */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkLinks, referencedUrls } from '../../scripts/pipeline/finish/link-check.ts';

const root = mkdtempSync(join(tmpdir(), 'check-links-'));
afterAll(() => rm(root, { recursive: true, force: true }));

function file(path: string, body = ''): void {
  mkdirSync(dirname(join(root, path)), { recursive: true });
  writeFileSync(join(root, path), body);
}

describe('check:links', () => {
  it('reads every URL of a page, each width of a srcset included', () => {
    expect(referencedUrls('<img src="/a.webp" srcset="/a-320.webp 320w, /a-640.webp 640w"><a href=\'/news?x=1&amp;y=2\'>')).toEqual([
      '/a.webp',
      '/a-320.webp',
      '/a-640.webp',
      '/news?x=1&y=2',
    ]);
  });

  it('finds exactly the references that lead nowhere', async () => {
    file('_astro/site.css', 'p{}');
    file('_astro/photo-320.webp');
    file('news/index.html', '<h1 id="top">Yangiliklar</h1>');
    file('rss.xml', '<rss/>');
    file(
      'index.html',
      [
        '<link rel="stylesheet" href="/_astro/site.css">',
        '<script src="/_astro/gone.js"></script>',
        '<img src="/_astro/photo-320.webp" srcset="/_astro/photo-320.webp 320w, /_astro/photo-640.webp 640w">',
        '<a href="/news">ok</a><a href="/news/">ok</a><a href="news#top">ok</a><a href="/news#bottom">no id</a>',
        '<a href="/rss.xml">ok</a><a href="/ru/news">missing language</a>',
        '<a href="https://gov.uz">external</a><a href="mailto:info@qorakul.uz">mail</a><a href="tel:+998655921010">tel</a>',
      ].join('\n'),
    );
    const result = await checkLinks(root);
    expect(result.pages).toBe(2);
    expect(result.broken.sort()).toEqual(
      ['index.html: /_astro/gone.js', 'index.html: /_astro/photo-640.webp', 'index.html: /news#bottom (no element with that id)', 'index.html: /ru/news'].sort(),
    );
  });
});
