/**
 * What pages read: the snapshot written by the build-time pull. Read from disk
 * once per build; never from the network.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Post } from '../api/types.ts';
import { readConfig } from '../config.ts';
import type { Language } from '../i18n/languages.ts';
import { hasSettledSummaries, SNAPSHOT_FILE, type LanguageContent, type Snapshot } from './snapshot.ts';

let cached: Snapshot | undefined;

function snapshot(): Snapshot {
  if (!cached) {
    const file = join(readConfig().contentDir, SNAPSHOT_FILE);
    try {
      cached = JSON.parse(readFileSync(file, 'utf8')) as Snapshot;
    } catch (err) {
      throw new Error(`No content snapshot at ${file}: run "npm run build" (it pulls first). ${String(err)}`, { cause: err });
    }
    // A snapshot pulled by an earlier version of the site lacks the list pages (scripts/pipeline/pull/list-pages.ts)
    // or the settled side lists, or has those as bare post ids.
    if (Object.values(cached.languages).some((c) => !c.listPages || !hasSettledSummaries(c))) {
      cached = undefined;
      throw new Error(`The content snapshot at ${file} was pulled by an earlier version of the site: run "npm run pull" (or "npm run build") again.`);
    }
  }
  return cached;
}

export function contentFor(lang: Language): LanguageContent {
  return snapshot().languages[lang.code];
}

/** The posts of one list page, in the API's order. */
export function postsOf(content: LanguageContent, ids: readonly number[]): Post[] {
  return ids.flatMap((id) => content.posts[id] ?? []);
}
