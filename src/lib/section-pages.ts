/** getStaticPaths of the post sections, shared by their route files. */
import { postsOf, summaryOf as summary } from '../content/store.ts';
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

/** Every post's detail page in every section, with the latest posts of its category beside it. */
export const sectionDetailPaths = () =>
  perLanguage((_lang, content) =>
    SECTION_LIST.flatMap((section) => {
      const latest = postsOf(content, content.lists[section.list][0] ?? []).map(summary);
      return content.lists[section.list].flat().map((id) => ({
        params: { section: section.slug, id: String(id) },
        props: { section, post: content.posts[id]!, latest },
      }));
    }),
  );
