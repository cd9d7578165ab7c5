/**
 * The pictures step of the pull: for the snapshot just pulled (while its file is written), brings the
 * picture store up to date for every picture the snapshot shows (../downloads/picture-store.ts),
 * draws what is not drawn yet (../downloads/draw-pictures.ts) and writes the picture map the pages
 * read (src/content/pictures/map.ts). Runs in the pull's process, before anything is rendered, so
 * rendering never touches the network or an encoder.
 *
 * A pull told what changed works only on the pictures of the changed items (./picture-sources.ts `shownSince`)
 * and those the last map left out; every other picture keeps its entry in the map. At 10,000 news a language the
 * whole step looked at 9,000 pictures, their store's entries and drawn files on every such pull (0.4 s of its
 * CPU, profiled). The nightly (full) run works on every picture.
 */
import { join } from 'node:path';
import type { Snapshot } from '../../../src/content/snapshot.ts';
import { readPulledMap } from '../../../src/content/pulled-map.ts';
import { drawnHashes, drawPictures, type DrawJob, type DrawStats } from '../downloads/draw-pictures.ts';
import { PICTURE_MAP_FILE, type PictureMap } from '../../../src/content/pictures/map.ts';
import { variantFile, variantId, widthsToDraw } from '../../../src/content/pictures/settings.ts';
import { keptShownBy, readShown, shownBasis, shownPictures, shownSince, sourceOf, writeShown, type KeptShown, type PictureSource, type ShownPictures } from './picture-sources.ts';
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
  /** What differs from the snapshot before this one (none: there was none): that snapshot, and the items added, changed or removed. */
  since?: { snapshot: Snapshot; items: ReadonlySet<string> };
  /** Settles once the snapshot's file is written: the map is written after it (../pull/pull-content.ts `AlongsideWriting`). */
  snapshotWritten?: Promise<void>;
  log?: (line: string) => void;
}

export interface PicturePullStats {
  /** Pictures the site shows. */
  pictures: number;
  /** Those looked at: all of them, or, told what changed, those of the changed items and those left out before. */
  lookedAt: number;
  fetch: FetchStats;
  draw: DrawStats;
  ms: number;
}

/**
 * The pictures the snapshot shows (`all`, sorted), and those to work on (`sources`): all of them; or, for a pull told
 * what changed whose previous pull kept what its snapshot showed and its map (`previous`), only those whose items or
 * roles may have changed and those the map lacks (they could not be fetched or drawn: tried again), every other
 * keeping its entry in `previous` while the store still has its drawn files (`drawn`: their hashes). A snapshot
 * before that lacks posts it has digests of (a group's file gone or cut short) cannot say what those showed.
 */
function picturesToWorkOn(
  options: StorePullOptions,
  basis: string,
  drawn: Readonly<Record<string, string>>,
): { shown: ShownPictures | KeptShown; all: string[]; sources: Map<string, PictureSource>; previous: PictureMap | null } {
  const { contentDir, snapshot, mediaBase, revalidate, since } = options;
  const whole = () => {
    const shown = shownPictures(snapshot, mediaBase);
    const sources = new Map([...shown].map(([url, shownBy]) => [url, sourceOf(shownBy)]));
    return { shown, all: [...sources.keys()].sort(), sources, previous: null };
  };
  const before = revalidate !== 'all' && since && everyPostOf(since.snapshot) ? readShown(contentDir, since.snapshot.pulledAt, basis) : null;
  const previous = before && readPulledMap<PictureMap>(join(contentDir, PICTURE_MAP_FILE));
  const touched = before && previous && shownSince(before, since!.snapshot, snapshot, mediaBase, since!.items);
  if (!before || !previous || !touched) return whole();
  const sources = new Map<string, PictureSource>();
  for (const url in before) {
    const entry = touched.has(url) ? undefined : previous[url];
    // A store that lost drawn files since (a full pull that failed after pruning, a damaged list of hashes): the
    // map is made whole again, as the build would refuse the entry.
    if (entry && !entry.widths.every((width) => drawn[variantFile(entry.id, width)])) return whole();
    if (entry) continue;
    const shownBy = touched.get(url) ?? keptShownBy(before[url]);
    if (!shownBy) return whole();
    sources.set(url, sourceOf(shownBy));
  }
  return { shown: before, all: Object.keys(before).sort(), sources, previous };
}

/** Whether a snapshot holds every post it has a digest of (one read back leaves out a group whose file is gone). */
const everyPostOf = (snapshot: Snapshot) => Object.values(snapshot.languages).every((c) => !c?.postDigests || Object.keys(c.postDigests).every((id) => Object.hasOwn(c.posts, id)));

export async function pullPictures(options: StorePullOptions): Promise<PicturePullStats> {
  const { contentDir, snapshot, mediaBase, storeDir, revalidate, snapshotWritten, log = console.log } = options;
  const started = performance.now();
  const basis = await shownBasis(snapshot, mediaBase);
  const drawnFiles = drawnHashes(storeDir);
  const { shown, all, sources, previous } = picturesToWorkOn(options, basis, drawnFiles);
  const urls = [...sources.keys()].sort();
  const askAgain = revalidate === 'all' ? () => true : (url: string) => [...sources.get(url)!.items].some((item) => revalidate.has(item));
  const every = urls.length === all.length;
  const { pictures, stats: fetch } = await fetchPictures({ dir: storeDir, urls, every, revalidate: askAgain, log });

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
  const { failed, stats: draw } = await drawPictures(storeDir, [...jobs.values()], { prune: revalidate === 'all', log, hashes: drawnFiles });

  const drawn = new Map<string, PictureMap[string]>();
  for (const [url, { sha, entry }] of entries) if (!failed.has(sha)) drawn.set(url, entry);
  // In the order of the URLs, whichever were worked on: the same snapshot and store write the same map.
  const map: PictureMap = {};
  for (const url of all) {
    const entry = sources.has(url) ? drawn.get(url) : previous![url];
    if (entry) map[url] = entry;
  }
  await snapshotWritten;
  writeAtomic(join(contentDir, PICTURE_MAP_FILE), JSON.stringify(map));
  // After the map: what is kept of the snapshot is never newer than the map beside it.
  writeShown(contentDir, snapshot.pulledAt, basis, shown);
  const ms = Math.round(performance.now() - started);
  log(
    `pictures: ${Object.keys(map).length} shown (${urls.length} looked at); ${fetch.requests} requests, ${fetch.downloaded} downloaded, ${fetch.unchanged} unchanged, ` +
      `${fetch.replaced} replaced, ${fetch.failed} left out; ${draw.encoded} files drawn, ${draw.reused} pictures already drawn in ${ms} ms`,
  );
  return { pictures: Object.keys(map).length, lookedAt: urls.length, fetch, draw, ms };
}
