/**
 * The site's own search index, which answers when the API cannot (docs/search.md): written by the build as
 * small static files per language, read by the browser in parts, only the parts a query needs.
 *
 * - `w{n}.json`, the word parts: every folded word (./search-words.ts) with the documents it is in, split into
 *   WORD_PARTS files by its first two letters, so a query reads one part per word it has.
 * - `d{n}.json`, the document parts: title, address, type and day of DOC_PART documents each, read for the
 *   results a query shows.
 * - `days.json`: the day of every dated document, which dates the API's results (the API gives none).
 *
 * A document's number says what it is: `2 × id` for a post, `2 × id + 1` for a content page. In a word's list
 * it is doubled again, plus one when the word is in its title. Lists are sorted and sent as differences.
 * The files are a function of the content alone, so a rebuild writes the bytes a cold build writes, and a
 * new post changes the parts of its own words and one document part, never the whole index.
 */
import { searchWords } from './search-words.ts';

/** Raised whenever the files' shape changes: a browser never reads one shape with the other's code. */
export const INDEX_VERSION = 1;
export const WORD_PARTS = 128;
export const DOC_PART = 128;
/** Words of one letter find too much to be worth a part of their own. */
export const MIN_WORD = 2;
/** Query words this long are matched without their last letter. */
export const STEM_FROM = 5;
/**
 * The most results the index's answer lists: each needs its document part, one request on a slow line, and a
 * reader looks at the first few (the API lists up to 30).
 */
export const MAX_RESULTS = 10;

export type DocumentKind = 'post' | 'page';

export interface SearchDocument {
  kind: DocumentKind;
  id: number;
  title: string;
  /** The address as the site writes it (base path and language prefix included). */
  href: string;
  /** What the result is, in the index's language ("News", "Page"). */
  type: string;
  /** The calendar day (yyyy-mm-dd) it shows, if any. */
  day: string | null;
  /** Everything else a reader may search for: the brief and the text, without markup. */
  text: string;
}

/** What a document part holds of each document: title, address, type, day (or 0). */
export type DocumentEntry = [title: string, href: string, type: string, day: string | 0];
export type WordPart = [word: string, documents: number[]][];
export interface DaysFile {
  /** Document numbers, as differences. */
  n: number[];
  /** Their days, as days since 1970-01-01. */
  d: number[];
}

/** Where the index lives on the site, under the base path. */
export const INDEX_ROOT = '/search-index/';
/** The folder of a language's index ("/search-index/v1/ru/"). */
export const indexFolder = (langCode: string) => `${INDEX_ROOT}v${INDEX_VERSION}/${langCode}/`;

export const documentNumber = (kind: DocumentKind, id: number) => id * 2 + (kind === 'page' ? 1 : 0);

/** The word part that holds every word starting with `prefix` (its first two letters). */
export function wordPart(word: string): number {
  let hash = 2166136261;
  for (const c of word.slice(0, MIN_WORD)) hash = Math.imul(hash ^ c.codePointAt(0)!, 16777619);
  return (hash >>> 0) % WORD_PARTS;
}

export const documentPart = (n: number) => Math.floor(n / DOC_PART);
export const wordPartFile = (part: number) => `w${part}.json`;
export const documentPartFile = (part: number) => `d${part}.json`;
export const DAYS_FILE = 'days.json';

const deltas = (sorted: number[]) => sorted.map((n, i) => (i ? n - sorted[i - 1]! : n));
const undelta = (list: readonly number[]) => {
  let sum = 0;
  return list.map((d) => (sum += d));
};
const dayNumber = (day: string) => Math.round(Date.parse(`${day}T00:00:00Z`) / 86_400_000);
export const dayOfNumber = (n: number) => new Date(n * 86_400_000).toISOString().slice(0, 10);

/** A document in a word's list: its number, doubled, plus one when the word is in its title. */
const wordEntry = (n: number, inTitle: boolean) => n * 2 + (inTitle ? 1 : 0);
/** Half a number, rounded down: an entry's document, a document's id. Not `>> 1`, which wraps from 2^31 (ids from 2^29). */
const half = (n: number) => Math.floor(n / 2);
const documentEntry = (doc: SearchDocument): DocumentEntry => [doc.title, doc.href, doc.type, doc.day ?? 0];
const byNumber = (a: SearchDocument, b: SearchDocument) => documentNumber(a.kind, a.id) - documentNumber(b.kind, b.id);

/** Every file of one language's index, by name: the same documents give the same bytes. */
export function buildSearchIndex(documents: readonly SearchDocument[]): Map<string, string> {
  const sorted = [...documents].sort(byNumber);
  // Each word's documents, in the order of their numbers: a document is taken once per word, marked when the
  // word is in its title (its title is read first). No set per word or per document: at 10,000 posts a
  // language they took half of the index's 10 s.
  const words = new Map<string, { list: number[]; last: number }>();
  const docParts = new Map<number, Record<number, DocumentEntry>>();
  const days: [number, number][] = [];
  for (const doc of sorted) {
    const n = documentNumber(doc.kind, doc.id);
    const take = (word: string, inTitle: boolean) => {
      if (word.length < MIN_WORD) return;
      let entry = words.get(word);
      if (!entry) words.set(word, (entry = { list: [], last: -1 }));
      if (entry.last === n) return;
      entry.list.push(wordEntry(n, inTitle));
      entry.last = n;
    };
    for (const word of searchWords(doc.title)) take(word, true);
    for (const word of searchWords(doc.text)) take(word, false);
    const part = docParts.get(documentPart(n)) ?? {};
    part[n] = documentEntry(doc);
    docParts.set(documentPart(n), part);
    if (doc.day) days.push([n, dayNumber(doc.day)]);
  }
  const wordParts: WordPart[] = Array.from({ length: WORD_PARTS }, () => []);
  for (const word of [...words.keys()].sort()) wordParts[wordPart(word)]!.push([word, deltas(words.get(word)!.list)]);
  const files = new Map<string, string>();
  wordParts.forEach((part, i) => files.set(wordPartFile(i), JSON.stringify(part)));
  for (const [i, part] of [...docParts].sort(([a], [b]) => a - b)) files.set(documentPartFile(i), JSON.stringify(part));
  const daysFile: DaysFile = { n: deltas(days.map(([n]) => n)), d: days.map(([, d]) => d) };
  files.set(DAYS_FILE, JSON.stringify(daysFile));
  return files;
}

/**
 * The files of an index made from some documents (`previous`, as buildSearchIndex made them), after the documents
 * numbered in `removed` have left it and `added` have come (a changed document is in both): the bytes
 * buildSearchIndex makes of the documents now. Only the parts that change are made again; every word part is
 * read when a document leaves, to take it out of the lists of its words.
 */
export function updateSearchIndex(previous: ReadonlyMap<string, string>, removed: ReadonlySet<number>, added: readonly SearchDocument[]): Map<string, string> {
  const files = new Map(previous);
  const sorted = [...added].sort(byNumber);
  const leaving = new Set([...removed, ...sorted.map((doc) => documentNumber(doc.kind, doc.id))]);
  // The new entries of each word, by word part, in the order of the documents' numbers.
  const coming = new Map<number, Map<string, number[]>>();
  for (const doc of sorted) {
    const n = documentNumber(doc.kind, doc.id);
    const seen = new Set<string>();
    const take = (word: string, inTitle: boolean) => {
      if (word.length < MIN_WORD || seen.has(word)) return;
      seen.add(word);
      let part = coming.get(wordPart(word));
      if (!part) coming.set(wordPart(word), (part = new Map()));
      part.set(word, [...(part.get(word) ?? []), wordEntry(n, inTitle)]);
    };
    for (const word of searchWords(doc.title)) take(word, true);
    for (const word of searchWords(doc.text)) take(word, false);
  }
  for (let i = 0; i < WORD_PARTS; i++) {
    const additions = coming.get(i);
    // Unless a document leaves, a part without new words stays as it is.
    if (!additions && !removed.size) continue;
    const lists = new Map<string, number[]>();
    let changed = !!additions;
    for (const [word, list] of JSON.parse(previous.get(wordPartFile(i)) ?? '[]') as WordPart) {
      const entries = undelta(list);
      const kept = entries.filter((entry) => !leaving.has(half(entry)));
      if (kept.length !== entries.length) changed = true;
      if (kept.length) lists.set(word, kept);
    }
    if (!changed) continue;
    for (const [word, entries] of additions ?? [])
      lists.set(
        word,
        [...(lists.get(word) ?? []), ...entries].sort((a, b) => a - b),
      );
    files.set(wordPartFile(i), JSON.stringify([...lists.keys()].sort().map((word) => [word, deltas(lists.get(word)!)])));
  }
  for (const part of new Set([...leaving].map(documentPart))) {
    const entries = JSON.parse(previous.get(documentPartFile(part)) ?? '{}') as Record<number, DocumentEntry>;
    for (const n of leaving) if (documentPart(n) === part) delete entries[n];
    for (const doc of sorted) if (documentPart(documentNumber(doc.kind, doc.id)) === part) entries[documentNumber(doc.kind, doc.id)] = documentEntry(doc);
    // In the order of their numbers, as a whole build adds them: an object keeps numbers from 2^32 in the order they came.
    const inOrder = Object.entries(entries).sort(([a], [b]) => Number(a) - Number(b));
    if (inOrder.length) files.set(documentPartFile(part), JSON.stringify(Object.fromEntries(inOrder)));
    else files.delete(documentPartFile(part));
  }
  const before = JSON.parse(previous.get(DAYS_FILE) ?? '{"n":[],"d":[]}') as DaysFile;
  const days = undelta(before.n)
    .map((n, i): [number, number] => [n, before.d[i]!])
    .filter(([n]) => !leaving.has(n));
  for (const doc of sorted) if (doc.day) days.push([documentNumber(doc.kind, doc.id), dayNumber(doc.day)]);
  days.sort(([a], [b]) => a - b);
  files.set(DAYS_FILE, JSON.stringify({ n: deltas(days.map(([n]) => n)), d: days.map(([, d]) => d) } satisfies DaysFile));
  return files;
}

/** Reads one file of the index; throws when it cannot. */
export type ReadIndexFile = (name: string) => Promise<unknown>;

export interface IndexResult {
  n: number;
  title: string;
  href: string;
  type: string;
  day: string | null;
}

/**
 * The documents that have every word of the query (a word of the query matches the words it begins, so
 * "maktab" finds "maktablarda"; a word of STEM_FROM letters or more, without its last letter), best first: a word in the title counts more than one in the text, a whole
 * word more than a beginning, and among equals the newer document (the greater id) comes first.
 */
export async function searchIndex(query: string, read: ReadIndexFile): Promise<IndexResult[]> {
  const queryWords = [...new Set(searchWords(query))].filter((w) => w.length >= MIN_WORD);
  if (!queryWords.length) return [];
  const parts = new Map<number, Promise<WordPart>>();
  for (const word of queryWords) if (!parts.has(wordPart(word))) parts.set(wordPart(word), read(wordPartFile(wordPart(word))) as Promise<WordPart>);
  // Each word's matches, then only the documents every word matched, their scores added.
  const perWord: Map<number, number>[] = [];
  for (const word of queryWords) {
    const found = new Map<number, number>();
    // A longer word is matched without its last letter, which is where Russian and Uzbek change a word
    // ("школа" finds "школы", "maktabi" finds "maktablar"); the whole word still counts more.
    const stem = word.length >= STEM_FROM ? word.slice(0, -1) : word;
    for (const [indexWord, list] of await parts.get(wordPart(word))!) {
      if (!indexWord.startsWith(stem)) continue;
      const whole = indexWord === word ? 1 : 0;
      for (const entry of undelta(list)) {
        const n = half(entry);
        found.set(n, Math.max(found.get(n) ?? 0, (entry % 2 ? 4 : 1) + whole));
      }
    }
    perWord.push(found);
  }
  const [first, ...others] = perWord;
  const scores = [...first!].flatMap(([n, score]): [number, number][] =>
    others.every((found) => found.has(n)) ? [[n, others.reduce((sum, found) => sum + found.get(n)!, score)]] : [],
  );
  const best = scores.sort(([a, sa], [b, sb]) => sb - sa || half(b) - half(a) || b - a).slice(0, MAX_RESULTS);
  const docParts = new Map<number, Promise<Record<number, DocumentEntry>>>();
  for (const [n] of best) if (!docParts.has(documentPart(n))) docParts.set(documentPart(n), read(documentPartFile(documentPart(n))) as Promise<Record<number, DocumentEntry>>);
  const results: IndexResult[] = [];
  for (const [n] of best) {
    const entry = (await docParts.get(documentPart(n))!)[n];
    if (entry) results.push({ n, title: entry[0], href: entry[1], type: entry[2], day: entry[3] || null });
  }
  return results;
}

/** The day of each dated document, by its number. */
export function readDays(file: DaysFile): Map<number, string> {
  const numbers = undelta(file.n);
  return new Map(numbers.map((n, i) => [n, dayOfNumber(file.d[i]!)]));
}
