/**
 * The search page's results (SearchPage.astro): the query from `?q=`, searched in the API in the page's language.
 * Results are text, never HTML. A failed search says so where the results would be.
 */
import { ApiError, createApiClient } from '../../api/client.ts';
import { languageByNumber, type LangNumber } from '../../i18n/languages.ts';
import { describeOutcome, type SearchPageMessages } from './search-results.ts';

function element<K extends keyof HTMLElementTagNameMap>(tag: K, text: string, className?: string): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  el.textContent = text;
  if (className) el.className = className;
  return el;
}

export async function showSearch(): Promise<void> {
  const page = document.querySelector<HTMLElement>('[data-search-page]');
  const input = page?.querySelector<HTMLInputElement>('input[name="q"]');
  const out = page?.querySelector<HTMLElement>('[data-search-results]');
  if (!page || !input || !out) return;
  const q = new URLSearchParams(location.search).get('q');
  // No search asked for yet: the field waits, focused.
  if (q === null) {
    input.focus();
    return;
  }
  input.value = q;
  const query = q.trim();
  const lang = languageByNumber(Number(page.dataset.lang) as LangNumber)!;
  const m = JSON.parse(page.dataset.messages ?? '{}') as SearchPageMessages;
  out.replaceChildren(element('p', m['search.searching']));
  try {
    const outcome = await createApiClient({ baseUrl: page.dataset.api ?? '', retries: 1, timeoutMs: 10_000 }).search(query, lang.number);
    const { heading, items } = describeOutcome(outcome, query, lang, m);
    const list = document.createElement('ul');
    for (const item of items) {
      const link = element('a', item.title);
      link.href = item.href;
      const li = document.createElement('li');
      li.append(link, element('span', item.type, 'search-page__type'));
      list.append(li);
    }
    out.replaceChildren(element('h2', heading), ...(items.length ? [list] : []));
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    const alert = element('p', m['search.error'], 'search-page__error');
    alert.setAttribute('role', 'alert');
    out.replaceChildren(alert);
  }
}
