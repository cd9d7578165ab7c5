/**
 * The one way a UI string reaches a page: `t(lang, 'key', {vars})`. The
 * dictionaries are typed against the Uzbek Latin one, so a key missing in any
 * language fails the type check instead of showing a blank.
 */
import { en } from './dictionaries/en.ts';
import { ru } from './dictionaries/ru.ts';
import { uzCyrl } from './dictionaries/uz-cyrl.ts';
import { uzLatn } from './dictionaries/uz-latn.ts';
import { format } from './format.ts';
import type { LangCode, Language } from './languages.ts';

export type MessageKey = keyof typeof uzLatn;
export type Dictionary = { readonly [K in MessageKey]: string };

export const DICTIONARIES: Record<LangCode, Dictionary> = { 'uz-latn': uzLatn, 'uz-cyrl': uzCyrl, ru, en };

export function t(lang: Pick<Language, 'code'>, key: MessageKey, vars?: Record<string, string | number>): string {
  const text: string = DICTIONARIES[lang.code][key];
  return vars ? format(text, vars) : text;
}

/** The strings an island needs, picked on the server so the browser never loads a whole dictionary. */
export function pickMessages<K extends MessageKey>(lang: Pick<Language, 'code'>, keys: readonly K[]): Record<K, string> {
  return Object.fromEntries(keys.map((k) => [k, t(lang, k)])) as Record<K, string>;
}
