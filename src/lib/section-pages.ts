/** getStaticPaths of the post sections, shared by their route files. */
import { postsOf, summaryOf as summary } from '../content/store.ts';
import { fragmentName } from './fragments.ts';
import { perLanguage } from './paths.ts';
import { SECTION_LIST, type PostSection } from './sections.ts';

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
const latestOf = (content: Parameters<typeof postsOf>[0], section: PostSection) =>
  postsOf(content, content.lists[section.list][0] ?? []).map(summary);

/**
 * Every post's detail page in every section, with the latest posts of its
 * category beside it. A post that is itself among the latest shows the list
 * without itself, so its page carries that list; every other page shows the
 * same list, the section's shared fragment (src/lib/fragments.ts), and its key
 * leaves the list out: a new post re-renders one fragment, not every page.
 */
export const sectionDetailPaths = () =>
  perLanguage((lang, content) =>
    SECTION_LIST.flatMap((section) => {
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
  );

/** The shared latest-posts fragment of every section, in every language. */
export const latestFragmentPaths = () =>
  perLanguage((_lang, content) =>
    SECTION_LIST.map((section) => ({
      params: { section: section.slug },
      props: { section, latest: latestOf(content, section) },
    })),
  );
