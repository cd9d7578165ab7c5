/**
 * The document store: every document an editor linked to on the media server (decisions, forms,
 * tables), downloaded once and kept by its URL with the hash of its bytes, like the picture store
 * (./picture-store.ts): asked for again only when `revalidate` says so (the nightly run, or an item a
 * webhook named), conditionally where the server gave a validator. A document that cannot be fetched
 * is reported, unless an earlier copy is kept and the server did not say it is gone. The store is
 * bounded: a document over MAX_DOCUMENT_BYTES, or one that would take the store over STORE_LIMIT_BYTES,
 * is not kept, and its link stays on the media server.
 *
 * Layout of `dir`: index.json (URL → hash, size, validators), originals/<sha256>.
 */
import { hash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { mapLimit } from '../../lib/limit.ts';
import { DownloadError, downloadWithRetries, type Validators } from './download.ts';
import { replaceFileSync } from '../../lib/replace-file.ts';

export interface StoredDocument extends Validators {
  /** sha256 of the bytes, hex: the name of its file in originals/. */
  sha: string;
  bytes: number;
}

export interface DocumentFetchStats {
  requests: number;
  downloaded: number;
  unchanged: number;
  replaced: number;
  failed: number;
}

export const MAX_DOCUMENT_BYTES = 50 * 1024 * 1024;
export const STORE_LIMIT_BYTES = 2 * 1024 * 1024 * 1024;
const INDEX_FILE = 'index.json';

export const documentOriginal = (dir: string, sha: string) => join(dir, 'originals', sha);

function readIndex(dir: string): Record<string, StoredDocument> {
  try {
    return JSON.parse(readFileSync(join(dir, INDEX_FILE), 'utf8')) as Record<string, StoredDocument>;
  } catch {
    return {};
  }
}

/**
 * Brings the store up to date for `urls`; returns what it holds of each it could get, why each other
 * failed, and the counts. A full run (every URL revalidated) forgets the documents no text links to any more.
 */
export async function fetchDocuments(options: {
  dir: string;
  urls: readonly string[];
  revalidate: (url: string) => boolean;
  limitBytes?: number;
  log?: (line: string) => void;
}): Promise<{ documents: Map<string, StoredDocument>; failed: Map<string, string>; stats: DocumentFetchStats }> {
  const { dir, urls, revalidate, limitBytes = STORE_LIMIT_BYTES, log = console.log } = options;
  mkdirSync(join(dir, 'originals'), { recursive: true });
  const index = readIndex(dir);
  const stats: DocumentFetchStats = { requests: 0, downloaded: 0, unchanged: 0, replaced: 0, failed: 0 };
  const documents = new Map<string, StoredDocument>();
  const failed = new Map<string, string>();
  const full = urls.every((u) => revalidate(u));
  // What the store holds on disk: each original once, whichever URLs name it.
  const onDisk = new Map(
    Object.values(index)
      .filter((d) => existsSync(documentOriginal(dir, d.sha)))
      .map((d) => [d.sha, d.bytes]),
  );
  let held = [...onDisk.values()].reduce((sum, bytes) => sum + bytes, 0);

  await mapLimit(urls, 4, async (url) => {
    const known = index[url] && existsSync(documentOriginal(dir, index[url].sha)) ? index[url] : undefined;
    if (known && !revalidate(url)) return void documents.set(url, known);
    try {
      const answer = await downloadWithRetries(url, { accept: '*/*', known, timeoutMs: 60_000, maxBytes: MAX_DOCUMENT_BYTES, what: 'a document' }, () => void stats.requests++);
      if (answer.status === 304) {
        stats.unchanged++;
        return void documents.set(url, known!);
      }
      const sha = hash('sha256', answer.bytes);
      const stored: StoredDocument = { sha, bytes: answer.bytes.length, etag: answer.etag, lastModified: answer.lastModified };
      if (known?.sha === sha) {
        stats.unchanged++;
        return void documents.set(url, stored);
      }
      if (!onDisk.has(sha)) {
        if (held + stored.bytes > limitBytes) throw new DownloadError(`the document store is full (${limitBytes} bytes)`);
        held += stored.bytes;
        onDisk.set(sha, stored.bytes);
        replaceFileSync(documentOriginal(dir, sha), answer.bytes);
      }
      stats[known ? 'replaced' : 'downloaded']++;
      documents.set(url, stored);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      if (known && !(error instanceof DownloadError && error.gone)) {
        log(`warning: document ${url} could not be checked (${reason}); the copy kept earlier stays`);
        return void documents.set(url, known);
      }
      stats.failed++;
      failed.set(url, reason);
      log(`warning: document ${url} not kept: ${reason}; its link stays on the media server`);
    }
  });

  const kept = full ? {} : { ...index };
  for (const [url, d] of documents) kept[url] = d;
  for (const url of failed.keys()) delete kept[url];
  replaceFileSync(join(dir, INDEX_FILE), JSON.stringify(kept));
  // An original no URL names any more (a document replaced or gone, or, on a full run, one no text links to) goes,
  // so the store holds what the site serves and no more.
  const linked = new Set(Object.values(kept).map((d) => d.sha));
  for (const name of readdirSync(join(dir, 'originals'))) if (!linked.has(name)) rmSync(join(dir, 'originals', name), { force: true });
  return { documents, failed, stats };
}
