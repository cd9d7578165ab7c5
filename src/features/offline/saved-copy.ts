/**
 * What the service worker and the pages agree on about saved copies: the worker stamps
 * each page it keeps with the time it kept it, and marks a page it serves from its cache with that
 * time, so the page can say it is a saved copy and from when.
 */
import { localizePath, type Language } from '../../i18n/languages.ts';
import { formatDate } from '../../lib/text.ts';

/** On a page in the worker's cache: when this device saved it (ISO 8601). */
export const SAVED_AT_HEADER = 'x-saved-at';
/** On `<html>` of a page the worker served from its cache instead of the network: the saved time. */
export const SAVED_AT_ATTRIBUTE = 'data-saved-at';

/** The page a visitor gets, offline, for a page this device never saved. */
export const offlinePath = (lang: Language) => localizePath(lang, '/offline');

const times = new Map<string, Intl.DateTimeFormat>();

/**
 * "2026-yil 20-noyabr, 14:05": the day as the site writes dates, the time on the same clock
 * (Tashkent), so the two always agree. Null for a value that is not a time.
 */
export function formatSavedAt(iso: string, lang: Language): string | null {
  const day = formatDate(iso, lang);
  if (!day) return null;
  let time = times.get(lang.tag);
  if (!time) {
    time = new Intl.DateTimeFormat(lang.tag, { hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZone: 'Asia/Tashkent' });
    times.set(lang.tag, time);
  }
  return `${day}, ${time.format(new Date(iso))}`;
}
