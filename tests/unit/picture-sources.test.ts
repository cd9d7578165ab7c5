/** Which pictures a snapshot shows are the site's to draw: those on the media server's origin, and no other. */
import { describe, expect, it } from 'vitest';
import { shownPictures, sourceOf } from '../../scripts/pipeline/pull/picture-sources.ts';
import type { Snapshot } from '../../src/content/snapshot.ts';

const MEDIA = 'https://media.example.uz/';

/** A snapshot of one language whose posts show these pictures, one each, and one text with a picture in it. */
function showing(images: string[], text = ''): Snapshot {
  const posts = Object.fromEntries(images.map((imageUrl, i) => [i + 1, { id: i + 1, imageUrl, html: '' }]));
  posts[99] = { id: 99, imageUrl: '', html: text };
  return { languages: { ru: { posts, pages: {}, employees: {}, photoGroups: [] } } } as unknown as Snapshot;
}

describe("the pictures that are the site's", () => {
  it('are those on the media origin, however the address is written, and not those of a host that only begins alike, however often shown', () => {
    const shown = shownPictures(
      showing(
        [
          '/media/post/1.jpg',
          'https://media.example.uz/media/post/2.jpg',
          'HTTPS://MEDIA.EXAMPLE.UZ/media/post/3.jpg',
          'https://media.example.uz:443/media/post/4.jpg',
          'https://media.example.uz.evil.example/media/post/5.jpg',
          'https://media.example.uzbek.example/6.jpg',
          'http://media.example.uz/media/post/7.jpg',
          'https://media.example.uz:8443/media/post/8.jpg',
          'https://other.example/9.jpg',
          // Shown again by other posts: still not the site's, and the site's one shown by both.
          'https://other.example/9.jpg',
          '/media/post/1.jpg',
        ],
        '<p><img src="/uploads/10.png" alt=""><img src="https://cdn.example/11.png" alt=""></p>',
      ),
      MEDIA,
    );
    const sources = new Map([...shown].map(([url, shownBy]) => [url, sourceOf(shownBy)]));
    expect([...sources.keys()].sort()).toEqual([
      'HTTPS://MEDIA.EXAMPLE.UZ/media/post/3.jpg',
      'https://media.example.uz/media/post/1.jpg',
      'https://media.example.uz/media/post/2.jpg',
      'https://media.example.uz/uploads/10.png',
      'https://media.example.uz:443/media/post/4.jpg',
    ]);
    expect(sources.get('https://media.example.uz/media/post/2.jpg')).toEqual({ roles: new Set(['post']), items: new Set(['post:2@ru']) });
    expect(sources.get('https://media.example.uz/uploads/10.png')?.roles).toEqual(new Set(['text']));
    expect(sources.get('https://media.example.uz/media/post/1.jpg')?.items).toEqual(new Set(['post:1@ru', 'post:11@ru']));
  });
});
