/**
 * Post sections that share one list layout and one detail layout: where each
 * lives, which post list feeds it, and how much of its titles and briefs a card shows (docs/rules.md, Text truncation).
 */
import type { PostTypeName } from '../api/types.ts';
import { TITLE_LINES, TRUNCATE, type TitleLines } from '../constants.ts';
import type { MessageKey } from '../i18n/t.ts';

export interface PostSection {
  /** The URL segment, e.g. `news` for `/news` and `/news/5`. */
  slug: string;
  list: PostTypeName;
  titleKey: MessageKey;
  /** Lines of a title a card shows (the whole title stays in the page). */
  titleLines: TitleLines;
  briefMax: number;
  /** Paginated sections have `/slug/page/N`; the others list every post on one page. */
  paginated: boolean;
}

export const SECTIONS = {
  news: { slug: 'news', list: 'news', titleKey: 'news.title', titleLines: TITLE_LINES.newsList, briefMax: TRUNCATE.newsListBrief, paginated: true },
  lectures: {
    slug: 'official-lectures',
    list: 'lectures',
    titleKey: 'lectures.title',
    titleLines: TITLE_LINES.newsList,
    briefMax: TRUNCATE.newsListBrief,
    paginated: true,
  },
  announcements: {
    slug: 'announcements-and-tenders',
    list: 'announcements',
    titleKey: 'announcements.title',
    titleLines: TITLE_LINES.announcement,
    briefMax: TRUNCATE.announcementBrief,
    paginated: false,
  },
} as const satisfies Record<string, PostSection>;

export const SECTION_LIST: readonly PostSection[] = Object.values(SECTIONS);

/** The section at `/{slug}`; throws for a slug no section has (a route's parameter is one of theirs). */
export function sectionOfSlug(slug: string | undefined): PostSection {
  const section = SECTION_LIST.find((s) => s.slug === slug);
  if (!section) throw new Error(`no section is at /${String(slug)}`);
  return section;
}
