/**
 * getStaticPaths helpers: every page exists once per language, the default
 * language unprefixed (`/news`) and the others under their prefix (`/ru/news`).
 */
import { LANGUAGES, type Language } from '../i18n/languages.ts';

/** The `[...lang]` route parameter of a language: undefined for the unprefixed default. */
export function langParam(lang: Language): string | undefined {
  return lang.prefix || undefined;
}

export function perLanguage<P extends Record<string, string | number | undefined>, X extends object>(
  each: (lang: Language) => { params: P; props: X }[],
) {
  return LANGUAGES.flatMap((lang) =>
    each(lang).map(({ params, props }) => ({ params: { lang: langParam(lang), ...params }, props: { lang, ...props } })),
  );
}
