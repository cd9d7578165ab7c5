/**
 * The site's language rules ("Language and orthography"): Uzbek
 * Latin with its own letters, British English, one name for the district.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { LANGUAGES } from '../../src/i18n/languages.ts';
import { DICTIONARIES } from '../../src/i18n/t.ts';
import { formatDate } from '../../src/lib/text.ts';
import { latinToCyrillic } from '../../scripts/sample-api/transliterate.ts';

type Texts = { uz: string; ru: string; en: string };
const SEED_DIR = new URL('../../scripts/sample-api/seed/', import.meta.url);

/** Every `{uz, ru, en}` text of the sample API's seed files, with where it is. */
function seedTexts(): { where: string; texts: Texts }[] {
  const found: { where: string; texts: Texts }[] = [];
  const walk = (node: unknown, where: string): void => {
    if (Array.isArray(node)) return node.forEach((v, i) => walk(v, `${where}[${i}]`));
    if (node && typeof node === 'object') {
      const o = node as Record<string, unknown>;
      if (typeof o.uz === 'string' && typeof o.ru === 'string' && typeof o.en === 'string') {
        found.push({ where, texts: o as Texts });
        return;
      }
      for (const [k, v] of Object.entries(o)) walk(v, `${where}.${k}`);
    }
  };
  for (const file of readdirSync(SEED_DIR).filter((f) => f.endsWith('.json'))) {
    walk(JSON.parse(readFileSync(new URL(file, SEED_DIR), 'utf8')), file);
  }
  return found;
}

/** The text a reader sees: no tags, attributes, URLs or e-mail addresses. */
function visible(text: string): string {
  return text
    .replace(/<[^>]*>/g, ' ')
    .replace(/https?:\/\/\S+/g, ' ')
    .replace(/\S+@\S+/g, ' ');
}

/** An apostrophe-like character that is not one of Uzbek's own letters, inside a Latin word (Qorako'l, ma‘lumot). */
const WRONG_SIGN = /[A-Za-z]['‘’`][A-Za-z]/g;
/** oʻ and gʻ take U+02BB; the tutuq belgisi (U+02BC) never follows o or g (that would be oʻ, gʻ). */
const WRONG_LETTER = /[oOgG]ʼ(?=[A-Za-z])|(?<![oOgG])ʻ/g;

const seed = seedTexts();

describe('Uzbek Latin is written with oʻ, gʻ and ʼ', () => {
  it('in the dictionary', () => {
    const bad = Object.entries(DICTIONARIES['uz-latn']).flatMap(([key, value]) =>
      [...(visible(value).match(WRONG_SIGN) ?? []), ...(visible(value).match(WRONG_LETTER) ?? [])].map((m) => `${key}: …${m}…`),
    );
    expect(bad).toEqual([]);
  });
  it('in the sample API seed', () => {
    expect(seed.length).toBeGreaterThan(100);
    const bad = seed.flatMap(({ where, texts }) =>
      [...(visible(texts.uz).match(WRONG_SIGN) ?? []), ...(visible(texts.uz).match(WRONG_LETTER) ?? [])].map((m) => `${where}: …${m}…`),
    );
    expect(bad).toEqual([]);
  });
  it('in the language selector', () => {
    expect(LANGUAGES[0].label).toBe('Oʻzbekcha');
    expect(LANGUAGES[0].short).toBe('Oʻz');
  });
  it('the test itself catches the ASCII apostrophe and the turned comma', () => {
    expect("Qorako'l".match(WRONG_SIGN)).not.toBeNull();
    expect('Qorako‘l'.match(WRONG_SIGN)).not.toBeNull();
    expect('Qorakoʼl'.match(WRONG_LETTER)).not.toBeNull();
    expect('Qorakoʻl maʼlumot'.match(WRONG_SIGN) ?? 'Qorakoʻl maʼlumot'.match(WRONG_LETTER)).toBeNull();
  });
});

describe('dates as native readers write them', () => {
  const [uzLatn, uzCyrl, ru, en] = LANGUAGES;
  const day = '2026-10-26T09:30:00+05:00';
  it('Uzbek Latin: "2026-yil 26-oktabr"', () => {
    expect(formatDate(day, uzLatn)).toBe('2026-yil 26-oktabr');
    expect(formatDate('2026-09-01T10:00:00+05:00', uzLatn)).toBe('2026-yil 1-sentabr');
  });
  it('Uzbek Cyrillic: "2026-йил 26-октябрь", hyphens as in Latin', () => {
    expect(formatDate(day, uzCyrl)).toBe('2026-йил 26-октябрь');
    expect(formatDate('2026-05-09T10:00:00+05:00', uzCyrl)).toBe('2026-йил 9-май');
  });
  it('Russian and English as before', () => {
    expect(formatDate(day, ru)).toMatch(/^26 октября 2026/);
    expect(formatDate(day, en)).toBe('October 26, 2026');
  });
  it('on the district’s calendar: late evening UTC is the next day in Tashkent', () => {
    expect(formatDate('2026-12-31T20:00:00Z', uzLatn)).toBe('2027-yil 1-yanvar');
    expect(formatDate('2026-12-31T20:00:00Z', uzCyrl)).toBe('2027-йил 1-январь');
  });
});

/** American spellings that British English writes otherwise (colour, centre, organisation, programme, travelled…). */
const US_SPELLINGS: readonly RegExp[] = [
  /\bcolor/i,
  /\bcenter/i,
  /\btheater/i,
  /\b(?:kilo|centi|milli)meters?\b/i,
  /\b(?:square|cubic|\d+)\s?meters?\b/i,
  /\bliters?\b/i,
  /organiz/i,
  /\bprograms?\b/i,
  /\bhonor/i,
  /\bfavor/i,
  /\blabor\b/i,
  /behavior/i,
  /neighbor/i,
  /\bcatalog\b/i,
  /\bdefense\b/i,
  /\bgray/i,
  /analyz/i,
  /recogniz/i,
  /realiz/i,
  /apologiz/i,
  /\btravel(?:ed|ing|er)s?\b/i,
  /\bfulfill\b/i,
  /moderniz/i,
  /specializ/i,
  /prioritiz/i,
  /utiliz/i,
  /emphasiz/i,
  /minimiz/i,
  /maximiz/i,
  /authoriz/i,
  /civiliz/i,
  /standardiz/i,
  /mobiliz/i,
  /digitaliz/i,
  /optimiz/i,
  /jewelry/i,
  /enrollment/i,
  /\bcanceled/i,
  /\blabeled/i,
  /\bdialog\b/i,
  /\bfiber/i,
  /\boffense/i,
  /\bpracticing\b/i,
  /\bmold\b/i,
  /\bplow/i,
];
const usSpellings = (text: string) => US_SPELLINGS.flatMap((re) => visible(text).match(re) ?? []);

describe('English is British English', () => {
  it('in the dictionary', () => {
    const bad = Object.entries(DICTIONARIES.en).flatMap(([key, value]) => usSpellings(value).map((m) => `${key}: ${m}`));
    expect(bad).toEqual([]);
  });
  it('in the sample API seed', () => {
    const bad = seed.flatMap(({ where, texts }) => usSpellings(texts.en).map((m) => `${where}: ${m}`));
    expect(bad).toEqual([]);
  });
  it('the list catches the common American forms', () => {
    expect(usSpellings('The Color Center organized a program')).toHaveLength(4);
    expect(usSpellings('The colour centre organised a programme; a water meter')).toEqual([]);
  });
});

describe('the district has one English name: Qorakul', () => {
  // The karakul sheep (and its pelts) is a common noun; "Karakul" with a capital is the district's other name.
  const OTHER = /[Qq]orako[ʻʼ'‘’`]?l|Karakul(?! Breeding| sheep)/;
  it('in the dictionary', () => {
    const bad = Object.entries(DICTIONARIES.en).filter(([, value]) => OTHER.test(value));
    expect(bad).toEqual([]);
    expect(DICTIONARIES.en['site.name']).toBe('Qorakul District Administration');
  });
  it('in the sample API seed', () => {
    const bad = seed.filter(({ texts }) => OTHER.test(visible(texts.en)));
    expect(bad.map((b) => `${b.where}: ${b.texts.en.slice(0, 80)}`)).toEqual([]);
  });
});

describe('menu slug redirect pages', () => {
  it('never share a path with an information page (both routes are one segment under the language)', async () => {
    const { MOVED_SLUGS, slugRedirects } = await import('../../src/routes.ts');
    const { INFO_PAGES } = await import('../../src/lib/info-pages.ts');
    const info = new Set(INFO_PAGES.map((p) => p.path));
    expect(MOVED_SLUGS.filter(([slug]) => info.has(slug))).toEqual([]);
    expect(MOVED_SLUGS.every(([slug]) => /^\/[^/]+$/.test(slug))).toBe(true);
    expect(Object.keys(slugRedirects())).toHaveLength(MOVED_SLUGS.length * LANGUAGES.length);
  });
  it('say where the page went in every language', () => {
    for (const lang of LANGUAGES) expect(DICTIONARIES[lang.code]['redirect.text']).toContain('{link}');
  });
});

describe('Uzbek spells “budget” one way: byudjet, бюджет', () => {
  // “budjet” (Cyrillic “буджет”, as the sample API transliterates it) stood beside the official “byudjet”.
  const LATIN = /[Bb]udjet/;
  const CYRILLIC = /[Бб]уджет/;
  it('in the dictionaries', () => {
    expect(Object.entries(DICTIONARIES['uz-latn']).filter(([, value]) => LATIN.test(value))).toEqual([]);
    expect(Object.entries(DICTIONARIES['uz-cyrl']).filter(([, value]) => CYRILLIC.test(value))).toEqual([]);
    expect(DICTIONARIES['uz-latn']['link.openBudget']).toContain('Ochiq byudjet');
    expect(DICTIONARIES['uz-cyrl']['link.openBudget']).toContain('Очиқ бюджет');
  });
  it('in the sample API seed, in both scripts', () => {
    const bad = seed.filter(({ texts }) => LATIN.test(visible(texts.uz)) || CYRILLIC.test(latinToCyrillic(visible(texts.uz))));
    expect(bad.map((b) => b.where)).toEqual([]);
  });
});

describe('a menu item and the page it opens have one name', () => {
  type MenuItem = { title: Texts; page: string };
  const menu = JSON.parse(readFileSync(new URL('menu.json', SEED_DIR), 'utf8')) as { items: MenuItem[] }[];
  const titleOf = (page: string) => menu.flatMap((g) => g.items).find((i) => i.page === page)!.title;
  for (const [page, key] of [
    ['/rasmiy_maruzalar', 'lectures.title'],
    ['/sayyorlik_sayohati', 'info.touristTrips'],
    ['/ochiq_byutjet_malumotlari', 'info.openBudget'],
  ] as const) {
    it(`${page}: the menu says what the page's title says, in every language`, () => {
      const title = titleOf(page);
      expect({ 'uz-latn': title.uz, 'uz-cyrl': latinToCyrillic(title.uz), ru: title.ru, en: title.en }).toEqual(
        Object.fromEntries(LANGUAGES.map((l) => [l.code, DICTIONARIES[l.code][key]])),
      );
    });
  }
  it('the tours page is not called “tourist trips of tourism” (Sayyohlik sayohatlari)', () => {
    const TAUTOLOGY = /sayyohlik sayohat|саёҳлик саёҳат/i;
    expect(seed.filter(({ texts }) => TAUTOLOGY.test(texts.uz)).map((b) => b.where)).toEqual([]);
    for (const lang of LANGUAGES) expect(Object.values(DICTIONARIES[lang.code]).filter((v) => TAUTOLOGY.test(v))).toEqual([]);
    expect(titleOf('/sayyorlik_sayohati').uz).toBe('Turistik sayohatlar');
  });
});

describe('citizens read plain words, not the site’s workings', () => {
  it('the stand-in robot check says this is a test copy of the site, in every language, without “API” or “captcha”', () => {
    for (const lang of LANGUAGES) {
      const label = DICTIONARIES[lang.code]['appeal.demoCaptcha'];
      expect(label, lang.code).not.toMatch(/\bAPI|captcha|капч/i);
    }
    expect(DICTIONARIES['uz-latn']['appeal.demoCaptcha']).toContain('sinov nusxasi');
    expect(DICTIONARIES.ru['appeal.demoCaptcha']).toContain('тестовая копия сайта');
  });
  it('the home page’s map heading reads as Uzbek writes it: “Tuman xaritasi”, “Туман харитаси”', () => {
    expect(DICTIONARIES['uz-latn']['home.map']).toBe('Tuman xaritasi');
    expect(DICTIONARIES['uz-cyrl']['home.map']).toBe('Туман харитаси');
  });
});
