/**
 * The pictures step of the pull: for the snapshot just pulled (while its file is written), brings the
 * picture store up to date for every picture the snapshot shows (../downloads/picture-store.ts),
 * draws what is not drawn yet (../downloads/draw-pictures.ts) and writes the picture map the pages
 * read (src/content/pictures/map.ts). Runs in the pull's process, before anything is rendered, so
 * rendering never touches the network or an encoder.
 */
import { join } from 'node:path';
import type { Snapshot } from '../../../src/content/snapshot.ts';
import { drawPictures, type DrawJob, type DrawStats } from '../downloads/draw-pictures.ts';
import { PICTURE_MAP_FILE, type PictureMap } from '../../../src/content/pictures/map.ts';
import { variantId, widthsToDraw } from '../../../src/content/pictures/settings.ts';
import { pictureSources } from './picture-sources.ts';
import { fetchPictures, writeAtomic, type FetchStats } from '../downloads/picture-store.ts';

/** What the pull of a store (the pictures', the documents') needs. */
export interface StorePullOptions {
  /** Where the map the pages read is written, beside the snapshot. */
  contentDir: string;
  /** The snapshot just pulled, handed on by the pull rather than read back from its file. */
  snapshot: Snapshot;
  mediaBase: string;
  /** The store (machine setting PICTURE_DIR, DOCUMENT_DIR). */
  storeDir: string;
  /** Every file is asked for again (the nightly run), or only those of these snapshot items (`post:12@ru`). */
  revalidate: 'all' | ReadonlySet<string>;
  /** Settles once the snapshot's file is written: the map is written after it (../pull/pull-content.ts `AlongsideWriting`). */
  snapshotWritten?: Promise<void>;
  log?: (line: string) => void;
}

export interface PicturePullStats {
  /** Pictures the site shows. */
  pictures: number;
  fetch: FetchStats;
  draw: DrawStats;
  ms: number;
}

export async function pullPictures(options: StorePullOptions): Promise<PicturePullStats> {
  const { contentDir, snapshot, mediaBase, storeDir, revalidate, snapshotWritten, log = console.log } = options;
  const started = performance.now();
  const sources = pictureSources(snapshot, mediaBase);
  const urls = [...sources.keys()].sort();
  const askAgain = revalidate === 'all' ? () => true : (url: string) => [...sources.get(url)!.items].some((item) => revalidate.has(item));
  const { pictures, stats: fetch } = await fetchPictures({ dir: storeDir, urls, revalidate: askAgain, log });

  // One job per source: the same bytes at two URLs, or shown in two roles, are drawn once, at every width either needs.
  const jobs = new Map<string, DrawJob & { widths: number[] }>();
  const entries = new Map<string, { sha: string; entry: PictureMap[string] }>();
  for (const url of urls) {
    const stored = pictures.get(url);
    if (!stored) continue;
    const id = variantId(stored.sha);
    const widths = widthsToDraw(sources.get(url)!.roles, stored.width);
    const job = jobs.get(id) ?? { sha: stored.sha, id, widths: [] };
    job.widths = [...new Set([...job.widths, ...widths])].sort((a, b) => a - b);
    jobs.set(id, job);
    entries.set(url, { sha: stored.sha, entry: { id, width: stored.width, height: stored.height, widths } });
  }
  const { failed, stats: draw } = await drawPictures(storeDir, [...jobs.values()], { prune: revalidate === 'all', log });

  const map: PictureMap = {};
  for (const [url, { sha, entry }] of entries) if (!failed.has(sha)) map[url] = entry;
  await snapshotWritten;
  writeAtomic(join(contentDir, PICTURE_MAP_FILE), JSON.stringify(map));
  const ms = Math.round(performance.now() - started);
  log(
    `pictures: ${Object.keys(map).length} shown; ${fetch.requests} requests, ${fetch.downloaded} downloaded, ${fetch.unchanged} unchanged, ` +
      `${fetch.replaced} replaced, ${fetch.failed} left out; ${draw.encoded} files drawn, ${draw.reused} pictures already drawn in ${ms} ms`,
  );
  return { pictures: Object.keys(map).length, fetch, draw, ms };
}
