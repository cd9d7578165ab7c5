/**
 * The documents step of the pull: for the snapshot just pulled (while its file is written), brings the document store up to date
 * for every document its texts link to (store.ts) and writes the document map the pages read (map.ts).
 */
import type { StorePullOptions } from './pull-pictures.ts';
import { join } from 'node:path';
import { replaceFileSync } from '../../lib/replace-file.ts';
import { snapshotTextFiles } from '../../../src/content/text-files.ts';
import { documentType } from '../../../src/content/documents/links.ts';
import { DOCUMENT_MAP_FILE, documentSitePath, type DocumentMap } from '../../../src/content/documents/map.ts';
import { fetchDocuments, type DocumentFetchStats } from '../downloads/document-store.ts';

export interface DocumentPullStats extends DocumentFetchStats {
  /** Documents the texts link to. */
  documents: number;
  /** Those the site could not keep, with why and the items that link to each. */
  unavailable: { url: string; reason: string; items: string[] }[];
}

export async function pullDocuments(options: StorePullOptions): Promise<DocumentPullStats> {
  const { contentDir, snapshot, mediaBase, storeDir, revalidate, snapshotWritten, log = console.log } = options;
  const items = new Map<string, Set<string>>();
  for (const { item, files } of snapshotTextFiles(snapshot, mediaBase)) {
    for (const url of files.documents) items.set(url, (items.get(url) ?? new Set()).add(item));
  }
  const urls = [...items.keys()].sort();
  const askAgain = revalidate === 'all' ? () => true : (url: string) => [...items.get(url)!].some((item) => revalidate.has(item));
  const { documents, failed, stats } = await fetchDocuments({ dir: storeDir, urls, revalidate: askAgain, log });

  const map: DocumentMap = {};
  for (const url of urls) {
    const type = documentType(url)!;
    const stored = documents.get(url);
    map[url] = stored ? { type, path: documentSitePath(url), bytes: stored.bytes, sha: stored.sha } : { type, failed: failed.get(url) ?? 'not fetched' };
  }
  await snapshotWritten;
  replaceFileSync(join(contentDir, DOCUMENT_MAP_FILE), JSON.stringify(map));
  const unavailable = [...failed].map(([url, reason]) => ({ url, reason, items: [...items.get(url)!].sort() }));
  if (urls.length)
    log(
      `documents: ${documents.size} of ${urls.length} kept; ${stats.requests} requests, ${stats.downloaded} downloaded, ${stats.unchanged} unchanged, ${stats.failed} left on the media server`,
    );
  return { ...stats, documents: urls.length, unavailable };
}
