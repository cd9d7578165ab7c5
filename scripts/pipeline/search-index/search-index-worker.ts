/** The search index's thread (./search-index-step.ts): every language's index files, from the snapshot. */
import { constants, setPriority } from 'node:os';
import { parentPort } from 'node:worker_threads';
import { contentFor } from '../../../src/content/store.ts';
import { buildSearchIndex } from '../../../src/features/search/search-index.ts';
import { LANGUAGES } from '../../../src/i18n/languages.ts';
import { searchDocuments } from '../../../src/lib/search-documents.ts';

export interface BuiltIndex {
  /** Each language's index files, by name. */
  languages: { lang: string; index: Map<string, string> }[];
  documents: number;
}

// The index is wanted only once the pages are rendered: on Linux, where each thread has a priority of its own,
// it takes a core only when Astro's bundling and render leave one idle (at 10,000 posts a language it took
// 1.2 s from Astro's part of a steady rebuild). Elsewhere the whole process would yield, so it does not.
if (process.platform === 'linux') setPriority(constants.priority.PRIORITY_LOW);

const languages = LANGUAGES.map((lang) => ({ lang: lang.code, docs: searchDocuments(lang, contentFor(lang)) }));
parentPort!.postMessage({
  languages: languages.map(({ lang, docs }) => ({ lang, index: buildSearchIndex(docs) })),
  documents: languages.reduce((n, l) => n + l.docs.length, 0),
} satisfies BuiltIndex);
