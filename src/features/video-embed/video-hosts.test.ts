import { describe, expect, it } from 'vitest';
import { embeddedVideo, telegramPostUrl, VIDEO_PLAYER_ORIGINS } from './video-hosts.ts';

describe('embeddedVideo', () => {
  it.each([
    ['https://www.youtube.com/embed/M7lc1UVf-VE', 'YouTube', 'https://www.youtube-nocookie.com/embed/M7lc1UVf-VE?autoplay=1', 'https://www.youtube.com/watch?v=M7lc1UVf-VE'],
    [
      '//www.youtube-nocookie.com/embed/M7lc1UVf-VE?rel=0',
      'YouTube',
      'https://www.youtube-nocookie.com/embed/M7lc1UVf-VE?autoplay=1',
      'https://www.youtube.com/watch?v=M7lc1UVf-VE',
    ],
    ['https://youtu.be/M7lc1UVf-VE', 'YouTube', 'https://www.youtube-nocookie.com/embed/M7lc1UVf-VE?autoplay=1', 'https://www.youtube.com/watch?v=M7lc1UVf-VE'],
    ['https://mover.uz/video/embed/Xb3kLm9/', 'mover.uz', 'https://mover.uz/video/embed/Xb3kLm9/', 'https://mover.uz/watch/Xb3kLm9'],
    ['https://player.vimeo.com/video/76979871?h=8272103f6e', 'Vimeo', 'https://player.vimeo.com/video/76979871?dnt=1&autoplay=1', 'https://vimeo.com/76979871'],
    [
      'https://rutube.ru/play/embed/0123456789abcdef0123456789abcdef',
      'Rutube',
      'https://rutube.ru/play/embed/0123456789abcdef0123456789abcdef',
      'https://rutube.ru/video/0123456789abcdef0123456789abcdef/',
    ],
  ])('knows %s as a %s video', (src, host, player, page) => {
    expect(embeddedVideo(src)).toEqual({ host, player, page });
    // The card keeps only the video's page; the player is found from it again.
    expect(embeddedVideo(page)).toEqual({ host, player, page });
  });

  it.each([
    'https://evil.example/embed/M7lc1UVf-VE',
    'https://www.youtube.com.evil.example/embed/M7lc1UVf-VE',
    'https://www.youtube.com/embed/M7lc1UVf-VE"onload="x',
    'javascript:alert(1)',
    'https://www.youtube.com/embed/videoseries?list=PL1',
    '',
  ])('knows no video in %s', (src) => {
    expect(embeddedVideo(src)).toBeNull();
  });

  it('allows in frames exactly the players it loads', () => {
    for (const src of ['https://youtu.be/M7lc1UVf-VE', 'https://mover.uz/watch/Xb3kLm9', 'https://vimeo.com/1', 'https://rutube.ru/video/0123456789abcdef0123456789abcdef/']) {
      expect(VIDEO_PLAYER_ORIGINS).toContain(new URL(embeddedVideo(src)!.player).origin);
    }
  });
});

describe('telegramPostUrl', () => {
  it('links a widget post to t.me, and nothing else', () => {
    expect(telegramPostUrl('qorakul_hokimligi/1204')).toBe('https://t.me/qorakul_hokimligi/1204');
    expect(telegramPostUrl('x/1')).toBeNull();
    expect(telegramPostUrl('evil.example/1')).toBeNull();
    expect(telegramPostUrl('channel/1/../../x')).toBeNull();
  });
});
