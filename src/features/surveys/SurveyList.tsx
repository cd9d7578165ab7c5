/**
 * Surveys with like/dislike voting (docs/rules.md, Surveys). A vote is posted once per
 * survey from this device: after a counted vote both buttons are disabled, the
 * chosen one is marked and the list is reloaded from the server. A vote that
 * fails stores nothing and gives the buttons back, with a toast. The counts
 * built into the page are refreshed from the API when the island hydrates.
 */
import { useStore } from '@nanostores/react';
import { useEffect, useRef, useState } from 'react';
import './surveys.scss';
import { ApiError, createApiClient } from '../../api/client.ts';
import type { Survey } from '../../api/types.ts';
import type { LangNumber } from '../../i18n/languages.ts';
import { format } from '../../i18n/format.ts';
import type { MessageKey } from '../../i18n/t.ts';
import { SpriteIcon } from '../../islands/SpriteIcon.tsx';
import { toast } from '../../islands/toast.ts';
import { siteStorage } from '../../lib/storage.ts';
import { useHydrated } from '../../islands/useHydrated.ts';
import { readyProps } from '../../islands/NotReady.tsx';
import { $votes, loadVotes, recordVote, voteFailureKey } from './votes.ts';
import { CRASH_MESSAGES, withCrashScreen } from '../../islands/CrashScreen.tsx';

export const SURVEY_MESSAGES = [
  ...CRASH_MESSAGES,
  'survey.author',
  'survey.like',
  'survey.dislike',
  'survey.likes',
  'survey.dislikes',
  'survey.voted',
  'survey.failed',
  'survey.serverError',
  'toast.close',
] as const satisfies readonly MessageKey[];
type Messages = Record<(typeof SURVEY_MESSAGES)[number], string>;

interface Props {
  lang: LangNumber;
  locale: string;
  apiBase: string;
  surveys: Survey[];
  messages: Messages;
}

function SurveyList({ lang, locale, apiBase, surveys: initial, messages: m }: Props) {
  const hydrated = useHydrated();
  const votes = useStore($votes);
  const [surveys, setSurveys] = useState(initial);
  const [pending, setPending] = useState<number | null>(null);
  // After a vote both buttons are disabled (docs/rules.md, Surveys): focus goes to the note that says it was counted, not to the page.
  const [voted, setVoted] = useState<number | null>(null);
  const done = useRef<HTMLParagraphElement>(null);
  useEffect(() => done.current?.focus(), [voted]);
  const number = new Intl.NumberFormat(locale);

  // The counts in the HTML are as old as the build: ask the API for today's once hydrated (GET
  // api/survey/getAll). If that fails, or answers no surveys at all, the built counts stay.
  useEffect(() => {
    let live = true;
    const client = createApiClient({ baseUrl: apiBase, timeoutMs: 10_000, retries: 0 });
    client.surveys(lang).then(
      (fresh) => {
        if (live && fresh.length > 0) setSurveys(fresh);
      },
      () => {},
    );
    return () => {
      live = false;
    };
  }, [apiBase, lang]);

  useEffect(() => {
    loadVotes(siteStorage);
    const onStorage = () => loadVotes(siteStorage);
    addEventListener('storage', onStorage);
    return () => removeEventListener('storage', onStorage);
  }, []);

  async function vote(survey: Survey, isLike: boolean) {
    if (String(survey.id) in $votes.get() || pending !== null) return;
    setPending(survey.id);
    const client = createApiClient({ baseUrl: apiBase, timeoutMs: 10_000, retries: 1 });
    try {
      await client.answerSurvey(survey.id, isLike, lang);
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      setPending(null);
      void toast('error', m[voteFailureKey(err.status)], m['toast.close']);
      return;
    }
    recordVote(siteStorage, survey.id, isLike);
    setPending(null);
    setVoted(survey.id);
    try {
      setSurveys(await client.surveys(lang));
    } catch {
      // The vote is counted; the counts shown refresh on the next visit.
    }
  }

  return (
    <div className="surveys">
      {surveys.map((s) => {
        const choice = votes[String(s.id)];
        const locked = choice !== undefined || pending === s.id;
        return (
          <article className="survey surface" key={s.id}>
            <h3>{s.title}</h3>
            <p>{s.brief}</p>
            <p className="survey__author">
              {m['survey.author']}: {s.author}
            </p>
            <div className="survey__votes">
              <button type="button" className="survey__vote" aria-pressed={choice === true} disabled={locked} {...readyProps(hydrated)} onClick={() => void vote(s, true)}>
                <SpriteIcon name="thumb-up" />
                <span className="survey__label">{m['survey.like']}</span>
                <span className="survey__count">{format(m['survey.likes'], { n: number.format(s.likes) })}</span>
              </button>
              <button type="button" className="survey__vote" aria-pressed={choice === false} disabled={locked} {...readyProps(hydrated)} onClick={() => void vote(s, false)}>
                <SpriteIcon name="thumb-down" />
                <span className="survey__label">{m['survey.dislike']}</span>
                <span className="survey__count">{format(m['survey.dislikes'], { n: number.format(s.dislikes) })}</span>
              </button>
            </div>
            {choice !== undefined && (
              <p className="survey__done" role="status" tabIndex={-1} ref={voted === s.id ? done : undefined}>
                {m['survey.voted']}
              </p>
            )}
          </article>
        );
      })}
    </div>
  );
}

export default withCrashScreen(SurveyList);
