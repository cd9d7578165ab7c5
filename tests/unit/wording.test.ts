/**
 * The designer's wording review: each finding, asserted through the dictionaries and
 * the date formatter, so that the old words do not come back.
 */
import { describe, expect, it } from 'vitest';
import { en } from '../../src/i18n/dictionaries/en.ts';
import { LANGUAGES } from '../../src/i18n/languages.ts';
import { DICTIONARIES, t } from '../../src/i18n/t.ts';
import { formatDate } from '../../src/lib/text.ts';

const [UZ_LATN, UZ_CYRL, RU, EN] = LANGUAGES;

describe('survey votes read as a vote on a question', () => {
  it('За / Против, Roziman / Qarshiman, Розиман / Қаршиман, For / Against', () => {
    expect([t(RU, 'survey.like'), t(RU, 'survey.dislike')]).toEqual(['За', 'Против']);
    expect([t(UZ_LATN, 'survey.like'), t(UZ_LATN, 'survey.dislike')]).toEqual(['Roziman', 'Qarshiman']);
    expect([t(UZ_CYRL, 'survey.like'), t(UZ_CYRL, 'survey.dislike')]).toEqual(['Розиман', 'Қаршиман']);
    expect([t(EN, 'survey.like'), t(EN, 'survey.dislike')]).toEqual(['For', 'Against']);
  });
  it('never “like” a question, in any language', () => {
    for (const lang of LANGUAGES) {
      const pair = `${t(lang, 'survey.like')} ${t(lang, 'survey.dislike')}`;
      expect(pair, lang.code).not.toMatch(/нравится|\blike|yoqdi|yoqmadi|ёқди|ёқмади/i);
    }
  });
  it('one button’s word is not inside the other’s (the e2e tests find each button by its word)', () => {
    for (const lang of LANGUAGES) {
      const [like, dislike] = [t(lang, 'survey.like'), t(lang, 'survey.dislike')];
      expect(dislike.includes(like) || like.includes(dislike), lang.code).toBe(false);
    }
  });
});

describe('an “all” link says where it leads', () => {
  const ALL_KEYS = ['home.allNews', 'home.allAnnouncements', 'home.allVideos'] as const;
  it('Все новости, Barcha yangiliklar, Барча янгиликлар, All news', () => {
    expect(ALL_KEYS.map((k) => t(RU, k))).toEqual(['Все новости', 'Все объявления и тендеры', 'Все видео']);
    expect(ALL_KEYS.map((k) => t(UZ_LATN, k))).toEqual(['Barcha yangiliklar', 'Barcha eʼlonlar va tenderlar', 'Barcha videolar']);
    expect(ALL_KEYS.map((k) => t(UZ_CYRL, k))).toEqual(['Барча янгиликлар', 'Барча эълонлар ва тендерлар', 'Барча видеолар']);
    expect(ALL_KEYS.map((k) => t(EN, k))).toEqual(['All news', 'All announcements and tenders', 'All videos']);
  });
  it('no string of any language is the bare word “all”, and the generic key is gone', () => {
    const BARE = /^(?:все|всё|all|barchasi|hammasi|барчаси|ҳаммаси)$/i;
    for (const lang of LANGUAGES) {
      expect(
        Object.entries(DICTIONARIES[lang.code]).filter(([, v]) => BARE.test(v.trim())),
        lang.code,
      ).toEqual([]);
      expect(Object.keys(DICTIONARIES[lang.code]), lang.code).not.toContain('common.all');
    }
  });
  it('each link names the list it opens, as the list’s own title does', () => {
    for (const lang of LANGUAGES) {
      expect(t(lang, 'home.allNews').toLowerCase(), lang.code).toContain(t(lang, 'news.title').toLowerCase());
      expect(t(lang, 'home.allAnnouncements').toLowerCase(), lang.code).toContain(t(lang, 'announcements.title').toLowerCase());
    }
  });
});

describe('plain words for the map button and the top menu', () => {
  it('the map button says “Show the map”, without the name of the site it loads (the note beside it says that)', () => {
    expect(LANGUAGES.map((l) => t(l, 'map.show'))).toEqual(['Xaritani koʻrsatish', 'Харитани кўрсатиш', 'Показать карту', 'Show the map']);
    for (const lang of LANGUAGES) expect(t(lang, 'map.note'), lang.code).toContain('OpenStreetMap');
  });
  it('the cookie notice names the button as it reads', () => {
    for (const lang of LANGUAGES) expect(t(lang, 'cookie.services'), lang.code).toContain(t(lang, 'map.show'));
  });
  it('the top strip is a menu, not “top links”', () => {
    expect(LANGUAGES.map((l) => t(l, 'nav.top'))).toEqual(['Qoʻshimcha menyu', 'Қўшимча меню', 'Дополнительное меню', 'Quick links']);
    for (const lang of LANGUAGES) {
      expect(t(lang, 'nav.top'), lang.code).not.toMatch(/верхн|yuqori|юқори|\btop\b/i);
      expect(t(lang, 'nav.top'), lang.code).not.toBe(t(lang, 'nav.label'));
    }
  });
});

describe('English as a native speaker writes it', () => {
  it('one name for writing to the administration: the home page button, the page title, the links to it', () => {
    expect(t(EN, 'home.heroButton')).toBe('Write to the administration');
    expect(t(EN, 'appeal.title')).toBe('Write to the administration');
    expect(t(EN, 'form.toAppeal')).toBe('Write to the administration');
    expect(t(EN, 'faq.a1')).toContain(`"${t(EN, 'appeal.title')}"`);
    expect(t(EN, 'appeal.submit')).toBe('Send your message');
    expect(t(EN, 'appeal.sentTitle')).toBe('Your message has been sent');
  });
  it('no string of the product’s English says “appeal” (contesting a decision)', () => {
    expect(Object.entries(en).filter(([, v]) => /appeal/i.test(v))).toEqual([]);
  });
  it('“Mobile receptions”, not “Visiting receptions”', () => {
    expect(t(EN, 'visits.title')).toBe('Mobile receptions');
    expect(Object.values(en).filter((v) => /visiting reception/i.test(v))).toEqual([]);
  });
  it('an empty search names the query: “No results for "…"”', () => {
    for (const lang of LANGUAGES) expect(t(lang, 'search.nothing'), lang.code).toContain('{query}');
    expect(t(EN, 'search.nothing', { query: 'park' })).toBe('No results for "park"');
    expect(t(RU, 'search.nothing', { query: 'парк' })).toBe('По запросу «парк» ничего не найдено');
    expect(t(UZ_LATN, 'search.nothing', { query: 'bogʻ' })).toBe('“bogʻ” soʻrovi boʻyicha hech narsa topilmadi');
    expect(t(UZ_CYRL, 'search.nothing', { query: 'боғ' })).toBe('«боғ» сўрови бўйича ҳеч нарса топилмади');
    for (const lang of LANGUAGES) expect(t(lang, 'search.nothing'), lang.code).not.toMatch(/sorry|извините|kechirasiz|кечирасиз/i);
  });
});

describe('Uzbek: “raqamni yozib qoʻying”', () => {
  it('the number to keep after sending', () => {
    expect(t(UZ_LATN, 'appeal.sentKeep')).toMatch(/^Bu raqamni yozib qoʻying\./);
    expect(t(UZ_CYRL, 'appeal.sentKeep')).toMatch(/^Бу рақамни ёзиб қўйинг\./);
    expect(Object.values(DICTIONARIES['uz-latn']).filter((v) => /raqamini yozib/i.test(v))).toEqual([]);
    expect(Object.values(DICTIONARIES['uz-cyrl']).filter((v) => /рақамини ёзиб/i.test(v))).toEqual([]);
  });
  it('the new strings use Uzbek’s own letters: oʻ and gʻ with U+02BB, the tutuq belgisi U+02BC', () => {
    expect(t(UZ_LATN, 'nav.top')).toContain('o\u02BB');
    expect(t(UZ_LATN, 'home.allAnnouncements')).toContain('e\u02BC');
    expect(t(UZ_LATN, 'search.nothing')).toContain('so\u02BBrovi bo\u02BByicha');
  });
});

describe('Uzbek dates put a hyphen after a number in both scripts', () => {
  const day = '2026-10-26T09:30:00+05:00';
  it('Cyrillic “2026-йил 26-октябрь”, Latin “2026-yil 26-oktabr” as before', () => {
    expect(formatDate(day, UZ_CYRL)).toBe('2026-йил 26-октябрь');
    expect(formatDate(day, UZ_LATN)).toBe('2026-yil 26-oktabr');
  });
  it('every Cyrillic month, with the soft sign where it is written', () => {
    const months = Array.from({ length: 12 }, (_, i) => formatDate(`2026-${String(i + 1).padStart(2, '0')}-15T12:00:00+05:00`, UZ_CYRL));
    expect(months).toEqual(['январь', 'февраль', 'март', 'апрель', 'май', 'июнь', 'июль', 'август', 'сентябрь', 'октябрь', 'ноябрь', 'декабрь'].map((m) => `2026-йил 15-${m}`));
  });
  it('no Cyrillic string writes a year without the hyphen (“2026 йил”)', () => {
    expect(Object.entries(DICTIONARIES['uz-cyrl']).filter(([, v]) => /\d\s+йил/.test(v))).toEqual([]);
    expect(t(UZ_CYRL, 'docs.plan')).toContain('2026-йилги');
  });
});

describe('the FAQ sends a reader where the answer is', () => {
  it('reception hours: at the foot of every page and on the page the footer names "Address", in every language', () => {
    for (const lang of LANGUAGES) expect(t(lang, 'faq.a3'), lang.code).toContain(t(lang, 'info.address'));
  });
});
