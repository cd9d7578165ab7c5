/**
 * Render, place the pictures and documents, finish: the site from the snapshot
 * already pulled, into OUT_DIR, checked. Fails on a broken internal reference
 * the code wrote, so nothing broken is published; an editor's link that leads
 * nowhere is content, and only reported (./content-report.ts).
 */
import { readFileSync, rmSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { readConfig, readMachineSettings } from '../../src/config.ts';
import { documentMap } from '../../src/content/documents/map.ts';
import { pictureMap } from '../../src/content/pictures/map.ts';
import { finishBuild, type FinishedBuild } from './finish/finish-step.ts';
import { placeDistrictPictures, storedDocuments, storedPictures } from './downloads/place-downloads.ts';
import { releaseFileHashes, RELEASES_KEPT, REPORT_MODE } from './publish/releases.ts';
import { earlierReleaseList, releaseChanges, releaseList, type ReleaseList } from './publish/release-changes.ts';
import { replaceFile } from '../lib/replace-file.ts';
import { contentReportLines, deadLinksByLanguage } from './pull/content-report.ts';
import { writeStaticHostFiles } from '../serving/server-config.ts';
import { startSearchIndex, storedSearchIndex } from './search-index/search-index-step.ts';
import { astroCacheDir, renderSite, type RenderReport } from './render/render-step.ts';

/**
 * What the build reports to the rebuild. The hash of every file (120,000 at 10,000 news a language) is not in it:
 * it goes to `fileList` of `buildStep`, the file the rebuild chose and publishes as the release's list, so that it
 * is written once and parsed by no one on its way (the report carried it to the rebuild, which parsed it and wrote
 * it out again).
 */
export interface BuildReport extends Omit<FinishedBuild, 'hashes'> {
  astro: RenderReport;
  /**
   * How the file list of the older release the build was made in was known: `derived` from the served release's and
   * the changes records since (./publish/release-changes.ts), or `read` whole; null when made in a new folder.
   */
  olderReleaseList: 'derived' | 'read' | null;
  /** The files (site paths) added, changed and removed since `previousRelease` (all added without one), sorted. */
  sincePrevious: { added: string[]; changed: string[]; removed: string[] };
}

/**
 * The file list of the older release the build is made in: from the served release's and the changes records of
 * the publishes since (./publish/release-changes.ts), or, without them, its own list parsed.
 */
function olderReleaseList(
  previousRelease: string | null,
  previousHashes: Record<string, string>,
  into: NonNullable<BuildPlace['into']>,
): { list: ReleaseList; how: 'derived' | 'read' } {
  const derived = previousRelease && earlierReleaseList(dirname(previousRelease), { id: basename(previousRelease), hashes: previousHashes }, into.id, RELEASES_KEPT);
  return derived ? { list: derived, how: 'derived' } : { list: releaseList(JSON.parse(readFileSync(into.files, 'utf8')) as Record<string, string>), how: 'read' };
}

/** The pages, with the district's pictures placed beside them, and the drawn pictures, documents and sitemap the last pass places. */
async function renderAndPlace(outDir: string, pictureDir: string, documentDir: string) {
  const { report: astro, reused, sitemap } = await renderSite();
  const pictures = storedPictures(pictureMap(), pictureDir);
  const documents = storedDocuments(documentMap(), documentDir);
  placeDistrictPictures(outDir);
  return { astro, reused, pictures, documents, sitemap };
}

/** Where the build stands among the releases (all null for a build that is not published: `npm run build`). */
export interface BuildPlace {
  /** The published release this build will replace (files with the same bytes become links to it). */
  previousRelease?: string | null;
  /** An older release, set aside by the rebuild, to make this one in: its folder, its id and its file list (./finish/finish-step.ts). */
  into?: { root: string; id: string; files: string } | null;
  /** Where to write the new release's file list (the hash of each file by site path), for the publish. */
  fileList?: string | null;
  /** Where to write what the new release changed of `previousRelease` (./publish/release-changes.ts), for the publish. */
  changesFile?: string | null;
}

export async function buildStep({ previousRelease = null, into = null, fileList = null, changesFile = null }: BuildPlace = {}): Promise<BuildReport> {
  const { outDir, pictureDir, documentDir } = readMachineSettings();
  // Made beside the render, from the snapshot alone; a failure is reported after the render, as the build's.
  const indexStore = join(astroCacheDir(), 'search-index');
  const searchIndex = startSearchIndex(indexStore, join(astroCacheDir(), 'search-index.kept'));
  const { astro, reused, pictures, documents, sitemap } = await renderAndPlace(outDir, pictureDir, documentDir).catch(async (error: unknown) => {
    await searchIndex.stop();
    throw error;
  });
  const index = storedSearchIndex(indexStore, await searchIndex.built);
  writeStaticHostFiles(outDir, readConfig().basePath);
  const previousHashes = previousRelease ? await releaseFileHashes(previousRelease) : {};
  // An earlier version's memo, one JSON file (45 MB at 10,000 posts per language), read by nothing now.
  rmSync(join(astroCacheDir(), 'finish-pass.json'), { force: true });
  const older = into && { root: into.root, ...olderReleaseList(previousRelease, previousHashes, into) };
  const finished = await finishBuild(outDir, readConfig(), {
    memoFile: join(astroCacheDir(), 'finish-pass.db'),
    previousRelease: previousRelease ? { root: previousRelease, hashes: previousHashes } : null,
    stored: new Map([...pictures, ...documents, ...index.files, ...sitemap]),
    reused,
    into: older && { root: older.root, hashes: older.list },
  });
  const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  const c = finished.compressed;
  console.log(
    `Built ${astro.pages} pages into ${outDir}/ in ${s(astro.ms)} (${astro.reused} reused, ${astro.handedToAstro} handed to Astro, ${astro.notListed} not listed to it (${astro.foundByMadeFrom} of them found by what they are made from), ${pictures.size} drawn pictures placed, ` +
      `${index.documents} documents in the search index, ${index.made} of them read anew, ${index.written} of its ${index.files.size} files written); ` +
      `finished in ${s(finished.ms)}: ${finished.fragments} shared fragments spliced, ${finished.remembered} pages' checks remembered (${finished.pagesRead} pages read), ${c.files} text files compressed ` +
      `(${c.made} made, ${c.reused} reused from the previous release or the cache, ${c.pruned} stale cache entries removed), ` +
      `${finished.links.checked} internal references checked` +
      (older
        ? `; made in an older release (its file list ${older.how === 'derived' ? "from the served one's and the changes since" : 'read whole'}), ${finished.keptFromOlder} of its files kept as they were`
        : ''),
  );
  for (const line of contentReportLines({ deadLinks: deadLinksByLanguage(finished.links.deadEditorLinks), unavailableDocuments: [], removed: [] }))
    console.warn(`warning: ${line}`);
  if (finished.links.broken.length) {
    for (const b of finished.links.broken.slice(0, 20)) console.error(`broken: ${b}`);
    throw new Error(`the build has ${finished.links.broken.length} broken internal reference(s), e.g. ${finished.links.broken[0]}`);
  }
  // Said here, where the previous release's file list is read already: the publish needed a second read of it.
  const { hashes, sincePrevious, ...rest } = finished;
  const { added, changed, removed } = sincePrevious;
  if (fileList) await replaceFile(fileList, JSON.stringify(hashes), { mode: REPORT_MODE });
  if (changesFile) {
    const previous = previousRelease ? { id: basename(previousRelease), hashes: previousHashes } : null;
    await replaceFile(changesFile, JSON.stringify(releaseChanges(previous, { added, changed, removed })), { mode: REPORT_MODE });
  }
  return { astro, ...rest, olderReleaseList: older?.how ?? null, sincePrevious: { added: added.sort(), changed: changed.sort(), removed: removed.sort() } };
}
