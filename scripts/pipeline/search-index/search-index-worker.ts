/**
 * The search index's thread (./search-index-step.ts): every language's index files, from the snapshot and the
 * index kept from the last build, written into the index's store.
 */
import { constants, setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import { contentFor } from '../../../src/content/store.ts';
import { LANGUAGES } from '../../../src/i18n/languages.ts';
import { searchSources } from '../../../src/lib/search-documents.ts';
import { languageIndex, readKept, writeKept } from './kept-index.ts';
import { storeIndexFiles } from './index-store.ts';

export interface BuiltIndex {
  /** Each language's index files in the store (`IndexThreadData.store`), by name, with their hashes. */
  languages: { lang: string; files: Map<string, string> }[];
  documents: number;
  /** The documents read and split into words, the others' words taken from the kept index. */
  made: number;
  /** The files written into the store: those that changed since the last build, or all. */
  written: number;
}

/**
 * The store the index's files are written into (./index-store.ts); where the index is kept between builds, and the
 * basis it is made on now (none: made whole each time).
 */
export interface IndexThreadData {
  store: string;
  kept?: { file: string; basis: string };
}

// The index is wanted only once the pages are rendered: on Linux, where each thread has a priority of its own,
// it takes a core only when Astro's bundling and render leave one idle (at 10,000 posts a language it took
// 1.2 s from Astro's part of a steady rebuild). Elsewhere the whole process would yield, so it does not.
if (process.platform === 'linux') setPriority(constants.priority.PRIORITY_LOW);

const { store, kept: keptAt } = workerData as IndexThreadData;
const kept = keptAt ? readKept(keptAt.file, keptAt.basis) : {};
const languages = LANGUAGES.map((lang) => {
  const documents = searchSources(lang, contentFor(lang));
  const index = languageIndex(documents, kept[lang.code]);
  return { lang: lang.code, documents: documents.length, ...index, stored: storeIndexFiles(store, lang.code, index.files, kept[lang.code]) };
});
if (keptAt && languages.some((l) => l.made || l.left)) writeKept(keptAt.file, keptAt.basis, Object.fromEntries(languages.map((l) => [l.lang, l.keep])));
parentPort!.postMessage({
  languages: languages.map(({ lang, stored }) => ({ lang, files: stored.hashes })),
  documents: languages.reduce((n, l) => n + l.documents, 0),
  made: languages.reduce((n, l) => n + l.made, 0),
  written: languages.reduce((n, l) => n + l.stored.written, 0),
} satisfies BuiltIndex);
