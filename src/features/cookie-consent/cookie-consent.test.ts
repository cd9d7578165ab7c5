/** cookie-consent.ts: how long consent lasts and when scrolling gives it. */
import { describe, expect, it } from 'vitest';
import { giveConsent, hasConsent, scrolledEnough } from './cookie-consent.ts';

describe('cookie consent', () => {
  it('lasts 150 days', () => {
    const store = new Map<string, string>();
    const storage = { getItem: (k: string) => store.get(k) ?? null, setItem: (k: string, v: string) => void store.set(k, v) };
    const now = Date.UTC(2026, 0, 1);
    expect(hasConsent(storage, now)).toBe(false);
    giveConsent(storage, now);
    expect(hasConsent(storage, now + 149 * 86_400_000)).toBe(true);
    expect(hasConsent(storage, now + 151 * 86_400_000)).toBe(false);
  });
  it('is given by scrolling a quarter of what the page can scroll, and never by a page that cannot scroll', () => {
    // 3000 px page in a 1000 px window: 2000 px to scroll, a quarter is 500 px.
    expect(scrolledEnough(499, 3000, 1000)).toBe(false);
    expect(scrolledEnough(500, 3000, 1000)).toBe(true);
    expect(scrolledEnough(0, 800, 1000)).toBe(false);
  });
});
