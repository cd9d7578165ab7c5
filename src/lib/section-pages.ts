/** getStaticPaths of the post sections, shared by their route files. */
import { contentFor } from '../content/store.ts';
import { perLanguage } from './paths.ts';
import { SECTION_LIST, type PostSection } from './sections.ts';

/** Page 1 of a section's list, in every language. */
export const sectionIndexPaths = (section: PostSection) =>
  perLanguage((lang) => {
    const pages = contentFor(lang).lists[section.list];
    return [{ params: {}, props: { section, ids: section.paginated ? (pages[0] ?? []) : pages.flat(), pageCount: pages.length } }];
  });

/** Pages 2…N of every paginated section. */
export const sectionPagePaths = () =>
  perLanguage((lang) =>
    SECTION_LIST.filter((s) => s.paginated).flatMap((section) => {
      const pages = contentFor(lang).lists[section.list];
      return pages.slice(1).map((ids, i) => ({
        params: { section: section.slug, page: String(i + 2) },
        props: { section, ids, page: i + 2, pageCount: pages.length },
      }));
    }),
  );

/** Every post's detail page in every section. */
export const sectionDetailPaths = () =>
  perLanguage((lang) =>
    SECTION_LIST.flatMap((section) =>
      contentFor(lang).lists[section.list].flat().map((id) => ({ params: { section: section.slug, id: String(id) }, props: { section, id } })),
    ),
  );
