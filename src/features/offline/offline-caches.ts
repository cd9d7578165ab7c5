import { DISTRICT_KEY } from '../../district/key.ts';

/**
 * Offline reading: the service worker's runtime caches, by name (the district's short name
 * first, so districts on one origin keep theirs apart), and how much each keeps
 * on a device. Past either bound the least recently saved entries go first; a browser short of
 * space may also empty them.
 */
export const OFFLINE_CACHES = {
  /** Pages this device opened: shown as saved copies when the network fails. */
  pages: { name: `${DISTRICT_KEY}-pages`, maxEntries: 50, maxAgeDays: 30 },
  /** Pictures of the site (same origin) this device loaded. */
  pictures: { name: `${DISTRICT_KEY}-pictures`, maxEntries: 150, maxAgeDays: 30 },
  /** Parts of the site's search index this device read (a few kilobytes each). */
  search: { name: `${DISTRICT_KEY}-search`, maxEntries: 200, maxAgeDays: 30 },
} as const;

/**
 * How long a page request waits for the network before the saved copy (if any) is shown instead
 *: a slow rural connection still gets a fresh page most of the time, a dead one is not
 * left looking at a blank screen.
 */
export const OFFLINE_NETWORK_TIMEOUT_S = 4;
