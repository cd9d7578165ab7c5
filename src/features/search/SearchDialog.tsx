/**
 * The search modal (docs/rules.md, Search): opened from the header icon, closed by
 * its close icon or Escape; a native modal <dialog> keeps focus inside and
 * returns it to the icon. Searching happens only on Enter or the button.
 * Results are text, never HTML. A failed search says so inside the dialog
 * (an error toast would stand under the modal's backdrop, unreadable), and the
 * button stays focusable while a search runs, so focus never falls to the page.
 */
import { useRef, useState, type FormEvent, type ReactNode } from 'react';
import '../../islands/header-islands.scss';
import './search-dialog.scss';
import { ApiError, createApiClient } from '../../api/client.ts';
import type { SearchResult } from '../../api/types.ts';
import { languageByNumber, localizePath, type LangNumber } from '../../i18n/languages.ts';
import { format } from '../../i18n/format.ts';
import type { MessageKey } from '../../i18n/t.ts';
import { useHydrated } from '../../islands/useHydrated.ts';
import { CRASH_MESSAGES, withCrashScreen } from '../../islands/CrashScreen.tsx';
import { SpriteIcon } from '../../islands/SpriteIcon.tsx';
import { readyProps } from '../../islands/NotReady.tsx';

export const SEARCH_MESSAGES = [
  ...CRASH_MESSAGES,
  'header.search',
  'search.title',
  'search.label',
  'search.button',
  'search.close',
  'search.results',
  'search.nothing',
  'search.error',
  'search.searching',
] as const satisfies readonly MessageKey[];
type Messages = Record<(typeof SEARCH_MESSAGES)[number], string>;

type State =
  | { kind: 'idle' }
  | { kind: 'searching' }
  | { kind: 'results'; results: SearchResult[] }
  | { kind: 'message'; text: string }
  | { kind: 'error' };

interface Props {
  lang: LangNumber;
  apiBase: string;
  messages: Messages;
  /** The button's icon, drawn in the HTML by the page (`<Icon inline>`), so it paints before the sprite arrives. */
  children?: ReactNode;
}

function SearchDialog({ lang, apiBase, messages: m, children: icon }: Props) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [query, setQuery] = useState('');
  const [state, setState] = useState<State>({ kind: 'idle' });
  const language = languageByNumber(lang)!;
  const hydrated = useHydrated();

  async function search(event: FormEvent) {
    event.preventDefault();
    if (state.kind === 'searching') return;
    setState({ kind: 'searching' });
    try {
      const outcome = await createApiClient({ baseUrl: apiBase, retries: 1, timeoutMs: 10_000 }).search(query.trim(), lang);
      if (outcome.kind === 'message') setState({ kind: 'message', text: outcome.message });
      else if (outcome.results.length === 0) setState({ kind: 'message', text: format(m['search.nothing'], { query: query.trim() }) });
      else setState({ kind: 'results', results: outcome.results });
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      setState({ kind: 'error' });
    }
  }

  return (
    <>
      <button type="button" className="header-button" aria-haspopup="dialog" {...readyProps(hydrated)} onClick={() => dialog.current?.showModal()}>
        {icon}
        <span className="header-button__label">{m['header.search']}</span>
      </button>
      {/* Not in the HTML: nothing opens it before hydration, and every page's first flight is shorter without it. */}
      {hydrated && (
        <dialog ref={dialog} className="search-dialog" aria-labelledby="search-dialog-title">
          <div className="search-dialog__head">
            <h2 id="search-dialog-title">{m['search.title']}</h2>
            <button type="button" className="close-button" aria-label={m['search.close']} onClick={() => dialog.current?.close()}>
              <SpriteIcon name="close" size={24} />
            </button>
          </div>
          <form role="search" className="search-dialog__form" onSubmit={search}>
            <label htmlFor="search-query">{m['search.label']}</label>
            <div className="search-dialog__row">
              <input id="search-query" type="search" name="q" value={query} autoComplete="off" onChange={(e) => setQuery(e.target.value)} />
              <button type="submit" className="button" aria-disabled={state.kind === 'searching'}>
                {m['search.button']}
              </button>
            </div>
          </form>
          <div className="search-dialog__results" aria-live="polite">
            {state.kind === 'searching' && <p>{m['search.searching']}</p>}
            {state.kind === 'error' && (
              <p className="search-dialog__error" role="alert">
                {m['search.error']}
              </p>
          )}
          {state.kind === 'message' && <h3 className="search-dialog__message">{state.text}</h3>}
          {state.kind === 'results' && (
            <>
              <h3 className="search-dialog__count">{format(m['search.results'], { n: state.results.length })}</h3>
              <ul>
                {state.results.map((r) => (
                  <li key={`${r.isPage ? 'p' : 'n'}${r.id}`}>
                    <a href={localizePath(language, r.isPage ? `/page/${r.id}` : `/news/${r.id}`)}>{r.title}</a>
                  </li>
                ))}
              </ul>
            </>
          )}
        </div>
      </dialog>
      )}
    </>
  );
}

export default withCrashScreen(SearchDialog);
