/**
 * The search page's results (SearchPage.astro): the query from `?q=`, searched in the API in the page's
 * language. When the API fails, or has not answered within SEARCH_FALLBACK_MS, or the device is offline, the
 * site's own index answers instead (./search-index.ts), and the page says that the newest items may be missing.
 * Results are text, never HTML. When neither can answer, the page says so where the results would be.
 */
import { createApiClient } from '../../api/client.ts';
import { SEARCH_FALLBACK_MS } from '../../constants.ts';
import { languageByNumber, type Language, type LangNumber } from '../../i18n/languages.ts';
import { siteAddress } from '../../lib/base-path.ts';
import { formatDate } from '../../lib/text.ts';
import { DAYS_FILE, indexFolder, readDays, searchIndex, type DaysFile, type ReadIndexFile } from './search-index.ts';
import { describeIndexResults, describeOutcome, type Answer, type SearchPageMessages } from './search-results.ts';

function element<K extends keyof HTMLElementTagNameMap>(tag: K, text: string, className?: string): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  el.textContent = text;
  if (className) el.className = className;
  return el;
}

const indexReader =
  (lang: Language): ReadIndexFile =>
  async (name) => {
    const response = await fetch(siteAddress(`${indexFolder(lang.code)}${name}`));
    if (!response.ok) throw new Error(`${name}: HTTP ${response.status}`);
    return response.json();
  };

/** The API's answer if it comes in time; otherwise the first of the index's and the API's. */
async function answer(query: string, lang: Language, api: string, m: SearchPageMessages): Promise<Answer> {
  const read = indexReader(lang);
  const fromApi = createApiClient({ baseUrl: api, retries: 1, timeoutMs: 10_000 })
    .search(query, lang.number)
    .then((outcome) => describeOutcome(outcome, query, lang, m));
  const fromIndex = () => searchIndex(query, read).then((results) => describeIndexResults(results, query, m));
  if (navigator.onLine === false) return Promise.any([fromIndex(), fromApi]);
  const late = Symbol('late');
  const first = await Promise.race([fromApi.catch(() => null), new Promise<typeof late>((ok) => setTimeout(ok, SEARCH_FALLBACK_MS, late))]);
  if (first && first !== late) return first;
  return Promise.any([fromIndex(), fromApi]);
}

/** The API gives its results no date: the index's list of days does, once it has arrived. */
async function dateResults(list: HTMLElement, lang: Language): Promise<void> {
  const days = readDays((await indexReader(lang)(DAYS_FILE)) as DaysFile);
  for (const time of list.querySelectorAll<HTMLTimeElement>('time[data-n]:empty')) {
    const day = days.get(Number(time.dataset.n));
    if (day) {
      time.dateTime = day;
      time.textContent = formatDate(day, lang);
    }
  }
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
  let shown: Answer;
  try {
    shown = await answer(query, lang, page.dataset.api ?? '', m);
  } catch (error) {
    console.error(error);
    const alert = element('p', m['search.error'], 'search-page__error');
    alert.setAttribute('role', 'alert');
    out.replaceChildren(alert);
    return;
  }
  const list = document.createElement('ul');
  for (const item of shown.items) {
    const link = element('a', item.title);
    link.href = item.href;
    const time = element('time', item.day ? (formatDate(item.day, lang) ?? '') : '');
    time.dataset.n = String(item.n);
    if (item.day) time.dateTime = item.day;
    const meta = element('span', item.type, 'search-page__type');
    meta.append(time);
    const li = document.createElement('li');
    li.append(link, meta);
    list.append(li);
  }
  const note = shown.note ? [element('p', shown.note, 'search-page__note')] : [];
  out.replaceChildren(element('h2', shown.heading), ...note, ...(shown.items.length ? [list] : []));
  if (shown.note) return;
  dateResults(list, lang).catch(() => undefined);
  // The parts of the index this search reads are kept by the service worker: the same search then answers
  // offline. A few kilobytes, never on a connection that asks to save data.
  if (!(navigator as { connection?: { saveData?: boolean } }).connection?.saveData) searchIndex(query, indexReader(lang)).catch(() => undefined);
}
