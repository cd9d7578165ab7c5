/**
 * Business constants of the specification, each with the section it comes
 * from. Change a number here, not in a component.
 */

/** §9 Text truncation: each cut text ends with '...'. */
export const TRUNCATE = {
  homeCardTitle: 50,
  homeCardBrief: 80,
  newsListTitle: 80,
  newsListBrief: 140,
  announcementTitle: 80,
  announcementBrief: 180,
  sideListTitle: 120,
} as const;
export const ELLIPSIS = '...';

/** §9 Home limits. */
export const HOME_LIMITS = { newsCards: 6, newsTitles: 4, announcements: 3, photoGroups: 6 } as const;

/** §2, §9 Sticky header: the scroll offset after which the bar sticks, by viewport width. */
export const STICKY = { breakpointPx: 991, narrowOffsetPx: 220, wideOffsetPx: 80 } as const;

/** §9 Cookie consent lasts 150 days (the product's own setting, not the library's 365). */
export const COOKIE_CONSENT_DAYS = 150;

/** §9 Toasts close after 2000 ms. */
export const TOAST_MS = 2000;

/** §5, §9 Appeal fields: at least 10 characters each. */
export const APPEAL_MIN_LENGTH = 10;

/** §9 Carousel images. */
export const CAROUSEL_SIZE = 3;

/** §9 Lightbox settings. */
export const LIGHTBOX = {
  slideshowDelayMs: 3000,
  minSlidesForThumbnails: 2,
  pageTurnThrottleMs: 250,
  dragCloseDistancePx: 150,
  dragCloseQuickDistancePx: 35,
  dragQuickMs: 350,
  doubleClickMs: 300,
} as const;

/** §9 Region facts shown on the province page. */
export const REGION_FACTS = { population: 870_200, populationRank: 4, areaKm2: 39_400, districtCount: 13 } as const;

/** Contact details shown in the footer and on /address (the spec omits their values; these are the district's). */
export const CONTACT = {
  helpline: '+998 65 592-10-01',
  helplineHref: 'tel:+998655921001',
  email: 'info@qorakul.uz',
  telegram: 'https://t.me/qorakul_hokimligi',
  facebook: 'https://www.facebook.com/qorakulhokimligi',
  youtube: 'https://www.youtube.com/@qorakulhokimligi',
} as const;

/** Keys in the browser's local storage: declared in src/lib/storage.ts, with the only code that touches it. */
export { STORAGE_KEYS } from './lib/storage.ts';
