import { ELLIPSIS } from '../constants.ts';
import type { Language } from '../i18n/languages.ts';

/** Cuts `text` to `max` characters and adds '...' (docs/rules.md, Text truncation); shorter text is left alone. Counts characters, not UTF-16 units. */
export function truncate(text: string, max: number): string {
  const chars = Array.from(text.trim());
  if (chars.length <= max) return chars.join('');
  return chars.slice(0, max).join('').trimEnd() + ELLIPSIS;
}

// Building an Intl formatter costs far more than using one, and a build formats
// dates on every one of its thousands of pages: one formatter per language.
const formatters = new Map<string, Intl.DateTimeFormat | Intl.NumberFormat>();
function memo<F extends Intl.DateTimeFormat | Intl.NumberFormat>(key: string, make: () => F): F {
  let f = formatters.get(key);
  if (!f) formatters.set(key, (f = make()));
  return f as F;
}

/**
 * Month names as Uzbek readers write them. ICU's Uzbek data gives "26-oktabr, 2026"
 * and "26 октябр, 2026"; the official forms are "2026-yil 26-oktabr" and
 * "2026-йил 26-октябрь": in both scripts an ordinal written in digits takes a hyphen, and the
 * Cyrillic months keep the soft sign of their Russian spelling.
 */
const UZ_MONTHS = {
  'uz-latn': ['yanvar', 'fevral', 'mart', 'aprel', 'may', 'iyun', 'iyul', 'avgust', 'sentabr', 'oktabr', 'noyabr', 'dekabr'],
  'uz-cyrl': ['январь', 'февраль', 'март', 'апрель', 'май', 'июнь', 'июль', 'август', 'сентябрь', 'октябрь', 'ноябрь', 'декабрь'],
} as const;

/** The calendar day in Tashkent: year, month (1–12) and day. */
function tashkentDay(date: Date): { year: number; month: number; day: number } {
  const [year, month, day] = memo('iso-day', () => new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Tashkent' }))
    .format(date)
    .split('-')
    .map(Number);
  return { year: year!, month: month!, day: day! };
}

/**
 * A date in the page's language, on the district's calendar: "2026-yil 20-noyabr",
 * "2026-йил 20-ноябрь", "20 ноября 2026 г.", "November 20, 2026"; null for a missing date.
 */
export function formatDate(iso: string | null, lang: Language): string | null {
  if (!iso) return null;
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return null;
  if (lang.code === 'uz-latn' || lang.code === 'uz-cyrl') {
    const { year, month, day } = tashkentDay(date);
    const name = UZ_MONTHS[lang.code][month - 1];
    return `${year}-${lang.code === 'uz-latn' ? 'yil' : 'йил'} ${day}-${name}`;
  }
  return memo(`date:${lang.tag}`, () => new Intl.DateTimeFormat(lang.tag, { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'Asia/Tashkent' })).format(date);
}

/** The ISO date (yyyy-mm-dd) for a `<time datetime>` attribute: the same day, in Tashkent, that the text shows. */
export function isoDay(iso: string | null): string | undefined {
  if (!iso) return undefined;
  const date = new Date(iso);
  // en-CA formats as yyyy-mm-dd.
  return Number.isNaN(date.getTime()) ? undefined : memo('iso-day', () => new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Tashkent' })).format(date);
}

export function formatCount(n: number | null, lang: Language): string | null {
  return n === null ? null : memo(`count:${lang.tag}`, () => new Intl.NumberFormat(lang.tag)).format(n);
}
