import { describe, expect, it } from 'vitest';
import { LANGUAGES, type LangCode } from '../languages.ts';
import { ACCESSIBILITY_STATEMENT } from './accessibility-statement.ts';
import type { LongText, LongTexts } from './long-text.ts';
import { PRIVACY_NOTICE } from './privacy-notice.ts';

const TEXTS: Record<string, LongTexts> = { ACCESSIBILITY_STATEMENT, PRIVACY_NOTICE };
const CODES: LangCode[] = LANGUAGES.map((l) => l.code);
const ALLOWED_PLACEHOLDERS = ['address', 'email', 'helpline', 'siteName'];
/** The sample district's name in every script: the texts serve every district. */
const DISTRICT_NAMES = ['Qorako', 'Qorakul', 'Karakul', 'Каракул', 'Қоракўл', 'Қоракул'];

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
      expect(found.map((u) => placeholders(u.value)), code).toEqual(reference);
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
        for (const name of DISTRICT_NAMES) {
          expect(value.toLowerCase().includes(name.toLowerCase()), `${code} ${where}: ${name}`).toBe(false);
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
    const all = (code: LangCode) => units(texts[code]).map((u) => u.value).join(' ');
    expect(all('uz-cyrl')).toMatch(/[ўқғҳ]/);
  });

  it('writes British English', () => {
    for (const { where, value } of units(texts.en)) {
      expect(value, `en ${where}`).not.toMatch(/\bcolor|\bcenter|organiz|\bprogram\b|\bgray/i);
    }
  });
});
