/**
 * What the site's own search index holds of a language (src/features/search/search-index.ts): every post of
 * every list, at the address its link on the site has, and every content page of the menu, named as the menu
 * names it.
 */
import { decodeHTML } from 'entities';
import type { PostTypeName } from '../api/types.ts';
import type { LanguageContent } from '../content/snapshot.ts';
import { documentNumber, type SearchDocument } from '../features/search/search-index.ts';
import { localizePath, type Language } from '../i18n/languages.ts';
import { t, type MessageKey } from '../i18n/t.ts';
import { contentPagePath, POST_HOMES, postPath } from './paths.ts';
import { SECTIONS } from './sections.ts';
import { isoDay } from './text.ts';

/** What a result of each list is called. */
const TYPE_OF_LIST: Readonly<Record<PostTypeName, MessageKey>> = {
  news: 'search.typeNews',
  announcements: 'announcements.title',
  lectures: 'lectures.title',
  visitingReceptions: 'visits.title',
  historicalPersons: 'persons.title',
};

/** The words of an editor's HTML: markup out, entities read. Only the index reads it, never a page. */
export const wordsOfHtml = (html: string) => decodeHTML(html.replace(/<[^>]*>/g, ' '));

/**
 * A document of the index with what it is made from: `source` changes whenever the document would (a post by its
 * digest from the pull and its list; a content page by its title and text), so an index kept from an earlier
 * build needs only the documents whose source changed (scripts/pipeline/search-index/). Undefined when the
 * snapshot has no digest of the post (a snapshot of an earlier version): the document is then made anew.
 */
export interface SearchSource {
  number: number;
  source: string | undefined;
  document: () => SearchDocument;
}

/** Every document of a language's index, made only when asked for. */
export function searchSources(lang: Language, content: LanguageContent): SearchSource[] {
  const sources: SearchSource[] = [];
  const seen = new Set<number>();
  for (const list of Object.keys(TYPE_OF_LIST) as PostTypeName[]) {
    const type = t(lang, TYPE_OF_LIST[list]);
    for (const id of new Set(content.lists[list].flat())) {
      const post = content.posts[id];
      if (!post || seen.has(id)) continue;
      seen.add(id);
      const digest = content.postDigests?.[id];
      sources.push({
        number: documentNumber('post', id),
        source: digest && `${list} ${digest}`,
        document: () => ({
          kind: 'post',
          id,
          title: post.title,
          href: localizePath(lang, list === 'news' ? postPath(SECTIONS.news, id) : POST_HOMES[list](id)),
          type,
          day: isoDay(post.date) ?? null,
          text: `${post.brief} ${wordsOfHtml(post.html)}`,
        }),
      });
    }
  }
  const pageTitles = new Map(content.menus.flatMap((g) => g.items).flatMap((i) => (i.target.kind === 'page' ? [[i.target.pageId, i.title] as const] : [])));
  for (const page of Object.values(content.pages)) {
    const title = pageTitles.get(page.id);
    if (!title) continue;
    sources.push({
      number: documentNumber('page', page.id),
      source: `page ${JSON.stringify([title, page.html])}`,
      document: () => ({
        kind: 'page',
        id: page.id,
        title,
        href: localizePath(lang, contentPagePath(page.id)),
        type: t(lang, 'search.typePage'),
        day: null,
        text: wordsOfHtml(page.html),
      }),
    });
  }
  return sources;
}
