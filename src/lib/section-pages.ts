/** getStaticPaths of the post sections, shared by their route files. */
import type { Post, PostSummary } from '../api/types.ts';
import { contentFor, postsOf, summaryOf as summary } from '../content/store.ts';
import type { LanguageContent } from '../content/snapshot.ts';
import { LANGUAGES, localizePath } from '../i18n/languages.ts';
import { fragmentName } from './fragments.ts';
import { perLanguage, POST_HOMES, postPath } from './paths.ts';
import { SECTION_LIST, SECTIONS, type PostSection } from './sections.ts';

/** Page 1 of a section's list (every post, for sections that are not paginated), in every language. */
export const sectionIndexPaths = (section: PostSection) =>
  perLanguage((_lang, content) => {
    const pages = content.lists[section.list];
    const ids = section.paginated ? (pages[0] ?? []) : pages.flat();
    return [{ params: {}, props: { section, posts: postsOf(content, ids).map(summary), pageCount: pages.length } }];
  });

/** Pages 2…N of every paginated section. */
export const sectionPagePaths = () =>
  perLanguage((_lang, content) =>
    SECTION_LIST.filter((s) => s.paginated).flatMap((section) => {
      const pages = content.lists[section.list];
      return pages.slice(1).map((ids, i) => ({
        params: { section: section.slug, page: String(i + 2) },
        props: { section, posts: postsOf(content, ids).map(summary), page: i + 2, pageCount: pages.length },
      }));
    }),
  );

/** The latest posts of a section, as its detail pages list them beside the post. */
const latestOf = (content: LanguageContent, section: PostSection) => postsOf(content, content.lists[section.list][0] ?? []).map(summary);

export type SectionDetailProps =
  /** A post among the latest shows the list without itself; every other post the shared fragment of that name. */
  | { section: PostSection; post: Post; latest: PostSummary[] }
  | { section: PostSection; post: Post; latestFragment: string }
  /** `/news/{id}` of a post that is not news: a redirect page to where it is shown (`to`, unprefixed). */
  | { section: PostSection; redirect: { to: string; title: string } };

/** `/news/{id}` → where each post that is not a news item lives, for one language's content. */
function postRedirects(content: LanguageContent): { id: number; to: string; title: string }[] {
  const news = new Set(content.lists.news.flat());
  return Object.entries(POST_HOMES).flatMap(([list, home]) =>
    content.lists[list as keyof typeof POST_HOMES]
      .flat()
      .filter((id) => !news.has(id) && content.posts[id])
      .map((id) => ({ id, to: home(id), title: content.posts[id]!.title })),
  );
}

/**
 * Every post's detail page in every section, with the latest posts of its
 * category beside it; and, at `/news/{id}`, a redirect page for every post that
 * is not news (announcements, lectures, visiting receptions, historical
 * figures), so a search hit's `news/{id}` link always arrives.
 *
 * The side list: a post that is itself among the latest shows the list without
 * itself, so its page carries that list; every other page shows the same list,
 * the section's shared fragment (src/lib/fragments.ts), and its key leaves the
 * list out: a new post re-renders one fragment, not every page.
 */
export const sectionDetailPaths = () =>
  perLanguage<{ section: string; id: string }, SectionDetailProps>((lang, content) => [
    ...SECTION_LIST.flatMap((section) => {
      const latest = latestOf(content, section);
      const shared = fragmentName(`latest-${section.slug}`, lang);
      return content.lists[section.list].flat().map((id) => ({
        params: { section: section.slug, id: String(id) },
        props: {
          section,
          post: content.posts[id]!,
          ...(latest.some((p) => p.id === id) ? { latest: latest.filter((p) => p.id !== id) } : { latestFragment: shared }),
        },
      }));
    }),
    ...postRedirects(content).map(({ id, to, title }) => ({
      params: { section: SECTIONS.news.slug, id: String(id) },
      props: { section: SECTIONS.news, redirect: { to, title } },
    })),
  ]);

/** The localised paths of those redirect pages, which the sitemap leaves out (they are noindex). */
export function postRedirectPaths(): string[] {
  return LANGUAGES.flatMap((lang) => postRedirects(contentFor(lang)).map(({ id }) => localizePath(lang, postPath(SECTIONS.news, id))));
}

/** The shared latest-posts fragment of every section, in every language. */
export const latestFragmentPaths = () =>
  perLanguage((_lang, content) =>
    SECTION_LIST.map((section) => ({
      params: { section: section.slug },
      props: { section, latest: latestOf(content, section) },
    })),
  );
