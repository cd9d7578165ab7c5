import { describe, it, expect } from 'vitest';
import { latinToCyrillic } from '../../scripts/sample-api/transliterate.ts';

describe('latinToCyrillic: words', () => {
  const words: ReadonlyArray<readonly [string, string]> = [
    ["Qorako'l", 'Қоракўл'],
    ['hokimligi', 'ҳокимлиги'],
    ['shahar', 'шаҳар'],
    ['choy', 'чой'],
    ['yangiliklar', 'янгиликлар'],
    ["ma'lumot", 'маълумот'],
    ["O'zbekiston", 'Ўзбекистон'],
    ["G'ijduvon", 'Ғиждувон'],
    ["e'lon", 'эълон'],
    ['elon', 'эълон'],
    ['Ekologiya', 'Экология'],
    ['Buxoro', 'Бухоро'],
    ['viloyati', 'вилояти'],
    ["san'at", 'санъат'],
    ['xalq', 'халқ'],
    ['yer', 'ер'],
    ['yoshlar', 'ёшлар'],
    ['yuqori', 'юқори'],
    ["yo'l", 'йўл'],
    ["tog'", 'тоғ'],
    ["mavqe'", 'мавқеъ'],
    ["sug'orish", 'суғориш'],
    ['poeziya', 'поэзия'],
    ['kelajak', 'келажак'],
    ["she'r", 'шеър'],
    ["Is'hoq", 'Исҳоқ'],
    ['akkreditatsiya', 'аккредитация'],
    ['litsenziya', 'лицензия'],
    ['oktyabr', 'октябрь'],
    ['ming', 'минг'],
  ];
  for (const [latin, cyrillic] of words) {
    it(`${latin} → ${cyrillic}`, () => {
      expect(latinToCyrillic(latin)).toBe(cyrillic);
    });
  }

  it('converts a sentence and keeps punctuation and digits', () => {
    expect(latinToCyrillic("Qorako'l tumani hokimligi, 2026-yil 15-aprel.")).toBe('Қоракўл тумани ҳокимлиги, 2026-йил 15-апрель.');
  });

  it('accepts every apostrophe variant', () => {
    for (const mark of ["'", 'ʻ', 'ʼ', '‘', '’', '`']) {
      expect(latinToCyrillic(`Qorako${mark}l`)).toBe('Қоракўл');
      expect(latinToCyrillic(`G${mark}ijduvon`)).toBe('Ғиждувон');
      expect(latinToCyrillic(`ma${mark}lumot`)).toBe('маълумот');
    }
  });

  it('leaves quotation marks around a word alone', () => {
    expect(latinToCyrillic("'Buxoro'")).toBe("'Бухоро'");
  });
});

describe('latinToCyrillic: case', () => {
  it("keeps the case of digraphs and o'/g'", () => {
    expect(latinToCyrillic('Shahar')).toBe('Шаҳар');
    expect(latinToCyrillic('SHAHAR')).toBe('ШАҲАР');
    expect(latinToCyrillic('Choy')).toBe('Чой');
    expect(latinToCyrillic("O'zbekiston")).toBe('Ўзбекистон');
    expect(latinToCyrillic("O'ZBEKISTON")).toBe('ЎЗБЕКИСТОН');
    expect(latinToCyrillic("QORAKO'L")).toBe('ҚОРАКЎЛ');
    expect(latinToCyrillic('Yangiliklar')).toBe('Янгиликлар');
    expect(latinToCyrillic("MA'LUMOT")).toBe('МАЪЛУМОТ');
    expect(latinToCyrillic('Elonlar')).toBe('Эълонлар');
  });
});

describe('latinToCyrillic: markup and literals', () => {
  it('converts text nodes and keeps tags byte for byte', () => {
    const html = '<p class="lead">Qorako\'l <a href="https://buxoro.uz/yangiliklar?id=5" title="Yangiliklar">yangiliklar</a></p>';
    expect(latinToCyrillic(html)).toBe('<p class="lead">Қоракўл <a href="https://buxoro.uz/yangiliklar?id=5" title="Yangiliklar">янгиликлар</a></p>');
  });

  it('keeps attributes with > and quotes inside them', () => {
    const html = `<img alt="a > b" src='shahar.png'>shahar`;
    expect(latinToCyrillic(html)).toBe(`<img alt="a > b" src='shahar.png'>шаҳар`);
  });

  it('keeps entities, comments and script bodies', () => {
    expect(latinToCyrillic('choy&nbsp;va&amp;shakar')).toBe('чой&nbsp;ва&amp;шакар');
    expect(latinToCyrillic('<!-- shahar -->choy')).toBe('<!-- shahar -->чой');
    expect(latinToCyrillic('<script>var shahar = 1;</script>choy')).toBe('<script>var shahar = 1;</script>чой');
  });

  it('keeps URLs in text', () => {
    expect(latinToCyrillic('Batafsil: https://my.gov.uz/oz/service/123 saytida')).toBe('Батафсил: https://my.gov.uz/oz/service/123 сайтида');
    expect(latinToCyrillic('www.qorakol.uz va my.gov.uz portali')).toBe('www.qorakol.uz ва my.gov.uz портали');
  });

  it('keeps e-mail addresses in text', () => {
    expect(latinToCyrillic('Manzil: info@qorakol.uz orqali')).toBe('Манзил: info@qorakol.uz орқали');
  });

  it('keeps codes glued to digits', () => {
    expect(latinToCyrillic("IP65 darajasi, A4 qog'oz")).toBe('IP65 даражаси, A4 қоғоз');
  });

  it('keeps digits and non-Latin text', () => {
    expect(latinToCyrillic('Tel: +998 65 123-45-67')).toBe('Тел: +998 65 123-45-67');
    expect(latinToCyrillic('Новости 2026')).toBe('Новости 2026');
  });
});

describe('latinToCyrillic: Russian loanwords (the exceptions list)', () => {
  const words: ReadonlyArray<readonly [string, string]> = [
    ['konsert', 'концерт'],
    ['konserti', 'концерти'],
    ['auksion', 'аукцион'],
    ['auksionga', 'аукционга'],
    ['sentabr', 'сентябрь'],
    ['oktabr', 'октябрь'],
    ['Oktabr', 'Октябрь'],
    ['oktabrgacha', 'октябргача'],
    ['funksiya', 'функция'],
    ['funksiyalari', 'функциялари'],
    ['aksiya', 'акция'],
    ['korrupsiyaga', 'коррупцияга'],
    ['investitsiya', 'инвестиция'],
    ['sexi', 'цехи'],
    ['sentner', 'центнер'],
    ['vaksina', 'вакцина'],
    ['avtomobil', 'автомобиль'],
    ['festival', 'фестиваль'],
    ['pensiya', 'пенсия'],
    ['sertifikat', 'сертификат'],
  ];
  for (const [latin, cyrillic] of words) {
    it(`${latin} → ${cyrillic}`, () => {
      expect(latinToCyrillic(latin)).toBe(cyrillic);
    });
  }
  it('in a sentence, with the official letters', () => {
    expect(latinToCyrillic('26-oktabr kuni Qorakoʻlda konsert va auksion boʻlib oʻtdi.')).toBe('26-октябрь куни Қоракўлда концерт ва аукцион бўлиб ўтди.');
  });
});
