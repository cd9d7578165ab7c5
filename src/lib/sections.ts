/**
 * Post sections that share one list layout and one detail layout: where each
 * lives, which post list feeds it, and its truncation lengths (§9).
 */
import type { PostTypeName } from '../api/types.ts';
import { TRUNCATE } from '../constants.ts';
import type { MessageKey } from '../i18n/t.ts';

export interface PostSection {
  list: PostTypeName;
  path: string;
  titleKey: MessageKey;
  titleMax: number;
  briefMax: number;
}

export const SECTIONS = {
  news: { list: 'news', path: '/news', titleKey: 'news.title', titleMax: TRUNCATE.newsListTitle, briefMax: TRUNCATE.newsListBrief },
} as const satisfies Record<string, PostSection>;

/** `/news` for page 1, `/news/page/N` after it. */
export function listPagePath(section: PostSection, page: number): string {
  return page <= 1 ? section.path : `${section.path}/page/${page}`;
}
