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

  it('opens external links in a new tab without the opener, and leaves internal links alone', () => {
    expect(sanitize('<a href="https://gov.uz" target="_self" rel="opener">gov</a>')).toBe(
      '<a href="https://gov.uz" target="_blank" rel="noopener noreferrer">gov</a>',
    );
    expect(sanitize('<a href="/news/3" target="_blank">n</a>')).toBe('<a href="/news/3">n</a>');
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
