/** Cookie consent kept in local storage with its own expiry (§9: 150 days). */
import { COOKIE_CONSENT_DAYS } from '../constants.ts';
import { STORAGE_KEYS } from './storage.ts';

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
