/**
 * The search page's results (SearchPage.astro): the query from `?q=`, searched in the API in the page's
 * language. When the API fails, or has not answered within SEARCH_FALLBACK_MS of Enter, or the device is
 * offline, the site's own index answers instead (./search-index.ts), and the page says that the newest items may be missing.
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

/**
 * The API's answer if it comes within SEARCH_FALLBACK_MS of Enter (the navigation to this page), otherwise the
 * first of the index's and the API's. The index is read at once, beside the API, so that its answer is ready
 * when the API fails or runs out of time: the same few kilobytes the page reads after the API's answer anyway
 * (to date its results and keep the search for offline use), except on a connection that asks to save data.
 */
async function answer(query: string, lang: Language, api: string, m: SearchPageMessages, saveData: boolean): Promise<Answer> {
  const read = indexReader(lang);
  const fromApi = createApiClient({ baseUrl: api, retries: 1, timeoutMs: 10_000 })
    .search(query, lang.number)
    .then((outcome) => describeOutcome(outcome, query, lang, m));
  let index: Promise<Answer> | undefined;
  const fromIndex = () => (index ??= searchIndex(query, read).then((results) => describeIndexResults(results, query, m)));
  if (!saveData) fromIndex().catch(() => undefined);
  if (navigator.onLine === false) return Promise.any([fromIndex(), fromApi]);
  const late = Symbol('late');
  const wait = Math.max(0, SEARCH_FALLBACK_MS - performance.now());
  const first = await Promise.race([fromApi.catch(() => null), new Promise<typeof late>((ok) => setTimeout(ok, wait, late))]);
  if (first && first !== late) return first;
  return Promise.any([fromIndex(), fromApi]);
}

function dayOf(day: string, lang: Language): HTMLTimeElement {
  const time = element('time', formatDate(day, lang) ?? day);
  time.dateTime = day;
  return time;
}

/** The API gives its results no date: the index's list of days does, once it has arrived. */
async function dateResults(list: HTMLElement, lang: Language): Promise<void> {
  const days = readDays((await indexReader(lang)(DAYS_FILE)) as DaysFile);
  for (const meta of list.querySelectorAll<HTMLElement>('[data-n]')) {
    const day = days.get(Number(meta.dataset.n));
    if (day && !meta.querySelector('time')) meta.append(dayOf(day, lang));
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
  const saveData = Boolean((navigator as { connection?: { saveData?: boolean } }).connection?.saveData);
  let shown: Answer;
  try {
    shown = await answer(query, lang, page.dataset.api ?? '', m, saveData);
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
    const meta = element('span', item.type, 'search-page__type');
    meta.dataset.n = String(item.n);
    if (item.day) meta.append(dayOf(item.day, lang));
    const li = document.createElement('li');
    li.append(link, meta);
    list.append(li);
  }
  const note = shown.note ? [element('p', shown.note, 'search-page__note')] : [];
  out.replaceChildren(element('h2', shown.heading), ...note, ...(shown.items.length ? [list] : []));
  // The API's results are dated from the index (the API gives no date).
  if (!shown.note && !saveData) dateResults(list, lang).catch(() => undefined);
}
