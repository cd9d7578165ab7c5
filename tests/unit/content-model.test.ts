/**
 * Editor HTML as a word processor pastes it, sanitised into valid HTML: the W3C checker finds no error in a
 * page holding any of it, no word of the text is lost, and HTML that is already valid is left as it is.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { keepContentModel } from '../../src/lib/content-model.ts';
import { sanitize, textOf } from '../../src/lib/sanitize.ts';
import { htmlErrors } from '../helpers/html-checker.ts';

/** What editors' texts have been seen to hold, each breaking one of HTML's rules. */
const PASTED: Record<string, string> = {
  'a list item with no list': '<p>Hujjatlar:</p><li>Pasport</li><li>Ariza</li>',
  'table rows with no table': '<tr><td>Dushanba</td><td>9:00</td></tr>',
  'a cell straight in a table': '<table><td colspan="two">Jadval</td></table>',
  'a paragraph in inline formatting': '<span><p>Matn</p></span><b><p>Qalin</p></b><strong><ul><li>Band</li></ul></strong>',
  'a paragraph in preformatted text': '<pre><p>Kod</p></pre>',
  'a list inside a heading': '<h2>Sarlavha <ul><li>band</li></ul></h2>',
  'a picture sized in per cent': '<img src="https://media.example/a.jpg" width="100%" height="auto" alt="Bino">',
  'a bad list start and scope': '<ol start="x"><li>a</li></ol><table><tr><th scope="all">Ustun</th></tr></table>',
  'captions out of place': '<figcaption>Izoh</figcaption><table><tr><td>x</td></tr><caption>Birinchi</caption><caption>Ikkinchi</caption></table>',
  'two figure captions': '<figure><figcaption>Bir</figcaption><img src="https://media.example/b.jpg" alt=""><figcaption>Ikki</figcaption><figcaption>Uch</figcaption></figure>',
  'terms with no list': '<dt>Hokim</dt><dd>Tuman rahbari</dd>',
  'text loose in a list and a table': '<ul>Kirish<li>band</li></ul><table>Izoh<tr><td>x</td></tr></table>',
  'a ragged table': '<table><tr><td colspan="3">Keng</td></tr><tr><td>a</td><td>b</td></tr><tr><td rowspan="4">Baland</td><td>c</td></tr></table>',
  'addresses with spaces or no host':
    '<a href="https://example.com/yangi hujjat.pdf">bir</a> <a href="https://exa mple.com">ikki</a> <a href="http://">uch</a> <a href="tel:+998 66 123">tort</a>',
  'a language that is no language': '<p lang="not a lang">matn</p>',
  'a block inside a block inside inline formatting': '<mark><figure><img src="https://media.example/c.jpg" alt=""></figure></mark>',
  'loose ragged rows': '<tr><td colspan="3">Keng</td></tr><tr><td>b</td></tr><span><tr><td>c</td><td>d</td></tr><tr><td>e</td></tr></span>',
  'headings in a header cell, a term and a caption':
    '<table><caption><h3>Jadval</h3></caption><tr><th><h3>Ustun</h3></th></tr></table><dl><dt><h4>Atama</h4></dt><dd>izoh</dd></dl>',
  'bold round list items': '<ul><b><li>bir</li><li>ikki</li></b></ul>',
};

/** The letters of a text's words, in any order: a caption moves to the top of its table, and nothing else moves. */
const letters = (html: string) => [...textOf(html).replace(/\s+/g, '')].sort().join('');

describe('editor HTML keeps HTML’s content models', () => {
  const dir = mkdtempSync(join(tmpdir(), 'content-model-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('the W3C checker finds no error in a page holding any pasted text, and no word is lost', async () => {
    const files = Object.entries(PASTED).map(([name, html], i) => {
      const clean = sanitize(html, { mediaBase: 'https://media.example' });
      expect(letters(clean), name).toBe(letters(html));
      const file = join(dir, `${i}.html`);
      writeFileSync(file, `<!doctype html><html lang="uz"><head><meta charset="utf-8"><title>${name}</title></head><body><main><h1>Sahifa</h1>${clean}</main></body></html>`);
      return file;
    });
    expect(await htmlErrors(dir, files)).toEqual([]);
  }, 60_000);

  it('gives stray parts what holds them, as a reader expects', () => {
    expect(sanitize(PASTED['a list item with no list']!)).toBe('<p>Hujjatlar:</p><ul><li>Pasport</li><li>Ariza</li></ul>');
    expect(sanitize(PASTED['table rows with no table']!)).toBe('<div class="table-scroll" tabindex="0"><table><tr><td>Dushanba</td><td>9:00</td></tr></table></div>');
    expect(sanitize(PASTED['text loose in a list and a table']!)).toBe(
      '<ul><li>Kirish</li><li>band</li></ul>Izoh<div class="table-scroll" tabindex="0"><table><tr><td>x</td></tr></table></div>',
    );
    expect(sanitize(PASTED['a ragged table']!)).toBe(
      '<div class="table-scroll" tabindex="0"><table><tr><td colspan="2">Keng</td></tr><tr><td>a</td><td>b</td></tr><tr><td>Baland</td><td>c</td></tr></table></div>',
    );
    // The heading keeps its place; what it held becomes its text.
    expect(sanitize(PASTED['a list inside a heading']!)).toMatch(/^<h2>Sarlavha\s+band\s*<\/h2>$/);
    expect(sanitize(PASTED['addresses with spaces or no host']!)).toBe(
      '<a href="https://example.com/yangi%20hujjat.pdf" target="_blank" rel="noopener noreferrer">bir</a> <a>ikki</a> <a>uch</a> <a href="tel:+998%2066%20123">tort</a>',
    );
  });

  it('never turns an address the sanitiser let through as relative into a script, another host or a data picture', () => {
    for (const space of ['\u00a0', '\ufeff', '\u2028', '\u3000']) {
      for (const html of [`<a href="${space}javascript:alert(1)">x</a>`, `<a href="${space}//evil.example/p">x</a>`, `<img src="${space}data:image/png;base64,AAAA" alt="">`]) {
        const clean = sanitize(html, { mediaBase: 'https://media.example' });
        expect(clean, JSON.stringify(html)).not.toMatch(/(href|src)="(javascript:|\/\/|data:)/i);
      }
    }
    expect(sanitize('<ul><b><li>bir</li><li>ikki</li></b></ul>')).toBe('<ul><li>bir</li><li>ikki</li></ul>');
  });

  it('leaves valid HTML as the sanitiser wrote it, and a second pass changes nothing', () => {
    const valid = '<p>A &amp; B <a href="/x?a=1&amp;b=2" title="&quot;q&quot;">l</a><br /></p><ul><li>x</li></ul><img alt="" src="https://m/a.jpg" />';
    expect(keepContentModel(valid)).toBe(valid);
    for (const html of Object.values(PASTED)) {
      const once = sanitize(html, { mediaBase: 'https://media.example' });
      expect(sanitize(once, { mediaBase: 'https://media.example' })).toBe(once);
    }
  });
});
