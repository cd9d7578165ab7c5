/** The site's own search index (src/features/search/search-index.ts), one folder per language, from the snapshot. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { contentFor } from '../../../src/content/store.ts';
import { buildSearchIndex, indexFolder } from '../../../src/features/search/search-index.ts';
import { LANGUAGES } from '../../../src/i18n/languages.ts';
import { searchDocuments } from '../../../src/lib/search-documents.ts';

export function writeSearchIndex(outDir: string): { files: number; documents: number } {
  let files = 0;
  let documents = 0;
  for (const lang of LANGUAGES) {
    const docs = searchDocuments(lang, contentFor(lang));
    const folder = join(outDir, indexFolder(lang.code));
    mkdirSync(folder, { recursive: true });
    const index = buildSearchIndex(docs);
    for (const [name, body] of index) writeFileSync(join(folder, name), body);
    files += index.size;
    documents += docs.length;
  }
  return { files, documents };
}
