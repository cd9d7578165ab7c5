import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { en } from '../dictionaries/en.ts';
import { ru } from '../dictionaries/ru.ts';
import { uzCyrl } from '../dictionaries/uz-cyrl.ts';
import { uzLatn } from '../dictionaries/uz-latn.ts';
import { LANGUAGES, type LangCode } from '../languages.ts';
import { ACCESSIBILITY_STATEMENT } from './accessibility-statement.ts';
import type { LongText, LongTexts } from './long-text.ts';
import { PRIVACY_NOTICE } from './privacy-notice.ts';
import { searchWords } from '../../features/search/search-words.ts';

const TEXTS: Record<string, LongTexts> = { ACCESSIBILITY_STATEMENT, PRIVACY_NOTICE };
const CODES: LangCode[] = LANGUAGES.map((l) => l.code);
const ALLOWED_PLACEHOLDERS = ['address', 'email', 'helpline', 'siteName'];

/**
 * A text as its words, the way the site's search compares them (search-words.ts): koʻl, ko'l and кўл come out
 * alike, and so do a Russian word and its Latin spelling (район, rayon); a name is found however it is spelt.
 */
const fold = (text: string) => searchWords(text).join(' ');

/**
 * A folded word less its ending, so that a name is found however a sentence inflects it: a Russian adjective's
 * (-ского, -ский …: the district's name as site.name writes it), else one last vowel (tumani → tuman).
 */
const stem = (word: string) => word.replace(/(?<=.{3})sk(?:ogo|omu|om|oy|oe|iy|ie|ix|imi|im|aya|uyu)$/, '').replace(/(?<=.{4})[aeiouy]$/, '');

/** The stems of the words of the strings every district shares, in each language: none of them names a district. */
const SHARED_STEMS = Object.fromEntries(
  Object.entries({ 'uz-latn': uzLatn, 'uz-cyrl': uzCyrl, ru, en }).map(([code, strings]) => [
    code,
    new Set(Object.values(strings).flatMap((text) => fold(text).split(' ').map(stem))),
  ]),
) as Record<LangCode, Set<string>>;

/**
 * Every district's name, read from its folder: the words of its `site.name` in each language that the shared
 * strings do not use (so not tumani, hokimligi, района, District …), as stems. The texts serve every district,
 * so a name in them would be wrong on every other district's site.
 */
const DISTRICTS_DIR = fileURLToPath(new URL('../../../districts/', import.meta.url));
const DISTRICTS = readdirSync(DISTRICTS_DIR).filter((key) => existsSync(`${DISTRICTS_DIR}${key}/district.json`));
const DISTRICT_NAMES = DISTRICTS.flatMap((district) => {
  const { texts } = JSON.parse(readFileSync(`${DISTRICTS_DIR}${district}/district.json`, 'utf8')) as { texts: Record<LangCode, { 'site.name': string }> };
  return CODES.flatMap((code) =>
    texts[code]['site.name']
      .split(/\s+/)
      .map((word) => ({ district, code, word, stem: stem(fold(word)) }))
      .filter((name) => name.stem !== '' && !SHARED_STEMS[code].has(name.stem)),
  );
});

/** Every string of a text with where it sits, in reading order: title, lead, then each section. */
function units(text: LongText): { where: string; value: string }[] {
  return [
    { where: 'title', value: text.title },
    { where: 'lead', value: text.lead },
    ...text.sections.flatMap((s, i) => [
      { where: `section ${i + 1} heading`, value: s.heading },
      ...s.paragraphs.map((value, j) => ({ where: `section ${i + 1} paragraph ${j + 1}`, value })),
      ...(s.list ?? []).map((value, j) => ({ where: `section ${i + 1} list item ${j + 1}`, value })),
    ]),
  ];
}

function placeholders(value: string): string[] {
  return [...new Set([...value.matchAll(/\{(\w+)\}/g)].map((m) => m[1] ?? ''))].sort();
}

describe('the district names the long texts are checked for', () => {
  it('come from every district, in every language', () => {
    expect(DISTRICTS.length).toBeGreaterThan(0);
    for (const district of DISTRICTS) {
      for (const code of CODES)
        expect(
          DISTRICT_NAMES.some((n) => n.district === district && n.code === code),
          `${district} ${code}`,
        ).toBe(true);
    }
  });
});

describe.each(Object.entries(TEXTS))('%s', (_name, texts) => {
  it('is written in all four languages and no other', () => {
    expect(Object.keys(texts).sort()).toEqual([...CODES].sort());
  });

  it('has the same sections, paragraphs and list items in every language', () => {
    const shape = (t: LongText) => t.sections.map((s) => [s.paragraphs.length, s.list?.length ?? 0]);
    const expected = shape(texts['uz-latn']);
    expect(expected.length).toBeGreaterThan(0);
    for (const code of CODES) expect(shape(texts[code]), code).toEqual(expected);
  });

  it('uses the same placeholders in the same places in every language, and only the allowed ones', () => {
    const reference = units(texts['uz-latn']).map((u) => placeholders(u.value));
    for (const code of CODES) {
      const found = units(texts[code]);
      expect(
        found.map((u) => placeholders(u.value)),
        code,
      ).toEqual(reference);
      for (const { where, value } of found) {
        for (const name of placeholders(value)) expect(ALLOWED_PLACEHOLDERS, `${code} ${where}`).toContain(name);
        // A brace outside a whole placeholder is a typo ({siteName, siteName}).
        expect(value.replace(/\{\w+\}/g, ''), `${code} ${where}`).not.toMatch(/[{}]/);
      }
    }
    expect(new Set(reference.flat())).toEqual(new Set(ALLOWED_PLACEHOLDERS));
  });

  it('names no district', () => {
    for (const code of CODES) {
      for (const { where, value } of units(texts[code])) {
        // A name begins a word: with a suffix (-da, -ского) it names the district as much as bare.
        const words = ` ${fold(value)}`;
        for (const name of DISTRICT_NAMES) {
          expect(words.includes(` ${name.stem}`), `${code} ${where}: ${name.word} (${name.district}, ${name.code})`).toBe(false);
        }
      }
    }
  });

  it('is plain text: no HTML tags or character references, no empty or padded strings', () => {
    for (const code of CODES) {
      for (const { where, value } of units(texts[code])) {
        expect(value, `${code} ${where}`).not.toMatch(/<\/?[a-z!][^>]*>|&(?:#\d+|#x[0-9a-f]+|[a-z]+);/i);
        expect(value.trim(), `${code} ${where}`).toBe(value);
        expect(value, `${code} ${where}`).not.toBe('');
        expect(value, `${code} ${where}`).not.toMatch(/ {2}/);
      }
    }
  });

  it('writes Uzbek Latin with ʻ and ʼ, never an ASCII apostrophe, ‘, ’ or `', () => {
    for (const { where, value } of units(texts['uz-latn'])) {
      expect(value, where).not.toMatch(/['‘’`]/);
    }
  });

  it('writes Uzbek Cyrillic and Russian in their own letters', () => {
    for (const { where, value } of units(texts['uz-cyrl'])) expect(value, `uz-cyrl ${where}`).not.toMatch(/[ʻʼ'‘’`]/);
    for (const { where, value } of units(texts.ru)) expect(value, `ru ${where}`).not.toMatch(/[ўқғҳЎҚҒҲʻʼ]/);
    const all = (code: LangCode) =>
      units(texts[code])
        .map((u) => u.value)
        .join(' ');
    expect(all('uz-cyrl')).toMatch(/[ўқғҳ]/);
  });

  it('writes British English', () => {
    for (const { where, value } of units(texts.en)) {
      expect(value, `en ${where}`).not.toMatch(/\bcolor|\bcenter|organiz|\bprogram\b|\bgray/i);
    }
  });
});
