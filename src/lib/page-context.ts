/**
 * What every component of a page needs to know about the page it is on: its
 * language, its language-neutral path, the menu of its language and the
 * language's `t`. Built once per page from the page's URL and kept on
 * `Astro.locals` (as Starlight keeps its route data there), so no component
 * takes `lang`, `path` or `menus` by hand.
 *
 * The incremental-build key still covers all of it: the URL is the route's
 * params, and `perLanguage` (src/lib/paths.ts) keys every page on its
 * language and that language's menu.
 */
import type { NavGroup } from '../api/types.ts';
import { contentFor } from '../content/store.ts';
import { splitLocalizedPath, type Language } from '../i18n/languages.ts';
import { pickMessages, t, type MessageKey } from '../i18n/t.ts';

export interface PageContext {
  lang: Language;
  /** The page's language-neutral path, e.g. `/news/5` on `/ru/news/5/`. */
  path: string;
  menus: NavGroup[];
  t: (key: MessageKey, vars?: Record<string, string | number>) => string;
  /** The strings an island needs, in this page's language. */
  messages: <K extends MessageKey>(keys: readonly K[]) => Record<K, string>;
}

function contextOf(url: URL): PageContext {
  const { lang, path } = splitLocalizedPath(url.pathname);
  return {
    lang,
    path: path.length > 1 ? path.replace(/\/+$/, '') : path,
    menus: contentFor(lang).menus,
    t: (key, vars) => t(lang, key, vars),
    messages: (keys) => pickMessages(lang, keys),
  };
}

/** The context of the page being rendered; pass `Astro`. */
export function pageContext(astro: { url: URL; locals: App.Locals }): PageContext {
  return (astro.locals.page ??= contextOf(astro.url));
}
