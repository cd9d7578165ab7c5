/** The link check that guards every build and every rebuild before it is published. */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { checkLinks, linkChecker, referencedUrls } from '../../scripts/pipeline/finish/link-check.ts';
import { EDITOR_LINK } from '../../src/lib/editor-content.ts';

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

  it("keeps no page's text once the page is checked: what it keeps of a page is a copy of each URL", () => {
    setFlagsFromString('--expose-gc');
    const collect = runInNewContext('gc') as () => void;
    const files = new Set<string>();
    for (let i = 0; i < 300; i++) files.add(join(root, `news/${i}/index.html`));
    const checker = linkChecker(root, files);
    // A page of 400 KB in memory (Cyrillic text takes two bytes a character) whose links are its own: a link
    // to the next post, an anchor in it and an editor's link, as a news page has.
    const page = (i: number) =>
      `<main>${'Қоракўл туманида янги бозор очилди. '.repeat(5500)}<a href="/news/${i + 1}">next</a>` +
      `<a href="/news/${i + 1}#top">top</a><a ${EDITOR_LINK} href="/news/${i + 1}/">editor</a></main>`;
    collect();
    const before = process.memoryUsage().heapUsed;
    // What a check finds is kept for the whole pass (and in its memo), as the last pass keeps it.
    const found = Array.from({ length: 299 }, (_, i) => checker.page(join(root, `news/${i}/index.html`), page(i)));
    collect();
    const kept = process.memoryUsage().heapUsed - before;
    expect(found[7]!.links.anchors).toEqual([{ url: '/news/8#top', path: '/news/8', id: 'top' }]);
    // Kept by a URL cut from them, the 299 pages held 80 MB here.
    expect(kept).toBeLessThan(10 * 1024 * 1024);
  });
});
