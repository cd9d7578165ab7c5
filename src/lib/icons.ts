/**
 * The site's icons, 24×24 paths. Pages and islands refer to them in one cached
 * sprite (/icons.svg, built from these tables) instead of repeating each path
 * inline: `<Icon name>` in Astro, `<SpriteIcon name>` in the islands. The few
 * in the header are drawn in the page itself from the same tables (`inline`),
 * so they paint with the first flight instead of waiting for the sprite on a
 * slow line. Never an emoji or a Unicode symbol as an icon: a device without
 * an emoji font shows an empty box.
 */
import { siteAddress } from './base-path.ts';

export const ICONS = {
  search: 'M10.5 3a7.5 7.5 0 0 1 5.9 12.1l4.3 4.3-1.4 1.4-4.3-4.3A7.5 7.5 0 1 1 10.5 3zm0 2a5.5 5.5 0 1 0 0 11 5.5 5.5 0 0 0 0-11z',
  // Drawn in every page's header (inline): kept short, an almond of two curves round the pupil.
  eye: 'M1 12Q12 0 23 12Q12 24 1 12zm3 0q8 8 16 0-8-8-16 0zm8-3a3 3 0 1 0 0 6 3 3 0 0 0 0-6z',
  menu: 'M3 6h18v2H3zm0 5h18v2H3zm0 5h18v2H3z',
  close: 'M6.4 5 12 10.6 17.6 5 19 6.4 13.4 12l5.6 5.6-1.4 1.4-5.6-5.6L6.4 19 5 17.6l5.6-5.6L5 6.4z',
  phone:
    'M6.6 10.8a15 15 0 0 0 6.6 6.6l2.2-2.2c.3-.3.7-.4 1-.2 1.1.4 2.3.6 3.6.6.6 0 1 .4 1 1V20c0 .6-.4 1-1 1A17 17 0 0 1 3 4c0-.6.4-1 1-1h3.5c.6 0 1 .4 1 1 0 1.3.2 2.5.6 3.6.1.3 0 .7-.2 1z',
  mail: 'M3 5h18c.6 0 1 .4 1 1v12c0 .6-.4 1-1 1H3c-.6 0-1-.4-1-1V6c0-.6.4-1 1-1zm1 2.2V17h16V7.2l-8 5.3zM5.2 7 12 11.5 18.8 7z',
  pin: 'M12 2a7 7 0 0 1 7 7c0 5-7 13-7 13S5 14 5 9a7 7 0 0 1 7-7zm0 4.5a2.5 2.5 0 1 0 0 5 2.5 2.5 0 0 0 0-5z',
  calendar: 'M7 2h2v2h6V2h2v2h3c.6 0 1 .4 1 1v15c0 .6-.4 1-1 1H4c-.6 0-1-.4-1-1V5c0-.6.4-1 1-1h3zm-2 8v9h14v-9zm0-4v2h14V6z',
  views: 'M12 6c4.4 0 7.6 3 9 6-1.4 3-4.6 6-9 6s-7.6-3-9-6c1.4-3 4.6-6 9-6zm0 3a3 3 0 1 0 0 6 3 3 0 0 0 0-6z',
  external: 'M14 3h7v7h-2V6.4l-9.3 9.3-1.4-1.4L17.6 5H14zM5 5h6v2H5v12h12v-6h2v6c0 1.1-.9 2-2 2H5a2 2 0 0 1-2-2V7c0-1.1.9-2 2-2z',
  'arrow-left': 'M10.8 5.6 12.2 7l-4 4H20v2H8.2l4 4-1.4 1.4L4.4 12z',
  'arrow-right': 'M13.2 5.6 19.6 12l-6.4 6.4-1.4-1.4 4-4H4v-2h11.8l-4-4z',
} as const;

/** Outline icons drawn with a 2 px round stroke (service tiles, survey votes, slideshow): one line weight for all. */
const STROKE_ICONS = {
  letter: 'M3 6h18v12H3z M3 7l9 6 9-6',
  pencil: 'M4 20h4L19 9a2.8 2.8 0 0 0-4-4L4 16z M13.5 6.5l4 4',
  hotel: 'M3 11l9-7 9 7 M5 9.5V20h14V9.5 M10 20v-5h4v5',
  growth: 'M3 20h18 M5 16l5-5 4 4 6-7 M15 8h5v5',
  bus: 'M7 4h10a2 2 0 0 1 2 2v11H5V6a2 2 0 0 1 2-2z M5 11h14 M8 17v3 M16 17v3',
  mountain: 'M3 20l6-11 4 6 3-4 5 9z',
  'thumb-up': 'M7 10v10H4V10z M7 10l4-7a2 2 0 0 1 3 2l-1 5h6a2 2 0 0 1 2 2.3l-1.3 6A2 2 0 0 1 17.7 20H7',
  'thumb-down': 'M7 14V4H4v10z M7 14l4 7a2 2 0 0 0 3-2l-1-5h6a2 2 0 0 0 2-2.3l-1.3-6A2 2 0 0 0 17.7 4H7',
  play: 'M8 5v14l11-7z',
  pause: 'M8 5v14 M16 5v14',
} as const;

export type IconName = keyof typeof ICONS | keyof typeof STROKE_ICONS;

/** The drawing of one icon: what its symbol in the sprite holds, and what an inline icon holds. */
/** The address of an icon in the sprite, under the site's base path: what a `<use href>` names. */
export const iconHref = (name: IconName) => siteAddress(`/icons.svg#${name}`);

export function iconShape(name: IconName): string {
  return name in STROKE_ICONS
    ? `<path d="${STROKE_ICONS[name as keyof typeof STROKE_ICONS]}" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round"/>`
    : `<path d="${ICONS[name as keyof typeof ICONS]}"/>`;
}

export function sprite(): string {
  const names = [...Object.keys(ICONS), ...Object.keys(STROKE_ICONS)] as IconName[];
  return `<svg xmlns="http://www.w3.org/2000/svg">${names.map((name) => `<symbol id="${name}" viewBox="0 0 24 24">${iconShape(name)}</symbol>`).join('')}</svg>`;
}
