/**
 * The search index as the last build made it, kept beside Astro's cache: each language's files and the source
 * of each of its documents (src/lib/search-documents.ts `searchSources`). A build makes again only the documents
 * whose source changed (src/features/search/search-index.ts `updateSearchIndex`): made whole, the index took 5 s
 * of a core on every rebuild at 10,000 posts per language, the more the larger the archive.
 *
 * What the index is made with besides its documents (./index-basis.ts) is the basis the kept index was made on: with another basis, a file that cannot be read, a document without a source
 * or more than a quarter of the documents changed (and more than `MOST_CHANGED`), the index is made whole.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { deserialize, serialize } from 'node:v8';
import { brotliCompressSync, brotliDecompressSync, constants } from 'node:zlib';
import { buildSearchIndex, updateSearchIndex } from '../../../src/features/search/search-index.ts';
import type { SearchSource } from '../../../src/lib/search-documents.ts';
import { replaceFileSync } from '../../lib/replace-file.ts';

export interface KeptLanguage {
  /** The source of each document, by its number. */
  sources: Map<number, string>;
  /** The index's files, by name. */
  files: Map<string, string>;
}

interface KeptIndex {
  basis: string;
  languages: Record<string, KeptLanguage>;
}

/** An update takes up to this many changed documents, and more only while they are under a quarter of the index. */
const MOST_CHANGED = 100;

/**
 * The file: this mark, the length of the index's bytes (32 bits, little-endian), then those bytes compressed.
 * Told its length, brotli writes the bytes in one piece: in pieces of 16 KB joined after, the 33 MB at 10,000 posts
 * per language took 290–380 ms to decompress in a fresh process, in one piece 160–210 (measured 2026-12-06).
 */
const KEPT_MARK = Buffer.from('kept-index 2\n');
const LENGTH_BYTES = 4;
/** A length past this is not believed: a damaged or foreign file must not make the build ask for gigabytes. */
const MOST_BYTES = 1 << 30;

/** The index kept in `file`, by language, when it was made on `basis`; else nothing. */
export function readKept(file: string, basis: string): Record<string, KeptLanguage> {
  try {
    const kept = deserialize(keptBytes(readFileSync(file))) as Partial<KeptIndex>;
    if (kept.basis !== basis || !kept.languages || typeof kept.languages !== 'object') return {};
    return Object.fromEntries(Object.entries(kept.languages).filter(([, l]) => l?.sources instanceof Map && l.files instanceof Map));
  } catch {
    return {};
  }
}

/** The index's bytes from a kept file's; throws when the file is not one, or does not hold the length it says. */
function keptBytes(file: Buffer): Buffer {
  const start = KEPT_MARK.length + LENGTH_BYTES;
  if (file.length < start || !file.subarray(0, KEPT_MARK.length).equals(KEPT_MARK)) throw new Error('not a kept index');
  const length = file.readUInt32LE(KEPT_MARK.length);
  if (length > MOST_BYTES) throw new Error('a kept index larger than believable');
  // One byte more than it says: a piece filled to the last byte makes Node ask for another of the same size, to see that nothing follows.
  const bytes = brotliDecompressSync(file.subarray(start), { chunkSize: Math.max(length + 1, constants.Z_MIN_CHUNK), maxOutputLength: Math.max(length, 1) });
  if (bytes.length !== length) throw new Error('a kept index shorter than it says');
  return bytes;
}

/**
 * Keeps the index made now for the next build; a language with a document without a source is left out. A
 * failure is only said: the next build makes the index whole.
 */
export function writeKept(file: string, basis: string, languages: Record<string, KeptLanguage | undefined>): void {
  const complete = Object.fromEntries(Object.entries(languages).filter((entry): entry is [string, KeptLanguage] => entry[1] !== undefined));
  try {
    mkdirSync(dirname(file), { recursive: true });
    // Its lists of numbers shrink twentyfold at brotli's quickest (33 MB to 1.7 MB at 10,000 posts per language, in 40 ms):
    // the whole file is written on every rebuild.
    const bytes = serialize({ basis, languages: complete } satisfies KeptIndex);
    const compressed = brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 1, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length } });
    const length = Buffer.alloc(LENGTH_BYTES);
    length.writeUInt32LE(bytes.length);
    replaceFileSync(file, Buffer.concat([KEPT_MARK, length, compressed]));
  } catch (error) {
    console.warn(`warning: the search index could not be kept for the next build (${file}): ${(error as Error).message}; it will be made whole`);
  }
}

/**
 * A language's index from its documents, updated from the kept one when there is one: the files, how many
 * documents were made (read and split into words) and how many left, and what to keep (undefined when a document
 * has no source). An update that fails (a kept file damaged past what its reading found) makes the index whole.
 */
export function languageIndex(documents: readonly SearchSource[], kept: KeptLanguage | undefined): { files: Map<string, string>; made: number; left: number; keep?: KeptLanguage } {
  const sources = new Map<number, string>();
  for (const { number, source } of documents) if (source !== undefined) sources.set(number, source);
  const complete = sources.size === documents.length;
  const whole = () => {
    const files = buildSearchIndex(documents.map((d) => d.document()));
    return { files, made: documents.length, left: 0, keep: complete ? { sources, files } : undefined };
  };
  if (!kept || !complete) return whole();
  const changed = documents.filter((d) => kept.sources.get(d.number) !== d.source);
  const removed = [...kept.sources.keys()].filter((n) => sources.get(n) !== kept.sources.get(n));
  if (changed.length + removed.length > Math.max(MOST_CHANGED, documents.length / 4)) return whole();
  try {
    const files = updateSearchIndex(
      kept.files,
      new Set(removed),
      changed.map((d) => d.document()),
    );
    return { files, made: changed.length, left: removed.length, keep: { sources, files } };
  } catch {
    return whole();
  }
}
