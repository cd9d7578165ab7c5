/**
 * The one way a UI string reaches a page: `t(lang, 'key', {vars})`. The
 * dictionaries are typed against the Uzbek Latin one, so a key missing in any
 * language fails the type check instead of showing a blank. A district's own
 * texts (its names, its address, its welcome: src/district/schema.ts) come from
 * its identity file, checked in every language when the build reads it, and are
 * read through `t()` like the rest.
 */
import { district } from '../district/district.ts';
import type { DistrictTextKey } from '../district/schema.ts';
import { en } from './dictionaries/en.ts';
import { ru } from './dictionaries/ru.ts';
import { uzCyrl } from './dictionaries/uz-cyrl.ts';
import { uzLatn } from './dictionaries/uz-latn.ts';
import { format } from './format.ts';
import { LANGUAGES, type LangCode, type Language } from './languages.ts';

/** The strings every district shares, in one language. */
export type ProductDictionary = { readonly [K in keyof typeof uzLatn]: string };
export type MessageKey = keyof typeof uzLatn | DistrictTextKey;
export type Dictionary = { readonly [K in MessageKey]: string };

const PRODUCT: Record<LangCode, ProductDictionary> = { 'uz-latn': uzLatn, 'uz-cyrl': uzCyrl, ru, en };

/** Every string of each language: the product's and this build's district's. */
export const DICTIONARIES: Record<LangCode, Dictionary> = Object.fromEntries(LANGUAGES.map((l) => [l.code, { ...PRODUCT[l.code], ...district().texts[l.code] }])) as Record<
  LangCode,
  Dictionary
>;

export function t(lang: Pick<Language, 'code'>, key: MessageKey, vars?: Record<string, string | number>): string {
  const text: string = DICTIONARIES[lang.code][key];
  return vars ? format(text, vars) : text;
}

/** The strings an island needs, picked on the server so the browser never loads a whole dictionary. */
export function pickMessages<K extends MessageKey>(lang: Pick<Language, 'code'>, keys: readonly K[]): Record<K, string> {
  return Object.fromEntries(keys.map((k) => [k, t(lang, k)])) as Record<K, string>;
}
