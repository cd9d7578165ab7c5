/**
 * Render, place the pictures and documents, finish: the site from the snapshot
 * already pulled, into OUT_DIR, checked. Fails on a broken internal reference
 * the code wrote, so nothing broken is published; an editor's link that leads
 * nowhere is content, and only reported (./content-report.ts).
 */
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { readConfig, readMachineSettings } from '../../src/config.ts';
import { documentMap } from '../../src/content/documents/map.ts';
import { pictureMap } from '../../src/content/pictures/map.ts';
import { finishBuild, type FinishedBuild } from './finish/finish-step.ts';
import { placeDistrictPictures, storedDocuments, storedPictures } from './downloads/place-downloads.ts';
import { releaseFileHashes, REPORT_MODE } from './publish/releases.ts';
import { replaceFile } from '../lib/replace-file.ts';
import { diffByKey } from '../lib/hash-diff.ts';
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
  /** The files (site paths) added, changed and removed since `previousRelease` (all added without one), sorted. */
  sincePrevious: { added: string[]; changed: string[]; removed: string[] };
}

/** The pages, with the district's pictures placed beside them, and the drawn pictures and documents the last pass places. */
async function renderAndPlace(outDir: string, pictureDir: string, documentDir: string) {
  const { report: astro, reused } = await renderSite();
  const pictures = storedPictures(pictureMap(), pictureDir);
  const documents = storedDocuments(documentMap(), documentDir);
  placeDistrictPictures(outDir);
  return { astro, reused, pictures, documents };
}

/**
 * `previousRelease`: the published release this build will replace (files with the same bytes become links to it).
 * `into`: an older release, set aside by the rebuild, to make this one in, and its file list (./finish/finish-step.ts).
 * `fileList`: where to write the new release's file list (the hash of each file by site path), for the publish.
 */
export async function buildStep(previousRelease: string | null = null, into: { root: string; files: string } | null = null, fileList: string | null = null): Promise<BuildReport> {
  const { outDir, pictureDir, documentDir } = readMachineSettings();
  // Made beside the render, from the snapshot alone; a failure is reported after the render, as the build's.
  const indexStore = join(astroCacheDir(), 'search-index');
  const searchIndex = startSearchIndex(indexStore, join(astroCacheDir(), 'search-index.kept'));
  const { astro, reused, pictures, documents } = await renderAndPlace(outDir, pictureDir, documentDir).catch(async (error: unknown) => {
    await searchIndex.stop();
    throw error;
  });
  const index = storedSearchIndex(indexStore, await searchIndex.built);
  writeStaticHostFiles(outDir, readConfig().basePath);
  const previousHashes = previousRelease ? await releaseFileHashes(previousRelease) : {};
  // An earlier version's memo, one JSON file (45 MB at 10,000 posts per language), read by nothing now.
  rmSync(join(astroCacheDir(), 'finish-pass.json'), { force: true });
  const finished = await finishBuild(outDir, readConfig(), {
    memoFile: join(astroCacheDir(), 'finish-pass.db'),
    previousRelease: previousRelease ? { root: previousRelease, hashes: previousHashes } : null,
    stored: new Map([...pictures, ...documents, ...index.files]),
    reused,
    into: into && { root: into.root, hashes: JSON.parse(readFileSync(into.files, 'utf8')) as Record<string, string> },
  });
  const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  const c = finished.compressed;
  console.log(
    `Built ${astro.pages} pages into ${outDir}/ in ${s(astro.ms)} (${astro.reused} reused, ${astro.handedToAstro} handed to Astro, ${pictures.size} drawn pictures placed, ` +
      `${index.documents} documents in the search index, ${index.made} of them read anew, ${index.written} of its ${index.files.size} files written); ` +
      `finished in ${s(finished.ms)}: ${finished.fragments} shared fragments spliced, ${finished.remembered} pages' checks remembered (${finished.pagesRead} pages read), ${c.files} text files compressed ` +
      `(${c.made} made, ${c.reused} reused from the previous release or the cache, ${c.pruned} stale cache entries removed), ` +
      `${finished.links.checked} internal references checked` +
      (into ? `; made in an older release, ${finished.keptFromOlder} of its files kept as they were` : ''),
  );
  for (const line of contentReportLines({ deadLinks: deadLinksByLanguage(finished.links.deadEditorLinks), unavailableDocuments: [], removed: [] }))
    console.warn(`warning: ${line}`);
  if (finished.links.broken.length) {
    for (const b of finished.links.broken.slice(0, 20)) console.error(`broken: ${b}`);
    throw new Error(`the build has ${finished.links.broken.length} broken internal reference(s), e.g. ${finished.links.broken[0]}`);
  }
  // Said here, where the previous release's file list is read already: the publish needed a second read of it.
  const { hashes, ...rest } = finished;
  const { added, changed, removed } = diffByKey(previousHashes, hashes);
  if (fileList) await replaceFile(fileList, JSON.stringify(hashes), { mode: REPORT_MODE });
  return { astro, ...rest, sincePrevious: { added: added.sort(), changed: changed.sort(), removed: removed.sort() } };
}
