/**
 * Business constants of the product, each with the rule it serves (docs/rules.md lists the rules).
 * Change a number here, not in a component. What differs from one district to the next is in its
 * folder (src/district/).
 */
/** How many characters of a brief a card shows: a longer one is cut and ends with '...' (docs/rules.md, Text truncation). */
export const TRUNCATE = {
  homeCardBrief: 80,
  newsListBrief: 140,
  announcementBrief: 180,
} as const;

/**
 * The product's title lengths (50 characters on a home card, 80 in a list, 120 in a side list), as lines: a
 * title is its link's name, and a title cut in the page would be read cut by a screen reader too. So
 * the page holds the whole title and the screen cuts it, with '…', after about as many lines as those
 * characters fill on a phone (`--lines`, src/styles/_clamp.scss).
 */
export const TITLE_LINES = { homeCard: 2, newsList: 3, announcement: 3, sideList: 4 } as const;
export type TitleLines = (typeof TITLE_LINES)[keyof typeof TITLE_LINES];
export const ELLIPSIS = '...';

/** Posts on a numbered page of the news and lectures (two cards a row); the list's first page shows half as many to one and a half times as many, less one (docs/rules.md, Post lists). */
export const LIST_PAGE_SIZE = 10;

/** How many items each list of the home page shows, at most (docs/rules.md, Home page). */
export const HOME_LIMITS = { newsCards: 6, newsTitles: 4, announcements: 3, photoGroups: 6 } as const;

/**
 * Sticky header: the bar sticks after 220 px of scrolling below 991 px of viewport width, after 80 px above. The width is
 * the CSS breakpoint $desktop (src/styles/_breakpoints.scss) in pixels, less one. On a screen at most 480 px tall
 * ($short: a phone held sideways, a page zoomed 400 %) it does not stick: it would cover a quarter of it.
 */
export const STICKY = { breakpointPx: 991, narrowOffsetPx: 220, wideOffsetPx: 80, shortScreenPx: 480 } as const;

/** Cookie consent lasts 150 days (the product's own setting, not the library's 365). */
export const COOKIE_CONSENT_DAYS = 150;
/** Scrolling this share of the page (per cent of the scrollable height) also accepts the cookie bar. */
export const COOKIE_CONSENT_SCROLL_PERCENT = 25;

/** Toasts (search and appeal) close after 2000 ms, not the library's 5000. */
export const TOAST_MS = 2000;

/** Appeal fields: at least 10 characters each (docs/rules.md, Appeal form). */
export const APPEAL_MIN_LENGTH = 10;
/** Where the appeal form lives (src/pages/[...lang]/murojaat_yuborish.astro, named as the menu names it). */
export const APPEAL_PATH = '/murojaat_yuborish';
/** The search results page (src/pages/[...lang]/search.astro): `?q=` is the query, so a search can be shared and bookmarked. */
export const SEARCH_PATH = '/search';
/**
 * How long the search page waits for the API before the site's own index answers instead: a citizen on a
 * failing line gets results within 3 s of Enter rather than an error after the API's full timeout.
 */
export const SEARCH_FALLBACK_MS = 3000;
/** The pages every official site keeps in its footer (src/components/SiteFooter.astro), written by the site. */
export const ACCESSIBILITY_PATH = '/accessibility';
export const PRIVACY_PATH = '/privacy';
export const SITE_MAP_PATH = '/site-map';

/**
 * The product's lightbox settings that GLightbox can honour (src/features/gallery/lightbox.ts). Its other lightbox numbers
 * (page turns throttled at 250 ms, a quick 35 px drag under 350 ms closes, 300 ms double click) are
 * another library's internals: GLightbox has no such settings, and they are not product rules.
 */
export const LIGHTBOX = {
  slideshowDelayMs: 3000,
  minSlidesForThumbnails: 2,
  /** GLightbox `dragToleranceY`: a vertical drag this long closes the lightbox. */
  dragCloseDistancePx: 150,
} as const;

/**
 * Contacts of the sample cards (travel agencies, hotels, staff tables): obviously not real, never the
 * administration's own. `.example` is reserved for examples (RFC 2606); +998 00 is no operator's code.
 */
export const SAMPLE_CONTACT = {
  phone: '+998 00 000-00-00',
  agencyEmail: 'agentlik@namuna.example',
  hotelEmail: 'mehmonxona@namuna.example',
  hotelSite: 'namuna.example',
  staffEmail: 'xodim@namuna.example',
} as const;

/**
 * How long the not-found page waits for the API to say whether an item newer than the build exists
 *: long enough for a slow rural connection, short enough that the not-found text is not
 * left in doubt; after it, the page stays the not-found page.
 */
export const JUST_PUBLISHED_TIMEOUT_MS = 8000;
