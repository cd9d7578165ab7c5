/**
 * Post sections that share one list layout and one detail layout: where each
 * lives, which post list feeds it, and its truncation lengths (§9).
 */
import type { PostTypeName } from '../api/types.ts';
import { TRUNCATE } from '../constants.ts';
import type { MessageKey } from '../i18n/t.ts';

export interface PostSection {
  /** The URL segment, e.g. `news` for `/news` and `/news/5`. */
  slug: string;
  list: PostTypeName;
  titleKey: MessageKey;
  titleMax: number;
  briefMax: number;
  /** Paginated sections have `/slug/page/N`; the others list every post on one page. */
  paginated: boolean;
}

export const SECTIONS = {
  news: { slug: 'news', list: 'news', titleKey: 'news.title', titleMax: TRUNCATE.newsListTitle, briefMax: TRUNCATE.newsListBrief, paginated: true },
  lectures: {
    slug: 'official-lectures',
    list: 'lectures',
    titleKey: 'lectures.title',
    titleMax: TRUNCATE.newsListTitle,
    briefMax: TRUNCATE.newsListBrief,
    paginated: true,
  },
  announcements: {
    slug: 'announcements-and-tenders',
    list: 'announcements',
    titleKey: 'announcements.title',
    titleMax: TRUNCATE.announcementTitle,
    briefMax: TRUNCATE.announcementBrief,
    paginated: false,
  },
} as const satisfies Record<string, PostSection>;

export const SECTION_LIST: readonly PostSection[] = Object.values(SECTIONS);

export function sectionPath(section: PostSection): string {
  return `/${section.slug}`;
}

/** `/news` for page 1, `/news/page/N` after it. */
export function listPagePath(section: PostSection, page: number): string {
  return page <= 1 ? sectionPath(section) : `${sectionPath(section)}/page/${page}`;
}

/**
 * Where each kind of post that is not a news item is shown, for the redirect
 * from `/news/{id}`: search hits link every post that is not a page to
 * `news/{id}` (§2), so every post id needs a page there. Sections with a
 * detail page go to it; the visiting receptions and historical figures, which
 * are shown whole on one list, go to their card on it.
 */
export const POST_HOMES: Readonly<Record<Exclude<PostTypeName, 'news'>, (id: number) => string>> = {
  announcements: (id) => `/${SECTIONS.announcements.slug}/${id}`,
  lectures: (id) => `/${SECTIONS.lectures.slug}/${id}`,
  visitingReceptions: (id) => `/sayyor_qabullar#post-${id}`,
  historicalPersons: (id) => `/tarixiy_shaxslar#person-${id}`,
};
