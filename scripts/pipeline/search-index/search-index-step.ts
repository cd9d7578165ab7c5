/**
 * The site's own search index (src/features/search/search-index.ts), one folder per language, from the snapshot.
 *
 * It needs the snapshot only, not the pages, so it is made in a thread of its own while Astro renders
 * (`startSearchIndex`), written into its store (./index-store.ts), and placed into the site by the last pass
 * (`storedSearchIndex`): at 10,000 posts per language it took 9 s of the main thread. The thread runs at the
 * lowest priority (./search-index-worker.ts), on the core that Astro's render leaves idle.
 */
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { indexFolder } from '../../../src/features/search/search-index.ts';
import type { StoredFile } from '../finish/finish-step.ts';
import { indexBasis } from './index-basis.ts';
import { storeFolder } from './index-store.ts';
import type { BuiltIndex, IndexThreadData } from './search-index-worker.ts';

export interface SearchIndexThread {
  /** Every language's index files, or the thread's error. */
  built: Promise<BuiltIndex>;
  /** Ends the thread now: a build that failed does not wait for an index it will not write. */
  stop: () => Promise<void>;
}

/** Starts making every language's index in a thread of its own into `store`, updating the one kept in `keptFile` (./kept-index.ts). */
export function startSearchIndex(store: string, keptFile?: string): SearchIndexThread {
  let worker: Worker | undefined;
  let stopped = false;
  const built = (async () => {
    // Taken before the thread loads the index's code: code deployed meanwhile makes the next build's basis
    // differ from the one kept, never labels an index made by the old code with the new code's basis.
    const basis = keptFile ? await indexBasis().catch(() => undefined) : undefined;
    if (stopped) throw new Error('the search index was stopped');
    const thread = (worker = new Worker(new URL('./search-index-worker.ts', import.meta.url), {
      workerData: { store, kept: keptFile && basis ? { file: keptFile, basis } : undefined } satisfies IndexThreadData,
    }));
    return await new Promise<BuiltIndex>((ok, fail) => {
      thread.once('message', (index: BuiltIndex) => ok(index));
      thread.once('error', fail);
      thread.once('exit', (code) => fail(new Error(stopped ? 'the search index was stopped' : `the search index's thread stopped before it answered (exit code ${code})`)));
    });
  })().finally(() => void worker?.terminate());
  // Its error is the build's only when the build reaches it: a failed render reports its own.
  built.catch(() => undefined);
  return {
    built,
    stop: async () => {
      stopped = true;
      await worker?.terminate();
    },
  };
}

/**
 * The index's files in `store`, by site path (`/search-index/v1/ru/w3.json`), with their hashes: the last pass
 * places them in the site as hard links, and need not read them.
 */
export function storedSearchIndex(store: string, built: BuiltIndex): { documents: number; made: number; written: number; files: Map<string, StoredFile> } {
  const files = new Map<string, StoredFile>();
  for (const { lang, files: hashes } of built.languages) {
    for (const [name, hash] of hashes) files.set(`${indexFolder(lang)}${name}`, { source: join(storeFolder(store, lang), name), hash });
  }
  return { documents: built.documents, made: built.made, written: built.written, files };
}
