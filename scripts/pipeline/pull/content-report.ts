/**
 * What the build made of the editors' texts, for the operator to pass on to the editors: the links that
 * lead nowhere on the site, the documents the site could not keep, and what the sanitiser removed. None
 * of it stops publishing (an editor's text is content, not code); all of it is in the build's and the
 * rebuild's report, and `/hooks/status` counts it.
 */
import type { Snapshot } from '../../../src/content/snapshot.ts';
import { snapshotTextFiles } from '../../../src/content/text-files.ts';
import type { DocumentPullStats } from './pull-documents.ts';
import { splitLocalizedPath, type LangCode } from '../../../src/i18n/languages.ts';
import { removedElements } from '../../../src/lib/editor-content.ts';
import type { DeadEditorLink } from '../finish/link-check.ts';

export interface RemovedFromText {
  /** The snapshot item (`post:12@ru`). */
  item: string;
  language: LangCode;
  /** Tag name → how many such elements were removed with what they held. */
  elements: Record<string, number>;
}

export interface EditorContentReport {
  deadLinks: (DeadEditorLink & { language: LangCode })[];
  unavailableDocuments: DocumentPullStats['unavailable'];
  removed: RemovedFromText[];
}

/** The counts `/hooks/status` gives (no addresses: it is read without the key). */
export const contentCounts = (report: EditorContentReport | undefined) => ({
  deadLinks: report?.deadLinks.length ?? 0,
  unavailableDocuments: report?.unavailableDocuments.length ?? 0,
  itemsWithRemovedElements: report?.removed.length ?? 0,
});

/** Each dead link with the language of the page that shows it. */
export const deadLinksByLanguage = (dead: readonly DeadEditorLink[]): EditorContentReport['deadLinks'] =>
  dead.map((d) => ({ ...d, language: splitLocalizedPath(d.page).lang.code }));

/**
 * What the sanitiser removes from each text of the snapshot: the items that lose something. A post's is what
 * the pull found when it read the post (src/content/text-files.ts): 40,000 texts are not read again.
 */
export function removedFromTexts(snapshot: Snapshot, mediaBase: string): RemovedFromText[] {
  const byItem = new Map<string, RemovedFromText>();
  for (const { item, language, html, files, kept } of snapshotTextFiles(snapshot, mediaBase)) {
    const removed = kept ? (files.removed ?? {}) : removedElements(html(), mediaBase);
    if (!Object.keys(removed).length) continue;
    const entry = byItem.get(item) ?? { item, language, elements: {} };
    for (const [tag, n] of Object.entries(removed)) entry.elements[tag] = (entry.elements[tag] ?? 0) + n;
    byItem.set(item, entry);
  }
  return [...byItem.values()].sort((a, b) => (a.item < b.item ? -1 : 1));
}

/** How many of each kind the build's output names: the report holds every one. */
const LINES_OF_EACH_KIND = 20;

/**
 * The report's lines for a person reading the build's output: at most `LINES_OF_EACH_KIND` of each kind, then
 * how many more the report holds (an archive with a dead link in every 28th of 10,000 posts a language printed
 * 2,864 lines on every rebuild, and the log showed nothing else).
 */
export function contentReportLines(report: EditorContentReport): string[] {
  // One more is named rather than counted.
  const kind = <T>(items: readonly T[], line: (item: T) => string, more: string) =>
    items.length <= LINES_OF_EACH_KIND + 1
      ? items.map(line)
      : [...items.slice(0, LINES_OF_EACH_KIND).map(line), `… and ${(items.length - LINES_OF_EACH_KIND).toLocaleString('en')} more ${more} (a rebuild's report lists every one)`];
  return [
    ...kind(report.deadLinks, (d) => `editor's link leads nowhere on the site (published as written): ${d.page} (${d.language}) → ${d.link}`, "editors' links that lead nowhere"),
    ...kind(
      report.unavailableDocuments,
      (d) => `document not kept (the link stays on the media server): ${d.url}: ${d.reason}; linked from ${d.items.join(', ')}`,
      'documents not kept',
    ),
    ...kind(
      report.removed,
      (r) =>
        `removed from ${r.item}: ${Object.entries(r.elements)
          .map(([tag, n]) => `${n} <${tag}>`)
          .join(', ')}`,
      'items with something removed',
    ),
  ];
}
