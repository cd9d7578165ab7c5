// Uzbek Latin → Uzbek Cyrillic, as a native writer would spell it.
// Used only by the sample API: its seed files hold Uzbek Latin, and the
// Uzbek Cyrillic content (language 2) is converted from them when it seeds.
// Russian loanwords are spelt as in Russian (концерт, аукцион, функция,
// октябрь), which letter-by-letter rules cannot know: see WHOLE_WORDS and STEMS.

/** Characters people type for the o'/g' sign and the tutuq belgisi. */
const APOSTROPHES = "'ʻʼ‘’`";

/**
 * Parts of the input that are copied byte for byte: HTML comments, whole
 * <script>/<style> elements, tags with their attributes, doctype-like
 * declarations and character references (&nbsp;, &#39;).
 */
const MARKUP =
  /<!--[\s\S]*?-->|<(script|style)\b(?:[^>"']|"[^"]*"|'[^']*')*>[\s\S]*?<\/\1\s*>|<\/?[A-Za-z](?:[^>"']|"[^"]*"|'[^']*')*>|<![A-Za-z][^>]*>|&(?:#\d+|#[xX][0-9A-Fa-f]+|[A-Za-z][A-Za-z0-9]*);/g;

/** URLs, e-mail addresses and bare domain names inside text. */
const LITERAL =
  /\b(?:https?:\/\/|ftp:\/\/|www\.)[^\s<>"']+|[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+|\b[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.(?:uz|ru|com|org|net|gov|edu|info|io)\b(?:\/[^\s<>"']*)?/g;

/**
 * A word: Latin letters joined by one or two apostrophes (Qorako'l,
 * mo''jiza), plus a final g' (tog') or a final tutuq belgisi after a, e, i,
 * u (mavqe', Jome'). Other leading or trailing apostrophes are quotation
 * marks and stay as they are.
 */
const WORD = new RegExp(`[A-Za-z]+(?:[${APOSTROPHES}]{1,2}[A-Za-z]+)*(?:(?<=[gGaAeEiIuU])[${APOSTROPHES}])?`, 'g');

const LETTERS: Readonly<Record<string, string>> = {
  a: 'а',
  b: 'б',
  c: 'ц',
  d: 'д',
  f: 'ф',
  g: 'г',
  h: 'ҳ',
  i: 'и',
  j: 'ж',
  k: 'к',
  l: 'л',
  m: 'м',
  n: 'н',
  o: 'о',
  p: 'п',
  q: 'қ',
  r: 'р',
  s: 'с',
  t: 'т',
  u: 'у',
  v: 'в',
  w: 'в',
  x: 'х',
  y: 'й',
  z: 'з',
};

const VOWELS = 'aeiou';

/** y + vowel written as one Cyrillic letter. */
const IOTATED: Readonly<Record<string, string>> = { o: 'ё', u: 'ю', a: 'я', e: 'е' };

/**
 * Whole words whose Cyrillic spelling keeps the Russian soft sign, which
 * the Latin alphabet does not write (with a suffix the sign is dropped:
 * октябрь, but октябргача, and STEMS spell those).
 */
const WHOLE_WORDS: Readonly<Record<string, string>> = {
  yanvar: 'январь',
  fevral: 'февраль',
  aprel: 'апрель',
  iyun: 'июнь',
  iyul: 'июль',
  sentabr: 'сентябрь',
  sentyabr: 'сентябрь',
  oktabr: 'октябрь',
  oktyabr: 'октябрь',
  noyabr: 'ноябрь',
  dekabr: 'декабрь',
  avtomobil: 'автомобиль',
  dizel: 'дизель',
  festival: 'фестиваль',
  medal: 'медаль',
  mebel: 'мебель',
  model: 'модель',
  spektakl: 'спектакль',
  sirk: 'цирк',
};

/**
 * Word beginnings that are commonly typed without their tutuq belgisi
 * (elon for e'lon) or that keep the ц or ь of a Russian loanword (korrupsiya,
 * kompyuter). Suffixes after them are
 * converted by the ordinary rules.
 */
const STEMS: ReadonlyArray<readonly [string, string]> = [
  ['elon', 'эълон'],
  ['malumot', 'маълумот'],
  ['maruza', 'маъруза'],
  ['mamuriy', 'маъмурий'],
  ['masul', 'масъул'],
  ['litsey', 'лицей'],
  ['litsenz', 'лиценз'],
  ['korrupsiya', 'коррупция'],
  ['stansiya', 'станция'],
  ['kompyuter', 'компьютер'],
  ['sotsial', 'социал'],
  // Russian loanwords: the months' я (the Latin writes sentabr, oktabr), ц written s, -кция/-пция written -ksiya/-psiya.
  ['sentabr', 'сентябр'],
  ['oktabr', 'октябр'],
  ['konsert', 'концерт'],
  ['konsern', 'концерн'],
  ['konsepsiya', 'концепция'],
  ['auksion', 'аукцион'],
  ['funksi', 'функци'],
  ['aksiya', 'акция'],
  ['seksiya', 'секция'],
  ['inspeksiya', 'инспекция'],
  ['kolleksiya', 'коллекция'],
  ['redaksiya', 'редакция'],
  ['konstruksiya', 'конструкция'],
  ['instruksiya', 'инструкция'],
  ['produksiya', 'продукция'],
  ['infeksiya', 'инфекция'],
  ['reaksiya', 'реакция'],
  ['fraksiya', 'фракция'],
  ['prinsip', 'принцип'],
  ['sement', 'цемент'],
  ['sentr', 'центр'],
  ['sentner', 'центнер'],
  ['sex', 'цех'],
  ['vaksina', 'вакцина'],
  ['feldsher', 'фельдшер'],
  ['film', 'фильм'],
];

function isApostrophe(ch: string | undefined): boolean {
  return ch !== undefined && ch !== '' && APOSTROPHES.includes(ch);
}

function isUpper(ch: string): boolean {
  return ch !== ch.toLowerCase();
}

/** Cyrillic `cyr` in the case of Latin `latin` (Shahar → Шаҳар, SHAHAR → ШАҲАР). */
function matchCase(cyr: string, latin: string): string {
  const letters = latin.replace(/[^A-Za-z]/g, '');
  if (letters.length > 1 && letters === letters.toUpperCase()) return cyr.toUpperCase();
  if (letters.length > 0 && isUpper(letters[0] ?? '')) {
    return cyr.charAt(0).toUpperCase() + cyr.slice(1);
  }
  return cyr;
}

/**
 * Converts one word. `prev` is the lower-case Latin letter before `word`
 * when it continues a word already begun (after a stem), '' at a word start.
 */
function convertLetters(word: string, prev: string): string {
  let out = '';
  let last = prev;
  let i = 0;
  while (i < word.length) {
    const ch = word[i] ?? '';
    const lc = ch.toLowerCase();
    const upper = isUpper(ch);
    const next = (word[i + 1] ?? '').toLowerCase();
    const afterNext = (word[i + 2] ?? '').toLowerCase();
    const put = (cyr: string): void => {
      out += upper ? cyr.toUpperCase() : cyr;
    };

    if (isApostrophe(ch)) {
      // Is'hoq: the apostrophe only keeps s and h apart.
      if (last === 's' && next === 'h') {
        i += 1;
        continue;
      }
      const prevCh = word[i - 1] ?? '';
      const nextCh = word[i + 1] ?? '';
      const loud = isUpper(prevCh) && (nextCh === '' || isUpper(nextCh) || isApostrophe(nextCh));
      out += loud ? 'Ъ' : 'ъ';
      last = "'";
      i += 1;
      continue;
    }

    if ((lc === 'o' || lc === 'g') && isApostrophe(word[i + 1])) {
      put(lc === 'o' ? 'ў' : 'ғ');
      last = lc;
      i += 2;
      continue;
    }

    if (lc === 's' && next === 'h') {
      put('ш');
      last = 'h';
      i += 2;
      continue;
    }
    if (lc === 'c' && next === 'h') {
      put('ч');
      last = 'h';
      i += 2;
      continue;
    }
    // akkreditatsiya, investitsiya, ratsion: ц before i + vowel.
    const fourth = (word[i + 3] ?? '').toLowerCase();
    if (lc === 't' && next === 's' && afterNext === 'i' && fourth !== '' && 'aouy'.includes(fourth)) {
      put('ц');
      last = 's';
      i += 2;
      continue;
    }

    if (lc === 'y') {
      // yo'l, yo'q: й + ў, not ё.
      const cyr = IOTATED[next];
      if (cyr !== undefined && !(next === 'o' && isApostrophe(word[i + 2]))) {
        put(cyr);
        last = next;
        i += 2;
        continue;
      }
    }

    if (lc === 'e') {
      put(last === '' || VOWELS.includes(last) ? 'э' : 'е');
      last = 'e';
      i += 1;
      continue;
    }

    const cyr = LETTERS[lc];
    if (cyr !== undefined) {
      put(cyr);
      last = lc;
    } else {
      out += ch;
      last = lc;
    }
    i += 1;
  }
  return out;
}

function convertWord(word: string): string {
  const lower = word.toLowerCase();
  const whole = WHOLE_WORDS[lower];
  if (whole !== undefined) return matchCase(whole, word);
  for (const [stem, cyr] of STEMS) {
    if (lower.startsWith(stem)) {
      const head = word.slice(0, stem.length);
      return matchCase(cyr, head) + convertLetters(word.slice(stem.length), stem.charAt(stem.length - 1));
    }
  }
  return convertLetters(word, '');
}

/** Applies `convert` to the stretches of `text` that `keep` does not match. */
function mapGaps(text: string, keep: RegExp, convert: (gap: string) => string): string {
  const re = new RegExp(keep.source, keep.flags);
  let out = '';
  let from = 0;
  for (let m = re.exec(text); m !== null; m = re.exec(text)) {
    out += convert(text.slice(from, m.index)) + m[0];
    from = m.index + m[0].length;
  }
  return out + convert(text.slice(from));
}

/** Codes glued to digits (IP65, A4, 5G) are not words and stay Latin. */
function convertPlain(text: string): string {
  return text.replace(WORD, (word: string, at: number) => (/\d/.test(text.charAt(at - 1)) || /\d/.test(text.charAt(at + word.length)) ? word : convertWord(word)));
}

/** Converts text with no markup, leaving URLs and e-mail addresses alone. */
function convertText(text: string): string {
  return mapGaps(text, LITERAL, convertPlain);
}

/**
 * Converts Uzbek Latin text or HTML to Uzbek Cyrillic. Only text between
 * tags changes; tags, attributes, entities, URLs, e-mail addresses and
 * digits are kept exactly.
 */
/** The Latin words and word beginnings the ordinary rules would spell wrong (the search's folding is tested on them). */
export const EXCEPTION_WORDS: readonly string[] = [...Object.keys(WHOLE_WORDS), ...STEMS.map(([latin]) => latin)];

export function latinToCyrillic(text: string): string {
  return mapGaps(text, MARKUP, convertText);
}
