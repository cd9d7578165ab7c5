/** What the search page says about a search: the results' heading and items, or why there are none. */
import type { SearchOutcome } from '../../api/types.ts';
import { format } from '../../i18n/format.ts';
import { localizePath, type Language } from '../../i18n/languages.ts';
import type { MessageKey } from '../../i18n/t.ts';
import { documentNumber, type IndexResult } from './search-index.ts';

export const SEARCH_PAGE_MESSAGES = [
  'search.results',
  'search.nothing',
  'search.error',
  'search.searching',
  'search.typeNews',
  'search.typePage',
  'search.fromIndex',
] as const satisfies readonly MessageKey[];
export type SearchPageMessages = Record<(typeof SEARCH_PAGE_MESSAGES)[number], string>;

export interface ResultItem {
  /** The document's number in the site's index (./search-index.ts), which dates it. */
  n: number;
  title: string;
  href: string;
  type: string;
  day: string | null;
}

export interface Answer {
  heading: string;
  items: ResultItem[];
  /** Said above the results when the site's own index answered instead of the API. */
  note?: string;
}

const heading = (count: number, query: string, m: SearchPageMessages) => (count ? format(m['search.results'], { n: count }) : format(m['search.nothing'], { query }));

/** The API's answer: results link to page/{id} when they are pages, otherwise to news/{id}. */
export function describeOutcome(outcome: SearchOutcome, query: string, lang: Language, m: SearchPageMessages): Answer {
  if (outcome.kind === 'message') return { heading: outcome.message, items: [] };
  return {
    heading: heading(outcome.results.length, query, m),
    items: outcome.results.map((r) => ({
      n: documentNumber(r.isPage ? 'page' : 'post', r.id),
      title: r.title,
      href: localizePath(lang, r.isPage ? `/page/${r.id}` : `/news/${r.id}`),
      type: m[r.isPage ? 'search.typePage' : 'search.typeNews'],
      day: null,
    })),
  };
}

/** The site's own index's answer, which says that the newest items may be missing from it. */
export function describeIndexResults(results: readonly IndexResult[], query: string, m: SearchPageMessages): Answer {
  return { heading: heading(results.length, query, m), items: [...results], note: m['search.fromIndex'] };
}
