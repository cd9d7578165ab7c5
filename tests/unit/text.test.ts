/** src/lib/text.ts: truncation to a limit followed by '...' (docs/rules.md, Text truncation) and dates. */
import { describe, expect, it } from 'vitest';
import { LANGUAGES } from '../../src/i18n/languages.ts';
import { formatDate, isoDay, truncate } from '../../src/lib/text.ts';

const [, , ru, en] = LANGUAGES;

describe('truncate', () => {
  it('leaves text within the limit alone', () => {
    expect(truncate('Qisqa sarlavha', 50)).toBe('Qisqa sarlavha');
    expect(truncate('x'.repeat(50), 50)).toBe('x'.repeat(50));
  });
  it('cuts longer text to the limit and adds ...', () => {
    expect(truncate('x'.repeat(51), 50)).toBe(`${'x'.repeat(50)}...`);
    expect(truncate('a'.repeat(200), 120)).toHaveLength(123);
  });
  it('counts characters, not UTF-16 units, and trims the cut edge', () => {
    expect(truncate('Қоракўл тумани ҳокимлиги', 8)).toBe('Қоракўл...');
    expect(truncate('😀😀😀', 2)).toBe('😀😀...');
  });
});

describe('dates', () => {
  it('gives <time datetime> the Tashkent day that the text shows', () => {
    expect(isoDay('2026-11-19T21:30:00Z')).toBe('2026-11-20');
    expect(formatDate('2026-11-19T21:30:00Z', en!)).toBe('November 20, 2026');
    expect(isoDay('soon')).toBeUndefined();
  });
  it('formats dates in each language and reads a missing date as null', () => {
    expect(formatDate('2026-11-20T09:30:00+05:00', en!)).toBe('November 20, 2026');
    expect(formatDate('2026-11-20T09:30:00+05:00', ru!)).toMatch(/^20 ноября 2026/);
    expect(formatDate(null, ru!)).toBeNull();
  });
});
