import { describe, expect, it } from 'vitest';
import { sanitize, textOf } from '../../src/lib/sanitize.ts';

const HOSTILE = [
  '<script>alert(1)</script><p>after</p>',
  '<img src="x" onerror="alert(2)">',
  '<a href="javascript:alert(3)">link</a>',
  '<a href="JaVaScRiPt:alert(3)">link</a>',
  '<a href="&#106;avascript:alert(1)">entity</a>',
  '<p style="position:fixed" onclick="alert(4)">text</p>',
  '<svg><script>alert(5)</script></svg>',
  '<iframe src="https://evil.example"></iframe>',
  '<img src="data:image/svg+xml;base64,PHN2Zz4=">',
  '<a href="data:text/html,<script>alert(6)</script>">d</a>',
  '<style>body{display:none}</style><p>x</p>',
  '<form action="https://evil.example"><input name="q"></form>',
  '<div onmouseover="alert(7)">hover</div>',
  '<object data="x.swf"></object><embed src="x.swf">',
  '<a href="//evil.example/x">protocol-relative</a>',
];

describe('sanitize', () => {
  it.each(HOSTILE)('neutralises %s', (input) => {
    const out = sanitize(input);
    expect(out).not.toMatch(/<script|<iframe|<style|<object|<embed|<form|<svg/i);
    expect(out).not.toMatch(/\son\w+=/i);
    expect(out).not.toMatch(/javascript:|data:|style=/i);
    expect(out).not.toMatch(/href="\/\//);
  });

  it('keeps the text of dropped wrappers but not of scripts', () => {
    expect(sanitize('<div onmouseover="x">hover</div><script>alert(1)</script>')).toBe('hover');
  });

  it('keeps headings, lists, tables, emphasis and images', () => {
    const html =
      '<h2>Title</h2><p><strong>bold</strong> <em>it</em></p><ul><li>one</li></ul>' +
      '<table><thead><tr><th>A</th></tr></thead><tbody><tr><td>1</td></tr></tbody></table>' +
      '<img src="https://example.uz/a.png" alt="A">';
    const out = sanitize(html);
    expect(out).toContain('<h2>Title</h2>');
    expect(out).toContain('<strong>bold</strong>');
    expect(out).toContain('<li>one</li>');
    expect(out).toContain('<td>1</td>');
    expect(out).toContain('<img alt="A" src="https://example.uz/a.png" loading="lazy" decoding="async" />');
  });

  it("opens external links in a new tab without the opener, and leaves internal links as written, marked as the editor's", () => {
    expect(sanitize('<a href="https://gov.uz" target="_self" rel="opener">gov</a>')).toBe('<a href="https://gov.uz" target="_blank" rel="noopener noreferrer">gov</a>');
    expect(sanitize('<a href="/news/3" target="_blank">n</a>')).toBe('<a href="/news/3" data-editor-link>n</a>');
  });

  it('gives an image without text an empty alt, and joins a relative image to the media base', () => {
    expect(sanitize('<img src="uploads/a.png">', { mediaBase: 'https://media.example.uz/' })).toBe(
      '<img alt="" src="https://media.example.uz/uploads/a.png" loading="lazy" decoding="async" />',
    );
  });

  it('turns an h1 into an h2, so the page keeps one h1', () => {
    expect(sanitize('<h1>Big</h1>')).toBe('<h2>Big</h2>');
  });
});

/** The heading levels of sanitised HTML, in document order. */
const levels = (html: string) => [...html.matchAll(/<h([1-6])\b/g)].map((m) => Number(m[1]));

describe("headings of a text from the API, under the page's own", () => {
  it("starts at h2 under the page's h1 and skips no level, whatever the editor wrote", () => {
    expect(sanitize('<h3>Tadbir</h3><p>matn</p>')).toBe('<h2>Tadbir</h2><p>matn</p>');
    expect(sanitize('<h5>Жуда кичик</h5>')).toBe('<h2>Жуда кичик</h2>');
    expect(levels(sanitize('<h1>A</h1><h3>B</h3><h6>C</h6><h3>D</h3><h2>E</h2><h4>F</h4>'))).toEqual([2, 3, 4, 3, 3, 4]);
    // Two h1s in one text: both become h2, with what was under each one level down.
    expect(levels(sanitize('<h1>A</h1><h2>a</h2><h1>B</h1><h4>b</h4>'))).toEqual([2, 3, 2, 3]);
  });

  it('keeps a heading written above the first one at the same top level', () => {
    expect(levels(sanitize('<h4>Avval</h4><p>x</p><h2>Keyin</h2><h3>Ichida</h3>'))).toEqual([2, 2, 3]);
  });

  it('leaves a text that is already in order as it is', () => {
    const ordered = '<h2 lang="ru">A</h2><p>1</p><h3>B</h3><h4>C</h4><h3>D</h3><h2>E</h2>';
    expect(sanitize(ordered)).toBe(ordered);
    expect(sanitize(sanitize('<h1>A</h1><h5>B</h5>'))).toBe(sanitize('<h1>A</h1><h5>B</h5>'));
  });

  it('starts lower where the text sits under a lower heading', () => {
    expect(sanitize('<h1>Tarjimai hol</h1><h2>Oila</h2>', { topHeading: 4 })).toBe('<h4>Tarjimai hol</h4><h5>Oila</h5>');
    // Past h6 there is no level: deeper headings stay h6.
    expect(levels(sanitize('<h1>a</h1><h2>b</h2><h3>c</h3><h4>d</h4>', { topHeading: 4 }))).toEqual([4, 5, 6, 6]);
  });

  it('ends a heading where another starts, as a browser does, and numbers both', () => {
    expect(sanitize('<h2>Bayram <h3>dasturi</h3> va <h1><em>tartibi</em></h1></h2><h4>Keyin</h4>')).toBe(
      '<h2>Bayram </h2><h3>dasturi</h3> va <h2><em>tartibi</em></h2><h3>Keyin</h3>',
    );
  });

  it('makes a heading nested deeper inside another part of its text, so no empty heading is left when a browser splits them', () => {
    expect(sanitize('<h3><strong>A <h5>B</h5></strong></h3><h6>C</h6>')).toBe('<h2><strong>A B</strong></h2><h3>C</h3>');
    expect(sanitize('<h1><span><em><h1>Ichki</h1></em></span> sarlavha</h1>')).toBe('<h2><span><em>Ichki</em></span> sarlavha</h2>');
  });

  it('drops headings with nothing to read, before numbering the rest', () => {
    expect(sanitize('<h1> </h1><h2>&nbsp;<br></h2><h3><span></span></h3><h4>Matn</h4><p>x</p>')).toBe('<h2>Matn</h2><p>x</p>');
    // An empty heading that only held an empty one.
    expect(sanitize('<h2><h3></h3></h2><h5>Qoldi</h5>')).toBe('<h2>Qoldi</h2>');
    // A heading that is only a picture keeps it: the picture's text is its name.
    expect(sanitize('<h3><img src="https://example.uz/logo.png" alt="Gerb"></h3>')).toBe(
      '<h2><img alt="Gerb" src="https://example.uz/logo.png" loading="lazy" decoding="async" /></h2>',
    );
  });

  it('is not fooled by heading-like text, attributes or a stray closing tag', () => {
    expect(sanitize('<p>&lt;h1&gt; emas</p><pre><h1>kod</h1></pre><h3 lang="x>h1">A</h3></h4><h6>B</h6>')).toBe(
      // The heading leaves the <pre>, which may hold only text, and "x>h1" is no language: the attribute goes.
      '<p>&lt;h1&gt; emas</p><h2>kod</h2><h3>A</h3><h4>B</h4>',
    );
    expect(sanitize('<h2 onclick="alert(1)" style="font-size:90px">A</h2>')).toBe('<h2>A</h2>');
  });
});

describe('textOf (meta and Open Graph descriptions)', () => {
  it('drops the text of scripts and styles before stripping tags', () => {
    const html = '<script>window.evil=1</script><style>p{color:red}</style><p>Tuman <b>hokimligi</b></p><p>mahallalarda&nbsp;uchrashdi</p>';
    expect(textOf(html)).toBe('Tuman hokimligi mahallalarda uchrashdi');
  });
  it('decodes the entities the sanitiser writes, so the meta tag is not escaped twice', () => {
    expect(textOf('<p>A &amp; B &lt;C&gt; "D"</p>')).toBe('A & B <C> "D"');
  });
  it('keeps no trace of hostile markup', () => {
    const out = textOf('<img src=x onerror="window.evil=1"><iframe>window.evil</iframe><noscript>window.x</noscript>ok');
    expect(out).toBe('ok');
  });
});
