/**
 * The video hosts whose players an editor may embed in a text, and how the site shows each: the
 * host's name, the player loaded only when the citizen presses Play (a host's privacy-friendly player
 * where it has one), and the video's own page on the host. YouTube is what Uzbek official sites embed
 * most; mover.uz is the national host many of them use; Vimeo and Rutube appear too. An embed from any
 * other host becomes a plain link (src/lib/sanitize.ts).
 */

export interface EmbeddedVideo {
  /** The host's name as a citizen knows it. */
  host: string;
  /** The player, loaded in a frame only when the citizen presses Play. */
  player: string;
  /** The video on the host's own site. */
  page: string;
}

interface VideoHost {
  name: string;
  /** Where the host's player lives: the policy's frame-src allows exactly these origins. */
  playerOrigin: string;
  /** The video's id from an embed or watch URL, or null when the URL is not one of this host's videos. */
  id: (url: URL) => string | null;
  player: (id: string) => string;
  page: (id: string) => string;
}

const match = (pattern: RegExp, value: string) => pattern.exec(value)?.[1] ?? null;
const onHost = (url: URL, hosts: readonly string[]) => hosts.includes(url.hostname.replace(/^www\./, '').replace(/^m\./, ''));

const HOSTS: readonly VideoHost[] = [
  {
    name: 'YouTube',
    playerOrigin: 'https://www.youtube-nocookie.com',
    // A playlist (`/embed/videoseries?list=…`) is no one video: it becomes a link.
    id: (url) =>
      url.pathname.endsWith('/videoseries')
        ? null
        : onHost(url, ['youtube.com', 'youtube-nocookie.com'])
          ? (match(/^\/(?:embed|shorts|live)\/([\w-]{11})$/, url.pathname) ?? (url.pathname === '/watch' ? match(/^([\w-]{11})$/, url.searchParams.get('v') ?? '') : null))
          : onHost(url, ['youtu.be'])
            ? match(/^\/([\w-]{11})$/, url.pathname)
            : null,
    player: (id) => `https://www.youtube-nocookie.com/embed/${id}?autoplay=1`,
    page: (id) => `https://www.youtube.com/watch?v=${id}`,
  },
  {
    name: 'mover.uz',
    playerOrigin: 'https://mover.uz',
    id: (url) => (onHost(url, ['mover.uz']) ? match(/^\/(?:video\/embed|watch)\/(\w+)\/?$/, url.pathname) : null),
    player: (id) => `https://mover.uz/video/embed/${id}/`,
    page: (id) => `https://mover.uz/watch/${id}`,
  },
  {
    name: 'Vimeo',
    playerOrigin: 'https://player.vimeo.com',
    id: (url) => (onHost(url, ['player.vimeo.com', 'vimeo.com']) ? match(/^\/(?:video\/)?(\d{1,12})\/?$/, url.pathname) : null),
    // dnt: the player sets no tracking cookies.
    player: (id) => `https://player.vimeo.com/video/${id}?dnt=1&autoplay=1`,
    page: (id) => `https://vimeo.com/${id}`,
  },
  {
    name: 'Rutube',
    playerOrigin: 'https://rutube.ru',
    id: (url) => (onHost(url, ['rutube.ru']) ? match(/^\/(?:play\/embed|video)\/([\da-f]{32})\/?$/, url.pathname) : null),
    player: (id) => `https://rutube.ru/play/embed/${id}`,
    page: (id) => `https://rutube.ru/video/${id}/`,
  },
];

/** The origins of the players the site may show in a frame, for the Content-Security-Policy. */
export const VIDEO_PLAYER_ORIGINS: readonly string[] = HOSTS.map((h) => h.playerOrigin);

/** The video an embed's address (an iframe's src) shows, when it is on a known host; null otherwise. */
export function embeddedVideo(src: string): EmbeddedVideo | null {
  const href = src.trim().replace(/^\/\//, 'https://');
  if (!URL.canParse(href)) return null;
  const url = new URL(href);
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
  for (const host of HOSTS) {
    const id = host.id(url);
    if (id) return { host: host.name, player: host.player(id), page: host.page(id) };
  }
  return null;
}

/** A Telegram post as a widget names it (`channel/123`), as its address on t.me; null for anything else. */
export function telegramPostUrl(name: string): string | null {
  const m = /^([A-Za-z]\w{3,31})\/(\d{1,12})$/.exec(name.trim());
  return m ? `https://t.me/${m[1]}/${m[2]}` : null;
}
