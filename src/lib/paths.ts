/**
 * getStaticPaths for every route: each page exists once per language, the
 * default language unprefixed (`/news`) and the others under their prefix
 * (`/ru/news`). A route gives, per language, its params and the props it
 * renders; its incremental-build key is made here from those props and the
 * menu of the language (every page shows the menu), so a route states its
 * inputs exactly once.
 */
import { contentFor } from '../content/store.ts';
import { pageKey } from '../content/cache-key.ts';
import type { LanguageContent } from '../content/snapshot.ts';
import { LANGUAGES, type Language } from '../i18n/languages.ts';

/** The `[...lang]` route parameter of a language: undefined for the unprefixed default. */
export function langParam(lang: Language): string | undefined {
  return lang.prefix || undefined;
}

export function perLanguage<P extends Record<string, string | number | undefined>, X extends object>(
  each: (lang: Language, content: LanguageContent) => { params: P; props: X }[],
) {
  return LANGUAGES.flatMap((lang) => {
    const content = contentFor(lang);
    return each(lang, content).map(({ params, props }) => ({
      params: { lang: langParam(lang), ...params },
      props: { lang, menus: content.menus, ...props },
      cacheKey: pageKey(lang.code, params, content.menus, props),
    }));
  });
}

/** A route with one page per language and nothing but the menu to show. */
export const onePerLanguage = () => perLanguage(() => [{ params: {}, props: {} }]);
