import { describe, expect, it } from 'vitest';
import {
  buildSearchIndex,
  updateSearchIndex,
  DAYS_FILE,
  readDays,
  searchIndex,
  documentNumber,
  wordPart,
  wordPartFile,
  type DaysFile,
  type SearchDocument,
  type WordPart,
} from './search-index.ts';

const doc = (id: number, title: string, text: string, day: string | null = '2026-03-21', kind: SearchDocument['kind'] = 'post'): SearchDocument => ({
  kind,
  id,
  title,
  href: kind === 'post' ? `/news/${id}` : `/page/${id}`,
  type: kind === 'post' ? 'News' : 'Page',
  day,
  text,
});

const DOCS = [
  doc(1, 'Qorakoʻlda Navroʻz bayrami', 'Mahallalarda sayllar oʻtkazildi.'),
  doc(2, 'Yangi maktab qurildi', 'Tumanda 600 oʻrinli maktab foydalanishga topshirildi.', '2026-09-01'),
  doc(3, 'Suv taʼminoti', 'Maktablarda ichimlik suvi yaxshilandi.', '2026-10-05'),
  doc(7, 'Мактаб ва боғча', 'Қоракўл туманида янги боғча очилди.', '2026-11-20'),
  doc(4, 'Hokimlik haqida', 'Qorakoʻl tumani hokimligi tuzilmasi.', null, 'page'),
];

function reader(files: Map<string, string>, read: string[] = []) {
  return async (name: string) => {
    read.push(name);
    const body = files.get(name);
    if (body === undefined) throw new Error(`no ${name}`);
    return JSON.parse(body) as unknown;
  };
}

describe('the site’s own search index', () => {
  const files = buildSearchIndex(DOCS);
  const titles = async (query: string) => (await searchIndex(query, reader(files))).map((r) => r.title);

  it('finds a word at the start of longer words, in titles before texts, newer first', async () => {
    expect(await titles('maktab')).toEqual(['Мактаб ва боғча', 'Yangi maktab qurildi', 'Suv taʼminoti']);
  });

  it('finds every spelling of the apostrophe letters and either script', async () => {
    expect(await titles("Qorako'l")).toEqual(['Qorakoʻlda Navroʻz bayrami', 'Мактаб ва боғча', 'Hokimlik haqida']);
    expect(await titles('Qorako‘l')).toEqual(await titles('Қоракўл'));
    expect(await titles('мактаб')).toEqual(await titles('maktab'));
  });

  it('lists only what has every word of the query', async () => {
    expect(await titles('maktab qurildi')).toEqual(['Yangi maktab qurildi']);
    expect(await titles('maktab navroʻz')).toEqual([]);
    expect(await titles('x')).toEqual([]);
  });

  it('gives each result its address, type and day; a page has no day', async () => {
    const [page] = await searchIndex('tuzilmasi', reader(files));
    expect(page).toEqual({ n: documentNumber('page', 4), title: 'Hokimlik haqida', href: '/page/4', type: 'Page', day: null });
    const [post] = await searchIndex('ichimlik', reader(files));
    expect(post).toMatchObject({ href: '/news/3', type: 'News', day: '2026-10-05' });
  });

  it('reads only the parts a query needs', async () => {
    const read: string[] = [];
    await searchIndex('sayllar', reader(files, read));
    expect(read).toHaveLength(2);
    expect(read.filter((n) => n.startsWith('w'))).toHaveLength(1);
  });

  it('dates the API’s results by document number', () => {
    const days = readDays(JSON.parse(files.get(DAYS_FILE)!) as DaysFile);
    expect(days.get(documentNumber('post', 7))).toBe('2026-11-20');
    expect(days.has(documentNumber('page', 4))).toBe(false);
  });

  it('is the same bytes for the same documents in any order, and a new post changes only its own words’ parts', () => {
    expect([...buildSearchIndex([...DOCS].reverse())]).toEqual([...files]);
    const after = buildSearchIndex([...DOCS, doc(9, 'Sayllar', 'Mahallalarda sayllar.', '2026-11-25')]);
    const changed = [...after].filter(([name, body]) => files.get(name) !== body).map(([name]) => name);
    // The parts of "sayllar" and "mahallalarda", the document part of ids 0–63, and the days.
    expect(changed.length).toBeLessThanOrEqual(4);
    expect(changed).toContain(DAYS_FILE);
  });

  it('lists a document once under each of its words, as a title word when its title has it', async () => {
    const files = buildSearchIndex([doc(5, 'Sayllar, sayllar', 'Mahallalarda sayllar. Sayllar!'), doc(6, 'Bayram', 'Sayllar va mahallalarda bayram.')]);
    const part = JSON.parse(files.get(wordPartFile(wordPart('sayllar')))!) as WordPart;
    // Document 5 (number 10) in its title, 6 (12) in its text: 10 × 2 + 1, then 12 × 2 as a difference.
    expect(part.find(([word]) => word === 'sayllar')?.[1]).toEqual([21, 3]);
    expect((await searchIndex('sayllar', reader(files))).map((r) => r.title)).toEqual(['Sayllar, sayllar', 'Bayram']);
  });
});

describe('a longer word of the query', () => {
  it('finds the other forms of the word, the form asked for first', async () => {
    const files = buildSearchIndex([doc(1, 'Новая школа', 'Открыта школа.'), doc(2, 'Ремонт школы', 'В школах района.'), doc(3, 'Школьный двор', '')]);
    const found = await searchIndex('школа', async (name) => JSON.parse(files.get(name)!) as unknown);
    expect(found.map((r) => r.title)).toEqual(['Новая школа', 'Школьный двор', 'Ремонт школы']);
  });
});

describe('the search index kept from an earlier build and updated', () => {
  const sorted = (files: Map<string, string>) => [...files].sort(([a], [b]) => (a < b ? -1 : 1));
  /** The update of `before`'s index to `after`, as the build makes it: the documents gone or changed leave, the new and changed come. */
  const updated = (before: SearchDocument[], after: SearchDocument[]) => {
    const key = (d: SearchDocument) => documentNumber(d.kind, d.id);
    const was = new Map(before.map((d) => [key(d), JSON.stringify(d)]));
    const now = new Set(after.map(key));
    const removed = new Set([...was.keys()].filter((n) => !now.has(n) || after.some((d) => key(d) === n && JSON.stringify(d) !== was.get(n))));
    return updateSearchIndex(
      buildSearchIndex(before),
      removed,
      after.filter((d) => was.get(key(d)) !== JSON.stringify(d)),
    );
  };

  it('is the bytes of an index made anew: a post added, one retitled, one removed, a page added', () => {
    const after = [
      ...DOCS.filter((d) => d.id !== 3),
      { ...DOCS[1]!, title: 'Maktab ochildi' },
      doc(9, 'Sayllar', 'Mahallalarda sayllar.', '2026-11-25'),
      doc(10, 'Aloqa', 'Murojaat uchun.', null, 'page'),
    ].filter((d, i, all) => all.findLastIndex((o) => o.id === d.id && o.kind === d.kind) === i);
    const files = updated(DOCS, after);
    expect(sorted(files)).toEqual(sorted(buildSearchIndex(after)));
  });

  it('holds for ids from 2^29 on, and ranks them by id', async () => {
    const before = [doc(5, 'Beta', ''), doc(2 ** 29, 'Alpha beta', 'beta'), doc(2 ** 31 + 3, 'Gamma', 'delta')];
    const after = [before[0]!, { ...before[1]!, title: 'Beta gamma' }, doc(2 ** 31 + 1, 'Epsilon', ''), before[2]!];
    const files = updated(before, after);
    expect(sorted(files)).toEqual(sorted(buildSearchIndex(after)));
    expect((await searchIndex('gamma', reader(files))).map((r) => r.title)).toEqual(['Gamma', 'Beta gamma']);
  });

  it('is the bytes of an index made anew through many rounds of additions, edits and removals', () => {
    let seed = 7;
    const random = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % n);
    const words = ['maktab', 'bogʻcha', 'yoʻl', 'suv', 'hokim', 'sayl', 'школа', 'дорога', 'navroʻz', 'bayram', 'tuman', 'mahalla'];
    const text = (n: number) => Array.from({ length: n }, () => words[random(words.length)]).join(' ');
    let docs = Array.from({ length: 300 }, (_, i) => doc(i + 1, text(3), text(12), random(3) ? `2026-0${1 + random(9)}-1${random(9)}` : null, random(10) ? 'post' : 'page'));
    docs = docs.filter((d, i) => docs.findIndex((o) => o.id === d.id) === i);
    for (let round = 0; round < 12; round++) {
      const next = docs.filter(() => random(40) !== 0).map((d) => (random(30) ? d : { ...d, title: text(2), text: text(8) }));
      for (let k = random(4); k >= 0; k--) next.push(doc(400 + round * 10 + k, text(3), text(10), '2026-11-2' + random(9)));
      expect(sorted(updated(docs, next)), `round ${round}`).toEqual(sorted(buildSearchIndex(next)));
      docs = next;
    }
  });
});
