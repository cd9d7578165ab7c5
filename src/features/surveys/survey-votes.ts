/**
 * `<survey-votes>` (SurveyList.astro): the survey buttons' votes, with no framework, so they work within moments
 * of the text on a slow line. A vote is posted once per survey from this device: after a counted vote both
 * buttons are disabled, the chosen one is marked, focus goes to the note that says it was counted, and the
 * counts are read again from the server. A vote that fails stores nothing and gives the buttons back, with a
 * toast. The surveys built into the page are brought up to date from the API when the script starts.
 */
import { ApiError, createApiClient } from '../../api/client.ts';
import type { Survey } from '../../api/types.ts';
import { format } from '../../i18n/format.ts';
import type { LangNumber } from '../../i18n/languages.ts';
import { toast } from '../../islands/toast.ts';
import { siteStorage } from '../../lib/storage.ts';
import { $votes, loadVotes, recordVote, SURVEY_MESSAGES, voteFailureKey } from './votes.ts';

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
      .then(
        (fresh) => this.#showSurveys(fresh),
        () => undefined,
      );
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

  /**
   * The surveys as the API lists them now: counts, titles and texts brought up to date, a survey published
   * after the build added (from the template), one taken down removed. An empty answer changes nothing.
   */
  #showSurveys(surveys: readonly Survey[]): void {
    if (!surveys.length) return;
    const number = new Intl.NumberFormat(this.dataset.locale);
    const m = this.#messages;
    const end = this.querySelector('template');
    const template = end?.content.firstElementChild;
    const shown = new Map([...this.querySelectorAll<HTMLElement>('[data-survey]')].map((card) => [Number(card.dataset.survey), card]));
    let next = this.querySelector<HTMLElement>('[data-survey]');
    for (const s of surveys) {
      const card = shown.get(s.id) ?? (template?.cloneNode(true) as HTMLElement | undefined);
      if (!card) continue;
      shown.delete(s.id);
      card.dataset.survey = String(s.id);
      const [title, brief, author] = [card.querySelector('h3'), card.querySelector('.survey__brief'), card.querySelector('.survey__author')];
      const [likes, dislikes] = card.querySelectorAll('.survey__count');
      if (title) title.textContent = s.title;
      if (brief) brief.textContent = s.brief;
      if (author) author.textContent = `${m['survey.author']}: ${s.author}`;
      if (likes) likes.textContent = format(m['survey.likes'], { n: number.format(s.likes) });
      if (dislikes) dislikes.textContent = format(m['survey.dislikes'], { n: number.format(s.dislikes) });
      // A card already in its place stays put: moving it would take focus from the note a vote focused.
      if (card === next) next = next.nextElementSibling?.matches('[data-survey]') ? (next.nextElementSibling as HTMLElement) : null;
      else this.insertBefore(card, next ?? end);
    }
    for (const gone of shown.values()) gone.remove();
    this.#show();
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
    client.surveys(this.#lang()).then(
      (fresh) => this.#showSurveys(fresh),
      () => undefined,
    );
  }
}

export function defineSurveyVotes(): void {
  if (!customElements.get('survey-votes')) customElements.define('survey-votes', SurveyVotes);
}
