/**
 * Cookie consent kept in local storage with its own expiry (150 days, then the bar shows again).
 * It is given by the bar's button or by scrolling 25 % of the page (docs/rules.md, Cookie consent).
 */
import { COOKIE_CONSENT_DAYS, COOKIE_CONSENT_SCROLL_PERCENT } from '../../constants.ts';
import { STORAGE_KEYS } from '../../lib/storage.ts';

const DAY_MS = 86_400_000;
type Store = Pick<Storage, 'getItem' | 'setItem'>;

export function hasConsent(store: Store, now: number): boolean {
  try {
    const until = Number(store.getItem(STORAGE_KEYS.cookieConsent));
    return Number.isFinite(until) && until > now;
  } catch {
    return false;
  }
}

export function giveConsent(store: Store, now: number): void {
  try {
    store.setItem(STORAGE_KEYS.cookieConsent, String(now + COOKIE_CONSENT_DAYS * DAY_MS));
  } catch {
    // Storage disabled: the bar simply shows again next time.
  }
}

/**
 * True once the visitor has scrolled COOKIE_CONSENT_SCROLL_PERCENT of what the page can scroll
 * (`scrollY` against `scrollHeight - viewportHeight`). A page too short to scroll never accepts by itself.
 */
export function scrolledEnough(scrollY: number, scrollHeight: number, viewportHeight: number): boolean {
  const scrollable = scrollHeight - viewportHeight;
  return scrollable > 0 && scrollY >= (scrollable * COOKIE_CONSENT_SCROLL_PERCENT) / 100;
}
