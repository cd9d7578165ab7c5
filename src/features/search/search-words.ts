/**
 * The words of a text as the site's own search index compares them: the same key for every spelling a
 * reader may type of one Uzbek word.
 *
 * - Uzbek Latin's apostrophe letters are one letter whatever the keyboard made of them: oʻ o' o‘ o’ o` oʼ
 *   (the same for gʻ, and for the tutuq belgisi ʼ).
 * - Uzbek Cyrillic and Uzbek Latin fold to one spelling, so "мактаб" finds "maktab" and the other way round
 *   on either Uzbek site: ў and oʻ are one letter, as are ғ and gʻ, ш and sh, ч and ch, ц and s ("konsert",
 *   "концерт"); е and word-initial "ye" are one, as Cyrillic writes both with е; ъ, ь and the tutuq belgisi
 *   are left out; the months Latin writes without я ("oktabr", "октябрь") are one.
 * - Every language's words go through the same folding, which also makes some Russian letters one (и and ы,
 *   е and э): a reader who types either finds both.
 *
 * The build folds the index with this module and the browser folds the query with it, so the two agree.
 */

/** Every character a keyboard or an editor uses for the Uzbek apostrophe letters. */
const APOSTROPHES = /[\u02BB\u02BC\u2018\u2019\u0060\u0027\u00B4\u02B9\u02BE\u02BF]/g;
const MARK = '\u02BC';

const CYRILLIC: Readonly<Record<string, string>> = {
  а: 'a',
  б: 'b',
  в: 'v',
  г: 'g',
  д: 'd',
  е: 'e',
  ё: 'yo',
  ж: 'j',
  з: 'z',
  и: 'i',
  й: 'y',
  к: 'k',
  л: 'l',
  м: 'm',
  н: 'n',
  о: 'o',
  п: 'p',
  р: 'r',
  с: 's',
  т: 't',
  у: 'u',
  ф: 'f',
  х: 'x',
  ц: 's',
  ч: 'ç',
  ш: 'ş',
  щ: 'şç',
  ъ: '',
  ы: 'i',
  ь: '',
  э: 'e',
  ю: 'yu',
  я: 'ya',
  ў: 'ö',
  қ: 'q',
  ғ: 'ğ',
  ҳ: 'h',
  і: 'i',
  ї: 'yi',
  є: 'ye',
};

/** A word as the index keeps it (lower case, one spelling for both Uzbek scripts). */
export function foldWord(word: string): string {
  return (
    word
      .normalize('NFC')
      .toLowerCase()
      .replace(APOSTROPHES, MARK)
      // Latin's letters of two characters first: "s'h" (Isʼhoq, Исҳоқ) stays two letters.
      .replace(/o\u02BC/g, 'ö')
      .replace(/g\u02BC/g, 'ğ')
      .replace(/sh/g, 'ş')
      .replace(/ch/g, 'ç')
      .replace(/[\u0400-\u04FF]/g, (c) => CYRILLIC[c] ?? c)
      .replaceAll(MARK, '')
      .replace(/ts/g, 's')
      .replace(/tyabr/g, 'tabr')
      .replace(/ye/g, 'e')
  );
}

/** A word: letters and digits, with the apostrophes Uzbek writes inside words. */
const WORD = /[\p{L}\p{N}\u02BB\u02BC\u2018\u2019\u0060\u0027\u00B4\u02B9\u02BE\u02BF]+/gu;

// A language's texts use some tens of thousands of distinct words: each is folded once per process.
const folded = new Map<string, string>();

/** The folded words of a text, in order, repeats kept. */
export function searchWords(text: string): string[] {
  const words: string[] = [];
  // `match` hands back the words alone: `matchAll`'s match objects took most of the index's time.
  for (const raw of text.normalize('NFC').match(WORD) ?? []) {
    let word = folded.get(raw);
    if (word === undefined) {
      // An apostrophe at a word's edge is a quotation mark, except the one of a final gʻ (togʻ).
      word = foldWord(raw.replace(APOSTROPHES, MARK).replace(/^\u02BC+|(?<![gG])\u02BC+$/g, ''));
      if (folded.size < 200_000) folded.set(raw, word);
    }
    if (word) words.push(word);
  }
  return words;
}
