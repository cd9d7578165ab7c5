/**
 * Survey votes cast on this device (docs/rules.md, Surveys): keyed by
 * survey id, true for like. One nanostore, kept in local storage, so every
 * island and every page sees the same votes.
 */
import { map } from 'nanostores';
import type { MessageKey } from '../../i18n/t.ts';
import { STORAGE_KEYS } from '../../lib/storage.ts';

/**
 * What the votes' script says (SurveyList.astro hands them over). Here, not in ./survey-votes.ts, because the
 * component reads them on the server, where that module's custom element cannot be defined.
 */
export const SURVEY_MESSAGES = [
  'survey.author',
  'survey.likes',
  'survey.dislikes',
  'survey.voted',
  'survey.failed',
  'survey.serverError',
  'toast.close',
] as const satisfies readonly MessageKey[];

export const VOTES_STORAGE_KEY = STORAGE_KEYS.surveyVotes;
export const $votes = map<Record<string, boolean>>({});

export function parseVotes(raw: string | null): Record<string, boolean> {
  try {
    const parsed = JSON.parse(raw ?? '{}') as unknown;
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return {};
    return Object.fromEntries(Object.entries(parsed).filter(([, v]) => typeof v === 'boolean')) as Record<string, boolean>;
  } catch {
    return {};
  }
}

export function loadVotes(store: Pick<Storage, 'getItem'>): void {
  try {
    $votes.set(parseVotes(store.getItem(VOTES_STORAGE_KEY)));
  } catch {
    $votes.set({});
  }
}

export function recordVote(store: Pick<Storage, 'setItem'>, surveyId: number, isLike: boolean): void {
  $votes.setKey(String(surveyId), isLike);
  try {
    store.setItem(VOTES_STORAGE_KEY, JSON.stringify($votes.get()));
  } catch {
    // Without storage the vote still counts on the server; only the repeat guard is lost.
  }
}

/**
 * What a vote that failed says. No answer at all (no connection, none in time: the API client gives no
 * status) is the connection's fault; an error the server answered (4xx, 5xx) is not, and the visitor is
 * told the server could not record the vote, so they do not go looking for a fault in their line.
 */
export function voteFailureKey(status: number | undefined): 'survey.failed' | 'survey.serverError' {
  return status === undefined ? 'survey.failed' : 'survey.serverError';
}
