import { describe, expect, it } from 'vitest';
import { EXCEPTION_WORDS, latinToCyrillic } from '../../../scripts/sample-api/transliterate.ts';
import { foldWord, searchWords } from './search-words.ts';

describe('the search index folds the spellings of one word together', () => {
  it('reads every apostrophe a keyboard or an editor makes as one letter', () => {
    const spellings = ['Qorakoʻl', "Qorako'l", 'Qorako‘l', 'Qorako’l', 'Qorako`l', 'Qorakoʼl'];
    expect(new Set(spellings.map(foldWord)).size).toBe(1);
    expect(new Set(['maʼlumot', "ma'lumot", 'ma’lumot'].map(foldWord)).size).toBe(1);
    expect(new Set(['gʻalla', "g'alla", 'g‘alla'].map(foldWord)).size).toBe(1);
  });

  it('keeps oʻ apart from o, and gʻ from g', () => {
    expect(foldWord("o'n")).not.toBe(foldWord('on'));
    expect(foldWord("tog'")).not.toBe(foldWord('tog'));
  });

  it('gives a Latin word and its Cyrillic spelling one key', () => {
    const words = [
      "Qorako'l",
      'maktab',
      'hokimligi',
      'shahar',
      'choy',
      'yangiliklar',
      "ma'lumot",
      "O'zbekiston",
      "G'ijduvon",
      "e'lon",
      'Ekologiya',
      'Buxoro',
      'viloyati',
      "san'at",
      'xalq',
      'yer',
      'yoshlar',
      'yuqori',
      "yo'l",
      "tog'",
      "sug'orish",
      'poeziya',
      'kelajak',
      "she'r",
      'mahalla',
    ];
    for (const latin of words) expect(foldWord(latinToCyrillic(latin)), `${latin} / ${latinToCyrillic(latin)}`).toBe(foldWord(latin));
    expect(foldWord('мактаб')).toBe(foldWord('maktab'));
    expect(foldWord('Исҳоқов')).toBe(foldWord("Is'hoqov"));
    expect(foldWord('oktyabr')).toBe(foldWord('oktabr'));
    expect(foldWord('Қоракўл')).toBe(foldWord('Qorakoʻl'));
  });

  it('gives the words the ordinary rules spell differently one key too (loanwords, months, the tutuq belgisi)', () => {
    expect(EXCEPTION_WORDS.length).toBeGreaterThan(20);
    for (const latin of EXCEPTION_WORDS) expect(foldWord(latinToCyrillic(latin)), `${latin} / ${latinToCyrillic(latin)}`).toBe(foldWord(latin));
  });

  it('keeps the apostrophe of a final gʻ, and reads text in any Unicode normal form', () => {
    expect(searchWords("tog' va bog'")).toEqual(searchWords('тоғ ва боғ'));
    expect(searchWords('Ўзбекистон'.normalize('NFD'))).toEqual(searchWords('Ўзбекистон'));
  });

  it('takes the words of a text, with quotation marks and punctuation left out', () => {
    expect(searchWords("“Yashil makon” loyihasi: 86 ming tup, 'Istiqlol' bogʻida.")).toEqual(['yaşil', 'makon', 'loyihasi', '86', 'ming', 'tup', 'istiqlol', 'boğida']);
    expect(searchWords('Школы и больницы')).toEqual(['şkoli', 'i', 'bolnisi']);
  });
});
