/**
 * Render, place the pictures, finish: the site from the snapshot already
 * pulled, into OUT_DIR, checked. Fails on a broken internal reference, so
 * nothing broken is published.
 */
import { join } from 'node:path';
import { readConfig, readMachineSettings } from '../../src/config.ts';
import { pictureMap } from '../../src/content/pictures/map.ts';
import { finishBuild, type FinishedBuild } from './finish-build.ts';
import { placePictures } from './place-pictures.ts';
import { releaseFileHashes } from './releases.ts';
import { astroCacheDir, renderSite, type RenderReport } from './render-step.ts';

export interface BuildReport extends FinishedBuild {
  astro: RenderReport;
}

/** `previousRelease`: the published release this build will replace (files with the same bytes become links to it). */
export async function buildStep(previousRelease: string | null = null): Promise<BuildReport> {
  const { outDir, pictureDir } = readMachineSettings();
  const astro = await renderSite();
  const pictures = placePictures(outDir, pictureMap(), pictureDir);
  const finished = await finishBuild(outDir, readConfig(), {
    memoFile: join(astroCacheDir(), 'finish-pass.json'),
    previousRelease: previousRelease ? { root: previousRelease, hashes: Object.fromEntries(await releaseFileHashes(previousRelease)) } : null,
    knownHashes: pictures,
  });
  const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  const c = finished.compressed;
  console.log(
    `Built ${astro.pages} pages into ${outDir}/ in ${s(astro.ms)} (${astro.reused} reused, ${Object.keys(pictures).length} drawn pictures placed); ` +
      `finished in ${s(finished.ms)}: ${finished.fragments} shared fragments spliced, ${finished.remembered} pages' checks remembered (${finished.pagesRead} pages read), ${c.files} text files compressed ` +
      `(${c.made} made, ${c.reused} reused from the previous release or the cache, ${c.pruned} stale cache entries removed), ` +
      `${finished.links.checked} internal references checked`,
  );
  if (finished.links.broken.length) {
    for (const b of finished.links.broken.slice(0, 20)) console.error(`broken: ${b}`);
    throw new Error(`the build has ${finished.links.broken.length} broken internal reference(s), e.g. ${finished.links.broken[0]}`);
  }
  return { astro, ...finished };
}
