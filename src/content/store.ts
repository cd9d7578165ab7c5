/**
 * What pages read: the snapshot written by the build-time pull. Read from disk
 * once per build, a post's body only when a page asks for it (post-bodies.ts); never from the network.
 */
import { statSync } from 'node:fs';
import { join } from 'node:path';
import type { Post } from '../api/types.ts';
import { readConfig } from '../config.ts';
import { readTextSync } from './read-text.ts';
import { POSTS_UNREADABLE } from './post-bodies.ts';
import type { Language } from '../i18n/languages.ts';
import { hasSettledSummaries, parseSnapshot, SNAPSHOT_FILE, type LanguageContent, type Snapshot } from './snapshot.ts';

/**
 * Read once per process, not once per copy of this module: Astro's build loads its own bundled copy beside
 * the one the site's configuration (the sitemap's filter) imports, and at 10,000 news per language each
 * read is half a second. Kept by file, inode, size and times, so a snapshot pulled again is read again.
 */
const READ = Symbol.for('hokimiyat.content-snapshot');
type Read = { file: string; ino: number; size: number; mtimeMs: number; ctimeMs: number; snapshot: Snapshot };
const process_ = globalThis as typeof globalThis & { [READ]?: Read };

function snapshot(): Snapshot {
  const { contentDir } = readConfig();
  const file = join(contentDir, SNAPSHOT_FILE);
  let stat: { ino: number; size: number; mtimeMs: number; ctimeMs: number } | undefined;
  try {
    const { ino, size, mtimeMs, ctimeMs } = statSync(file);
    stat = { ino, size, mtimeMs, ctimeMs };
  } catch {
    // Said below, with the reason the read gives.
  }
  const last = process_[READ];
  // A pull renames a new file into place (a new inode); a copy that kept the old time still has a new ctime.
  if (stat && last?.file === file && (['ino', 'size', 'mtimeMs', 'ctimeMs'] as const).every((k) => last[k] === stat[k])) return last.snapshot;
  let read: Snapshot;
  try {
    read = parseSnapshot(readTextSync(file), contentDir);
  } catch (err) {
    if (err instanceof Error && err.name === POSTS_UNREADABLE) throw err;
    throw new Error(`No content snapshot at ${file}: run "npm run build" (it pulls first). ${String(err)}`, { cause: err });
  }
  // A snapshot pulled by an earlier version of the site lacks the list pages (scripts/pipeline/pull/list-pages.ts)
  // or the settled side lists, or has those as bare post ids.
  if (Object.values(read.languages).some((c) => !c.listPages || !hasSettledSummaries(c))) {
    throw new Error(`The content snapshot at ${file} was pulled by an earlier version of the site: run "npm run pull" (or "npm run build") again.`);
  }
  if (stat) process_[READ] = { file, ...stat, snapshot: read };
  return read;
}

export function contentFor(lang: Language): LanguageContent {
  return snapshot().languages[lang.code];
}

/** What the pull found each post's files with (snapshot.ts `postFiles`): the media base, and its code's digest. */
export const postFilesFoundWith = (): Snapshot['postFilesFoundWith'] => snapshot().postFilesFoundWith;

/** The posts of one list page, in the API's order. */
export function postsOf(content: LanguageContent, ids: readonly number[]): Post[] {
  return ids.flatMap((id) => content.posts[id] ?? []);
}
