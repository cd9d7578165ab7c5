/**
 * Where things live on the site.
 *
 * getStaticPaths for every route: each page exists once per language, the
 * default language unprefixed (`/news`) and the others under their prefix
 * (`/ru/news`). A route gives, per language, its params and the props it
 * renders; its incremental-build key is made here from those, the pictures
 * they name, the language and the language's menu, which every page shows through its context
 * (src/lib/page-context.ts, derived from the same URL), so a route states its
 * inputs exactly once.
 *
 * The language-neutral path of every post, list page, content page and photo
 * group (`localizePath` adds the language's prefix): every link to one of
 * them, and every id such a link points at, is made here, so a link and its
 * target cannot drift apart.
 */
import { contentFor, postFilesFoundWith } from '../content/store.ts';
import { filesOfPost, postPictures, type TextFiles } from '../content/text-files.ts';
import { madeFromKey, pageKeys } from '../content/cache-key.ts';
import { unlistedPages } from '../content/unlisted-pages.ts';
import { documentMap, documentsNamedBy } from '../content/documents/map.ts';
import { pictureMap, picturesNamedBy } from '../content/pictures/map.ts';
import { readConfig } from '../config.ts';
import { isSummaryOf, type LanguageContent } from '../content/snapshot.ts';
import { LANGUAGES, type Language } from '../i18n/languages.ts';
import type { Post, PostTypeName } from '../api/types.ts';
import { SECTIONS, type PostSection } from './sections.ts';
import type { ListPage } from './list-pagination.ts';

/** What a summary shows of its post's text: no file. */
const NO_TEXT_FILES: TextFiles = { textPictures: [], documents: [] };

/** The `[...lang]` route parameter of a language: undefined for the unprefixed default. */
export function langParam(lang: Language): string | undefined {
  return lang.prefix || undefined;
}

export function perLanguage<P extends Record<string, string | number | undefined>, X extends object>(
  each: (lang: Language, content: LanguageContent) => { params: P; props: X }[],
) {
  const pictures = pictureMap();
  const documents = documentMap();
  const { mediaBase } = readConfig();
  const foundWith = postFilesFoundWith();
  const filesFoundHere = foundWith?.mediaBase === mediaBase;
  const take = unlistedPages();
  return LANGUAGES.flatMap((lang) => {
    const content = contentFor(lang);
    const postWithIdOf = (value: object): Post | undefined => {
      const id = (value as { id?: unknown }).id;
      return typeof id === 'number' ? content.posts[id] : undefined;
    };
    // A post is known by being the very object the snapshot holds under its id, which routes put in their props.
    const snapshotPost = (value: object): Post | undefined => {
      const post = postWithIdOf(value);
      return post === value ? post : undefined;
    };
    // A snapshot post's summary (lists, side lists) shows its post's picture and no file of its text: 40,000 of
    // them on 4,000 list pages at 10,000 news a language were walked string by string for pictures. (Its key is
    // still its own text: the post's digest covers the body, which a summary does not show.)
    const summaryOfPost = (value: object): Post | undefined => {
      const post = postWithIdOf(value);
      return post && isSummaryOf(value, post) ? post : undefined;
    };
    const pageKey = pageKeys([lang.code, content.menus], (value) => {
      const post = snapshotPost(value);
      return post && content.postDigests?.[post.id];
    });
    // The files the pull found in a post, when it found them against this media base: its text is not searched again.
    const filesOf = (value: object) => {
      const post = snapshotPost(value);
      return post && filesFoundHere ? filesOfPost(content, post.id) : undefined;
    };
    const knownPictures = (value: object) => {
      const files = filesOf(value);
      if (files) return postPictures(value as Post, files, mediaBase);
      const summarised = summaryOfPost(value);
      return summarised && postPictures(summarised, NO_TEXT_FILES, mediaBase);
    };
    const knownDocuments = (value: object) => filesOf(value)?.documents ?? (summaryOfPost(value) ? [] : undefined);
    // The side list's fragment name, on every post's page: each string is looked for files once.
    const namesNoFile = new Map<string, boolean>();
    const plain = (text: string) => {
      let none = namesNoFile.get(text);
      if (none === undefined) namesNoFile.set(text, (none = !picturesNamedBy(text, pictures, mediaBase).length && !documentsNamedBy(text, documents, mediaBase).length));
      return none;
    };
    /**
     * What a page is made from when each of its props is a plain value that names no file, or a post the pull has
     * hashed and found the files of (each then looked up, so that one its map lacks is known), said as its key says
     * them (the post by its digest); else undefined. Such a page's key is `madeFromKey`'s.
     */
    const madeFrom = (props: object): string | undefined => {
      let made = '';
      for (const [name, value] of Object.entries(props)) {
        if (typeof value === 'object' && value !== null) {
          const post = filesFoundHere ? snapshotPost(value) : undefined;
          const digest = post && content.postDigests?.[post.id];
          if (!digest) return undefined;
          made += ` ${name}#${digest}`;
        } else if (typeof value === 'string' ? !plain(value) : typeof value === 'function' || typeof value === 'symbol' || typeof value === 'bigint') {
          return undefined;
        } else made += ` ${name}=${JSON.stringify(value)}`;
      }
      return made;
    };
    // The files of a post are as the pull's code found them: another finding (new code, the same post) finds others.
    const basis = `${pageKey.basis} ${JSON.stringify(foundWith ?? null)}`;
    const listed = each(lang, content);
    const offered = take ? offeredPages(listed) : [];
    return listed.flatMap(({ params, props }, i) => {
      const page = { lang: langParam(lang), ...params };
      const asListed = offered[i];
      const made = madeFrom(props);
      const kept = made === undefined ? undefined : madeFromKey(basis, asListed ?? JSON.stringify(params), made);
      if (asListed && kept && take!.madeFrom?.(kept.madeFrom, page)) return [];
      let missing = false;
      const lacking = () => void (missing = true);
      // The drawn pictures it shows too (a photograph replaced at the same URL gets new files), and the
      // documents it links to (their size is shown beside the link).
      const files = [...picturesNamedBy(props, pictures, mediaBase, knownPictures, lacking), ...documentsNamedBy(props, documents, mediaBase, knownDocuments, lacking)];
      // A page naming a file the map lacks keeps a key of one part: the file may come without any the map had changing.
      const cacheKey = kept && !missing ? kept.withFiles(files) : pageKey(params, props, files);
      if (asListed && take!(cacheKey, page)) return [];
      return [{ params: page, props, cacheKey }];
    });
  });
}

/**
 * Which pages of a route in a language the build may take as they are (src/content/unlisted-pages.ts): their
 * parameters as JSON, in the order listed, undefined for those it may not. Only a page with parameters of the route's
 * own is offered: every route's set of parameter names differs, so its key is no other route's page's (a page of the
 * language alone, such as /search, has the same key on every route). A page listed twice is left to Astro, which
 * keeps the first, as in a cold build.
 */
function offeredPages(pages: readonly { params: Record<string, unknown> }[]): (string | undefined)[] {
  const ownParams = (params: Record<string, unknown>) => {
    for (const name in params) if (name !== 'lang') return true;
    return false;
  };
  const asListed = pages.map(({ params }) => (ownParams(params) ? JSON.stringify(params) : undefined));
  const times = new Map<string, number>();
  for (const listed of asListed) if (listed !== undefined) times.set(listed, (times.get(listed) ?? 0) + 1);
  // Each offered page by its parameters as listed (JSON), which its key covers.
  return asListed.map((listed) => (listed !== undefined && times.get(listed) === 1 ? listed : undefined));
}

/** A route with one page per language and nothing but the menu to show. */
export const onePerLanguage = () => perLanguage(() => [{ params: {}, props: {} }]);

export function sectionPath(section: PostSection): string {
  return `/${section.slug}`;
}

/** `/news` for the list's first page (the newest posts), `/news/page/N` for numbered page N (src/lib/list-pagination.ts). */
export function listPagePath(section: PostSection, page: ListPage): string {
  return page === 'newest' ? sectionPath(section) : `${sectionPath(section)}/page/${page}`;
}

/** A post's detail page in its section: `/news/5`. */
export const postPath = (section: PostSection, id: number) => `${sectionPath(section)}/${id}`;

/** A content page of the menu: `/page/5`. */
export const contentPagePath = (id: number) => `/page/${id}`;

/** The id of a photo group's heading on `/gallery/photo`, which the home page's albums link to. */
export const photoGroupId = (id: number) => `photo-group-${id}`;
export const photoGroupPath = (id: number) => `/gallery/photo#${photoGroupId(id)}`;

/** The ids of the cards on the pages that show their posts whole (no detail page). */
export const visitingReceptionId = (id: number) => `post-${id}`;
export const historicalPersonId = (id: number) => `person-${id}`;

/**
 * Where each kind of post that is not a news item is shown, for the redirect
 * from `/news/{id}`: search hits link every post that is not a page to
 * `news/{id}` (docs/rules.md, Search), so every post id needs a page there. Sections with a
 * detail page go to it; the visiting receptions and historical figures, which
 * are shown whole on one list, go to their card on it.
 */
export const POST_HOMES: Readonly<Record<Exclude<PostTypeName, 'news'>, (id: number) => string>> = {
  announcements: (id) => postPath(SECTIONS.announcements, id),
  lectures: (id) => postPath(SECTIONS.lectures, id),
  visitingReceptions: (id) => `/sayyor_qabullar#${visitingReceptionId(id)}`,
  historicalPersons: (id) => `/tarixiy_shaxslar#${historicalPersonId(id)}`,
};
