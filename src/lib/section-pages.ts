/** getStaticPaths of the post sections, shared by their route files. */
import type { Post, PostSummary } from '../api/types.ts';
import { contentFor, postsOf } from '../content/store.ts';
import { summaryOf as summary, type LanguageContent } from '../content/snapshot.ts';
import { LANGUAGES, localizePath } from '../i18n/languages.ts';
import { fragmentName } from './fragments.ts';
import { listPagination } from './list-pagination.ts';
import { encodeApiPages } from '../features/nearest-list-page/old-page-numbers.ts';
import { perLanguage, POST_HOMES, postPath } from './paths.ts';
import { SECTION_LIST, SECTIONS, type PostSection } from './sections.ts';

/** The newest first, as a page shows them: the layout keeps each page oldest first (list-pagination.ts). */
const newestFirst = (content: LanguageContent, ids: readonly number[]) => postsOf(content, [...ids].reverse()).map(summary);

/** The numbered pages of a section's list: every page of its layout but the last, the newest posts. */
export const numberedPages = (content: LanguageContent, section: PostSection) => content.listPages[section.list].slice(0, -1);

/** Every post of a section that is not paginated (announcements), at the list's own address. */
export const sectionIndexPaths = (section: PostSection) =>
  perLanguage((_lang, content) => [{ params: {}, props: { section, posts: postsOf(content, content.lists[section.list].flat()).map(summary) } }]);

/** The first page of a paginated list (`/news`), the newest posts, with where each of the API's old page numbers begins (old-page-numbers.ts). */
export const listFirstPagePaths = (section: PostSection) =>
  perLanguage((_lang, content) => {
    const pages = content.listPages[section.list];
    const numbered = pages.length - 1;
    return [
      {
        params: {},
        props: {
          section,
          posts: newestFirst(content, pages.at(-1) ?? []),
          pagination: listPagination('newest', numbered),
          oldPageNumbers: { apiPages: encodeApiPages(content.lists[section.list], pages), numbered },
        },
      },
    ];
  });

/** The numbered pages `/news/page/N` of every paginated section, N = 1 the oldest posts. */
export const sectionPagePaths = () =>
  perLanguage((_lang, content) =>
    SECTION_LIST.filter((s) => s.paginated).flatMap((section) => {
      const pages = numberedPages(content, section);
      return pages.map((ids, i) => ({
        params: { section: section.slug, page: String(i + 1) },
        props: { section, posts: newestFirst(content, ids), pagination: listPagination(i + 1, pages.length) },
      }));
    }),
  );

/**
 * The side lists beside a section's posts: `latest`, the latest posts now, beside the posts of the list's first
 * page; `settled`, the latest as the last full pull read them (snapshot.ts), beside every older post.
 */
const SIDE_LISTS = {
  latest: (content: LanguageContent, section: PostSection) => postsOf(content, content.lists[section.list][0] ?? []).map(summary),
  settled: (content: LanguageContent, section: PostSection) => content.settledLatest[section.list],
};
type SideList = keyof typeof SIDE_LISTS;

/**
 * The section is the route's `section` parameter (`sectionOfSlug`), not a prop: a post's page is then made of its post
 * and the name of its side list alone, so that its key is told by those (src/content/cache-key.ts `madeFromKey`).
 */
export type SectionDetailProps =
  /** A post among the latest shows the list without itself; every other post the shared fragment of that name. */
  | { post: Post; latest: PostSummary[] }
  | { post: Post; latestFragment: string }
  /** `/news/{id}` of a post that is not news: a redirect page to where it is shown (`to`, unprefixed). */
  | { redirect: { to: string; title: string } }
  /** A post deleted since the nightly full pull, still named in the settled side list: its address says it was removed. */
  | { removed: PostSummary };

/** The posts named in a settled side list that its section no longer has, and that no redirect page (`redirects`) stands for. */
function removedPosts(content: LanguageContent, redirects: readonly { id: number }[]): { section: PostSection; post: PostSummary }[] {
  const redirected = new Set(redirects.map((r) => r.id));
  return SECTION_LIST.flatMap((section) => {
    const present = new Set(content.lists[section.list].flat());
    return content.settledLatest[section.list]
      .filter((post) => !present.has(post.id) && !(section === SECTIONS.news && redirected.has(post.id)))
      .map((post) => ({ section, post }));
  });
}

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
 * The side list: a post on its list's first page shows the latest posts, an older post the settled list (SIDE_LISTS),
 * so a new post changes the side list of the first page's posts only, and the archive's pages keep their bytes
 * until the nightly full pull. A post that is itself in its list shows the list without itself, so its page
 * carries that list; every other page shows the same list, a shared fragment (src/lib/fragments.ts), and its
 * key leaves the list out: a new post re-renders one fragment, not every page.
 *
 * The settled list is what the nightly pull saw, word for word: a post deleted since is still named there until
 * that night, and its address is a page that says it was removed, so that the link still leads somewhere and the
 * archive's pages keep their bytes.
 */
export const sectionDetailPaths = () =>
  perLanguage<{ section: string; id: string }, SectionDetailProps>((lang, content) => {
    const redirects = postRedirects(content);
    return [
      ...SECTION_LIST.flatMap((section) => {
        const firstPage = new Set(content.listPages[section.list].at(-1));
        const side = (kind: SideList) => ({ posts: SIDE_LISTS[kind](content, section), fragment: fragmentName(`${kind}-${section.slug}`, lang) });
        const sides = { latest: side('latest'), settled: side('settled') };
        return content.lists[section.list].flat().map((id) => {
          const side = sides[firstPage.has(id) ? 'latest' : 'settled'];
          return {
            params: { section: section.slug, id: String(id) },
            props: {
              post: content.posts[id]!,
              ...(side.posts.some((p) => p.id === id) ? { latest: side.posts.filter((p) => p.id !== id) } : { latestFragment: side.fragment }),
            },
          };
        });
      }),
      ...removedPosts(content, redirects).map(({ section, post }) => ({ params: { section: section.slug, id: String(post.id) }, props: { removed: post } })),
      ...redirects.map(({ id, to, title }) => ({
        params: { section: SECTIONS.news.slug, id: String(id) },
        props: { redirect: { to, title } },
      })),
    ];
  });

/** The localised paths of those redirect pages and of the removed posts' pages, which the sitemap leaves out (they are noindex). */
export function unlistedPostPaths(): string[] {
  return LANGUAGES.flatMap((lang) => {
    const content = contentFor(lang);
    const redirects = postRedirects(content);
    return [...redirects.map(({ id }) => postPath(SECTIONS.news, id)), ...removedPosts(content, redirects).map(({ section, post }) => postPath(section, post.id))].map((path) =>
      localizePath(lang, path),
    );
  });
}

/** The shared side lists of every section (SIDE_LISTS), in every language. */
export const sideListFragmentPaths = () =>
  perLanguage((_lang, content) =>
    SECTION_LIST.flatMap((section) =>
      (Object.keys(SIDE_LISTS) as SideList[]).map((kind) => ({
        params: { kind, section: section.slug },
        props: { section, latest: SIDE_LISTS[kind](content, section) },
      })),
    ),
  );
