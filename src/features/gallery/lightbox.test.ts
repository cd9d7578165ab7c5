/** A photo group's title from the API reaches the lightbox as text, never as markup. */
import { describe, expect, it } from 'vitest';
import { captionHtml } from './lightbox.ts';

describe('the lightbox caption', () => {
  it('is the title as text: a hostile title shows as written and makes no element', () => {
    const hostile = 'Bayram <a href="//evil.example" style="position:fixed;inset:0">bosing</a><img src=x onerror=alert(1)> & "tun"';
    const html = captionHtml(hostile);
    expect(html).not.toMatch(/<[a-z]/i);
    // What innerHTML makes of it is the title, character for character.
    const decoded = html.replaceAll('&lt;', '<').replaceAll('&gt;', '>').replaceAll('&quot;', '"').replaceAll('&amp;', '&');
    expect(decoded).toBe(hostile);
    expect(captionHtml('Qorakoʻl koʻli')).toBe('Qorakoʻl koʻli');
  });
});
