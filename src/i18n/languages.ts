/**
 * The four interface languages (docs/rules.md, Languages). The number is what the API and local
 * storage speak; the prefix is where the language lives in the URL; the tag is
 * what `<html lang>` and hreflang say.
 */
import { siteAddress, withinSite } from '../lib/base-path.ts';
import { STORAGE_KEYS } from '../lib/storage.ts';

export const LANGUAGES = [
  { number: 1, code: 'uz-latn', prefix: '', tag: 'uz-Latn', label: 'Oʻzbekcha', short: 'Oʻz' },
  { number: 2, code: 'uz-cyrl', prefix: 'uz-cyrl', tag: 'uz-Cyrl', label: 'Ўзбекча', short: 'Ўз' },
  { number: 3, code: 'ru', prefix: 'ru', tag: 'ru', label: 'Русский', short: 'Ру' },
  { number: 4, code: 'en', prefix: 'en', tag: 'en', label: 'English', short: 'En' },
] as const;

export type Language = (typeof LANGUAGES)[number];
export type LangNumber = Language['number'];
export type LangCode = Language['code'];

export const DEFAULT_LANGUAGE: Language = LANGUAGES[0];

/** Local-storage key under which the chosen language number is kept (docs/rules.md, Languages). */
export const LANGUAGE_STORAGE_KEY = STORAGE_KEYS.language;

export function languageByNumber(n: number): Language | undefined {
  return LANGUAGES.find((l) => l.number === n);
}

/**
 * `/news/5` in `en` → `/en/news/5`, under the base path when the site has one (`/chust/en/news/5`,
 * src/lib/base-path.ts); the default language stays unprefixed.
 */
export function localizePath(lang: Language, path: string): string {
  const clean = path.startsWith('/') ? path : `/${path}`;
  if (!lang.prefix) return siteAddress(clean);
  return siteAddress(clean === '/' ? `/${lang.prefix}/` : `/${lang.prefix}${clean}`);
}

/** Splits `/ru/news/5` (or `/chust/ru/news/5` under a base path) into the language and the language-neutral path `/news/5`. */
export function splitLocalizedPath(address: string): { lang: Language; path: string } {
  const pathname = withinSite(address) ?? address;
  const [, first = '', ...rest] = pathname.split('/');
  const lang = LANGUAGES.find((l) => l.prefix && l.prefix === first);
  if (!lang) return { lang: DEFAULT_LANGUAGE, path: pathname || '/' };
  return { lang, path: `/${rest.join('/')}` };
}
