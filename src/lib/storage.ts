/**
 * The browser's local storage, the only way this site touches it. A browser can block site
 * storage (privacy settings, some embedded browsers): then merely reading `window.localStorage`
 * throws a SecurityError. Every function here catches that, so the site works without storage and
 * only loses what it would have remembered.
 *
 * Every key the site stores is declared here, under one prefix of the district's (its short name,
 * src/district/key.ts), so two districts served on one origin keep apart what each device stores. The inline
 * pre-paint scripts cannot import modules; they take their keys from here at build time and keep
 * their own try/catch.
 */
import { DISTRICT_KEY } from '../district/key.ts';

export const STORAGE_PREFIX = `${DISTRICT_KEY}-hokimligi:`;
export const STORAGE_KEYS = {
  /** The chosen language's number (1–4). */
  language: `${STORAGE_PREFIX}lang`,
  /** Special opportunities: colour mode and text size. */
  a11y: `${STORAGE_PREFIX}a11y`,
  /** Votes cast on this device, by survey id. */
  surveyVotes: `${STORAGE_PREFIX}survey-votes`,
  /**
   * The unsent appeal (name, phone, e-mail, text) and when it was saved: in the tab's session storage, gone
   * when the tab is closed; in local storage, for at most 24 hours, only when the citizen asks for that.
   */
  appealDraft: `${STORAGE_PREFIX}appeal-draft`,
  /** Until when the cookie notice was accepted (150 days after, docs/rules.md, Cookie consent). */
  cookieConsent: `${STORAGE_PREFIX}cookie-consent`,
} as const;

export type StorageKey = (typeof STORAGE_KEYS)[keyof typeof STORAGE_KEYS];

/** Local storage, kept until removed; or the tab's session storage, gone when the tab is closed. */
type Kept = 'device' | 'tab';

function storage(kept: Kept): Storage | null {
  try {
    return (kept === 'device' ? globalThis.localStorage : globalThis.sessionStorage) ?? null;
  } catch {
    return null;
  }
}

export function readStored(key: StorageKey, kept: Kept = 'device'): string | null {
  try {
    return storage(kept)?.getItem(key) ?? null;
  } catch {
    return null;
  }
}

/** Whether the value was stored (false when storage is blocked or full). */
export function writeStored(key: StorageKey, value: string, kept: Kept = 'device'): boolean {
  try {
    const s = storage(kept);
    s?.setItem(key, value);
    return s !== null;
  } catch {
    return false;
  }
}

export function removeStored(key: StorageKey, kept: Kept = 'device'): void {
  try {
    storage(kept)?.removeItem(key);
  } catch {
    // Blocked: there is nothing stored to remove.
  }
}

const inStorageShape = (kept: Kept): Pick<Storage, 'getItem' | 'setItem' | 'removeItem'> => ({
  getItem: (key) => readStored(key as StorageKey, kept),
  setItem: (key, value) => void writeStored(key as StorageKey, value, kept),
  removeItem: (key) => removeStored(key as StorageKey, kept),
});

/** The same three operations in Storage's shape, for code written against a Storage (and tested with a fake one). */
export const siteStorage = inStorageShape('device');
/** The same, in the tab's session storage: what must not outlive the tab on a shared computer. */
export const tabStorage = inStorageShape('tab');
