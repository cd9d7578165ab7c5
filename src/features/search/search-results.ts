/** What the search page says about a search: the results' heading and items, or why there are none. */
import type { SearchOutcome } from '../../api/types.ts';
import { format } from '../../i18n/format.ts';
import { localizePath, type Language } from '../../i18n/languages.ts';
import type { MessageKey } from '../../i18n/t.ts';

export const SEARCH_PAGE_MESSAGES = [
  'search.results',
  'search.nothing',
  'search.error',
  'search.searching',
  'search.typeNews',
  'search.typePage',
] as const satisfies readonly MessageKey[];
export type SearchPageMessages = Record<(typeof SEARCH_PAGE_MESSAGES)[number], string>;

export interface ResultItem {
  title: string;
  href: string;
  type: string;
}

/** The heading of an answer, and its items: results link to page/{id} when they are pages, otherwise to news/{id}. */
export function describeOutcome(outcome: SearchOutcome, query: string, lang: Language, m: SearchPageMessages): { heading: string; items: ResultItem[] } {
  if (outcome.kind === 'message') return { heading: outcome.message, items: [] };
  if (!outcome.results.length) return { heading: format(m['search.nothing'], { query }), items: [] };
  return {
    heading: format(m['search.results'], { n: outcome.results.length }),
    items: outcome.results.map((r) => ({
      title: r.title,
      href: localizePath(lang, r.isPage ? `/page/${r.id}` : `/news/${r.id}`),
      type: m[r.isPage ? 'search.typePage' : 'search.typeNews'],
    })),
  };
}
