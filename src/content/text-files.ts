/**
 * The files an editor's text names: the pictures in it and the documents it links to. The pull finds them
 * in a post when it reads the post and keeps them with the post's digest (snapshot.ts `postFiles`), so a
 * rebuild searches again only the texts that changed: the page keys (src/lib/paths.ts) and the pull's
 * pictures and documents take a post's files from there instead of searching 40,000 texts at 10,000 news
 * per language.
 */
import type { Post } from '../api/types.ts';
import { documentLinkUrls } from './documents/links.ts';
import { pictureUrl, textPictureUrls } from './pictures/map.ts';
import { snapshotTexts, type LanguageContent, type Snapshot, type SnapshotText } from './snapshot.ts';

/** Absolute URLs, as the media base and the sanitiser make them. */
export interface TextFiles {
  /** `<img src>`: a post's own picture (`imageUrl`) is not in its text, and is drawn in other sizes. */
  textPictures: string[];
  documents: string[];
  /**
   * In a post's files kept by the pull: the elements the sanitiser removes from its text with what they held, by
   * tag name (src/lib/editor-content.ts `removedElements`, for the build's report); absent when it removes none.
   */
  removed?: Record<string, number>;
}

const NO_FILES: TextFiles = { textPictures: [], documents: [] };

export const findTextFiles = (html: string, mediaBase: string): TextFiles => ({
  textPictures: [...new Set(textPictureUrls(html, mediaBase))],
  documents: documentLinkUrls(html, mediaBase),
});

/** Whether a text names no file and loses nothing to the sanitiser: the snapshot leaves such a post out of `postFiles`. */
export const foundNothing = (files: TextFiles) => !files.textPictures.length && !files.documents.length && !files.removed;

/** The files the pull found in a post of `content`, or undefined when it did not look (an earlier version's snapshot). */
export const filesOfPost = (content: Pick<LanguageContent, 'postFiles'>, id: number): TextFiles | undefined => content.postFiles && (content.postFiles[id] ?? NO_FILES);

/** Every picture a post shows: its own and those of its text. */
export const postPictures = (post: Post, files: TextFiles, mediaBase: string): string[] =>
  typeof post.imageUrl === 'string' && post.imageUrl ? [pictureUrl(post.imageUrl, mediaBase), ...files.textPictures] : files.textPictures;

/**
 * The files of every editor's text of a snapshot (or of `texts`, some of them), text by text: a post's as the pull
 * kept them (`kept`), when it found them against this media base; any other text's found now.
 */
export function* snapshotTextFiles(
  snapshot: Snapshot,
  mediaBase: string,
  texts: Iterable<SnapshotText> = snapshotTexts(snapshot),
): Generator<{ item: string; language: keyof Snapshot['languages']; html: () => string; files: TextFiles; kept: boolean }> {
  const keptHere = snapshot.postFilesFoundWith?.mediaBase === mediaBase;
  for (const { item, language, html, postId } of texts) {
    const files = keptHere && postId !== undefined ? filesOfPost(snapshot.languages[language], postId) : undefined;
    yield { item, language, html, files: files ?? findTextFiles(html(), mediaBase), kept: files !== undefined };
  }
}
