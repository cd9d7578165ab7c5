/**
 * The pipeline's first step: the content (scripts/pipeline/pull/pull-content.ts), then its
 * pictures (scripts/pipeline/pull/pull-pictures.ts) and documents (scripts/pipeline/pull/pull-documents.ts),
 * asked for while the content's snapshot is written. A run told what changed looks
 * again only at the pictures of the items that were added or changed; a full
 * run (the nightly one) asks for every picture again.
 */
import { readMachineSettings, type SiteConfig } from '../../../src/config.ts';
import type { ContentChanges } from '../../../src/content/changes.ts';
import { pullDocuments, type DocumentPullStats } from './pull-documents.ts';
import { pullPictures, type PicturePullStats } from './pull-pictures.ts';
import { ApiError } from '../../../src/api/client.ts';
import { pullContent, type AlongsideWriting, type PullSummary } from './pull-content.ts';
import { removedFromTexts, type RemovedFromText } from './content-report.ts';

export interface PullReport extends PullSummary {
  pictures: PicturePullStats;
  documents: DocumentPullStats;
  /** What the sanitiser removes from the editors' texts (./content-report.ts). */
  removed: RemovedFromText[];
}

export async function pullStep(config: SiteConfig, changes: ContentChanges, log: (line: string) => void = console.log): Promise<PullReport> {
  const { pictureDir, documentDir } = readMachineSettings();
  const { contentDir, mediaBase } = config;
  // The pull's own snapshot, not read back: at 10,000 news per language it is tens of megabytes. Its pictures and
  // documents are asked for while its file is written.
  const stores: AlongsideWriting<Pick<PullReport, 'pictures' | 'documents'>> = async ({ snapshot, diff, previous, written: snapshotWritten }) => {
    const revalidate = changes === 'all' ? 'all' : new Set([...diff.added, ...diff.changed]);
    const since = previous ? { snapshot: previous, items: new Set([...diff.added, ...diff.changed, ...diff.removed]) } : undefined;
    const pictures = await pullPictures({ contentDir, snapshot, mediaBase, storeDir: pictureDir, revalidate, since, snapshotWritten, log });
    const documents = await pullDocuments({ contentDir, snapshot, mediaBase, storeDir: documentDir, revalidate, snapshotWritten, log });
    return { pictures, documents };
  };
  const { snapshot, alongside, ...content } = await pullContent({ ...config, changes, log, alongside: stores }).catch((error: unknown) => {
    // No answer at all (refused, reset, timed out): say so plainly, with the call that failed.
    if (error instanceof ApiError && error.status === undefined && /fetch failed|timed out|abort/i.test(error.message)) {
      throw new Error(`The content API at ${config.apiBase} does not answer (${error.message})`);
    }
    throw error;
  });
  return { ...content, ...alongside, removed: removedFromTexts(snapshot, mediaBase) };
}
