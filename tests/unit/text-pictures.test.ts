/** Pictures inside API texts are served from the site, after the sanitiser has had its say. */
import { describe, expect, it } from 'vitest';
import { sanitize } from '../../src/lib/sanitize.ts';
import { localPictures } from '../../src/lib/text-pictures.ts';
import type { ResponsivePicture } from '../../src/lib/images.ts';

const MEDIA = 'https://media.qorakul.uz';
const made: string[] = [];
function make(src: string): ResponsivePicture | null {
  made.push(src);
  if (src.endsWith('missing.png')) return null;
  return {
    srcset: '/_astro/pictures/p-400.webp 400w, /_astro/pictures/p-800.webp 800w',
    src: '/_astro/pictures/p-400.webp',
    width: 800,
    height: 533,
    large: '/_astro/pictures/p-800.webp',
  };
}

describe('pictures inside API texts', () => {
  it('serves a media picture from the site in its drawn sizes with its real size, keeping what the editor wrote about it', () => {
    const html = sanitize('<p>Qushlar</p><img src="uploads/birds.png?v=1&amp;w=2" alt="Dengizko\'l &quot;qushlari&quot;" width="20" height="10000" onerror="alert(1)">', {
      mediaBase: `${MEDIA}/`,
    });
    const out = localPictures(html, MEDIA, make);
    expect(made).toContain(`${MEDIA}/uploads/birds.png?v=1&w=2`);
    expect(out).toBe(
      '<p>Qushlar</p><img alt="Dengizko\'l &quot;qushlari&quot;" src="/_astro/pictures/p-400.webp" srcset="/_astro/pictures/p-400.webp 400w, /_astro/pictures/p-800.webp 800w" ' +
        'sizes="(min-width:62rem) 760px,100vw" width="800" height="533" loading="lazy" decoding="async">',
    );
  });

  it('leaves pictures from other sites as they were, and leaves out media pictures that could not be fetched', () => {
    const html = sanitize('<img src="https://example.org/a.png" alt="a"><p>matn</p><img src="uploads/missing.png" alt="b">', { mediaBase: MEDIA });
    expect(localPictures(html, MEDIA, make)).toBe('<img alt="a" src="https://example.org/a.png" loading="lazy" decoding="async" /><p>matn</p>');
    expect(made).toContain(`${MEDIA}/uploads/missing.png`);
    expect(made).not.toContain('https://example.org/a.png');
  });

  it('leaves a text without pictures untouched', () => {
    expect(localPictures('<p>Matn</p>', MEDIA, make)).toBe('<p>Matn</p>');
  });
});
