/**
 * `<survey-votes>` (SurveyList.astro): the survey buttons' votes, with no framework, so they work within moments
 * of the text on a slow line. A vote is posted once per survey from this device: after a counted vote both
 * buttons are disabled, the chosen one is marked, focus goes to the note that says it was counted, and the
 * counts are read again from the server. A vote that fails stores nothing and gives the buttons back, with a
 * toast. The counts built into the page are refreshed from the API when the script starts.
 */
import { ApiError, createApiClient } from '../../api/client.ts';
import type { Survey } from '../../api/types.ts';
import { format } from '../../i18n/format.ts';
import type { LangNumber } from '../../i18n/languages.ts';
import type { MessageKey } from '../../i18n/t.ts';
import { toast } from '../../islands/toast.ts';
import { siteStorage } from '../../lib/storage.ts';
import { $votes, loadVotes, recordVote, voteFailureKey } from './votes.ts';

export const SURVEY_MESSAGES = [
  'survey.likes',
  'survey.dislikes',
  'survey.voted',
  'survey.failed',
  'survey.serverError',
  'toast.close',
] as const satisfies readonly MessageKey[];
type Messages = Record<(typeof SURVEY_MESSAGES)[number], string>;

class SurveyVotes extends HTMLElement {
  #pending: number | null = null;
  #messages = {} as Messages;

  connectedCallback(): void {
    this.#messages = JSON.parse(this.dataset.messages ?? '{}') as Messages;
    loadVotes(siteStorage);
    this.#show();
    for (const button of this.#buttons()) {
      button.removeAttribute('aria-disabled');
      button.removeAttribute('aria-describedby');
      button.dataset.ready = 'true';
    }
    this.addEventListener('click', (event) => {
      const button = (event.target as Element).closest<HTMLButtonElement>('button[data-like]');
      const card = button?.closest<HTMLElement>('[data-survey]');
      if (button && card) void this.#vote(Number(card.dataset.survey), button.dataset.like === 'true');
    });
    addEventListener('storage', () => {
      loadVotes(siteStorage);
      this.#show();
    });
    // The counts in the HTML are as old as the build: today's, if the API gives them.
    this.#client(0)
      .surveys(this.#lang())
      .then((fresh) => this.#showCounts(fresh), () => undefined);
  }

  #lang = () => Number(this.dataset.lang) as LangNumber;
  #client = (retries: number) => createApiClient({ baseUrl: this.dataset.api ?? '', timeoutMs: 10_000, retries });
  #buttons = () => this.querySelectorAll<HTMLButtonElement>('button[data-like]');

  /** Each survey as this device voted on it: the choice pressed, both buttons off, the note. */
  #show(focusNoteOf?: number): void {
    const votes = $votes.get();
    for (const card of this.querySelectorAll<HTMLElement>('[data-survey]')) {
      const id = Number(card.dataset.survey);
      const choice = votes[String(id)];
      for (const button of card.querySelectorAll<HTMLButtonElement>('button[data-like]')) {
        button.setAttribute('aria-pressed', String(choice === (button.dataset.like === 'true')));
        button.disabled = choice !== undefined || this.#pending === id;
      }
      let note = card.querySelector<HTMLElement>('.survey__done');
      if (choice !== undefined && !note) {
        note = document.createElement('p');
        note.className = 'survey__done';
        note.setAttribute('role', 'status');
        note.tabIndex = -1;
        note.textContent = this.#messages['survey.voted'];
        card.append(note);
      }
      if (focusNoteOf === id) note?.focus();
    }
  }

  #showCounts(surveys: readonly Survey[]): void {
    const number = new Intl.NumberFormat(this.dataset.locale);
    for (const s of surveys) {
      const counts = this.querySelectorAll<HTMLElement>(`[data-survey="${s.id}"] .survey__count`);
      if (counts.length !== 2) continue;
      counts[0]!.textContent = format(this.#messages['survey.likes'], { n: number.format(s.likes) });
      counts[1]!.textContent = format(this.#messages['survey.dislikes'], { n: number.format(s.dislikes) });
    }
  }

  async #vote(id: number, isLike: boolean): Promise<void> {
    if (String(id) in $votes.get() || this.#pending !== null) return;
    this.#pending = id;
    this.#show();
    const client = this.#client(1);
    try {
      await client.answerSurvey(id, isLike, this.#lang());
    } catch (err) {
      this.#pending = null;
      this.#show();
      if (!(err instanceof ApiError)) throw err;
      void toast('error', this.#messages[voteFailureKey(err.status)], this.#messages['toast.close']);
      return;
    }
    recordVote(siteStorage, id, isLike);
    this.#pending = null;
    this.#show(id);
    // The vote is counted; if the counts cannot be read now, they refresh on the next visit.
    client.surveys(this.#lang()).then((fresh) => this.#showCounts(fresh), () => undefined);
  }
}

export function defineSurveyVotes(): void {
  if (!customElements.get('survey-votes')) customElements.define('survey-votes', SurveyVotes);
}
