/**
 * `<appeal-form>` (AppealForm.astro): the citizen appeal form's behaviour, with no framework, so that it sends
 * within moments of the text on a slow line (docs/rules.md, Appeal form). A citizen's text is never lost: it is
 * kept in storage as they type and cleared only after the server says the appeal was received; text typed into
 * the HTML before this script arrived wins over a saved draft.
 *
 * On a connection that drops the form says so while it is offline or when a send fails on the network, and
 * again when the browser is back online; the text stays. Each draft carries an idempotency key, sent with the
 * appeal, so a resend after an answer that never arrived is the same appeal to the API, not a second one.
 *
 * Each field says its rule from the start (aria-describedby); a field is checked when the citizen leaves it or
 * sends, and its error is announced. A refused send lists every problem at the top, each a link to its field
 * (GOV.UK's error summary). A received appeal is confirmed in the page, with its number; the confirmation takes
 * focus and stays until the citizen starts another appeal.
 */
import { ApiError, createApiClient } from '../../api/client.ts';
import type { LangNumber } from '../../i18n/languages.ts';
import { toast } from '../../islands/toast.ts';
import { siteStorage, tabStorage } from '../../lib/storage.ts';
import { AppealCaptcha } from './appeal-captcha.ts';
import {
  APPEAL_FIELDS,
  CAPTCHA_TOKEN_MAX_AGE_MS,
  EMPTY_DRAFT,
  PROBLEM_MESSAGES,
  clearDraft,
  fieldId,
  invalidFields,
  loadDraft,
  loadDraftKey,
  newIdempotencyKey,
  saveDraft,
  type AppealDraft,
  type AppealField,
  type AppealMessages,
  type CaptchaConfig,
} from './appeal.ts';

type Control = HTMLInputElement | HTMLTextAreaElement;
/** What the form says about the connection: offline now, a send lost on the way, or back online. */
type Connection = 'offline' | 'lost' | 'back' | null;

class AppealFormElement extends HTMLElement {
  #m = {} as AppealMessages;
  #form!: HTMLFormElement;
  #send!: HTMLButtonElement;
  #keep!: HTMLInputElement;
  #captcha!: AppealCaptcha;
  /** Fields the citizen has left with something in them (all of them after a send): these show their problem. */
  #touched = new Set<AppealField>();
  #token: string | null = null;
  /** When the captcha was solved, to ask again if the token may have expired while offline. */
  #tokenAt = 0;
  #sending = false;
  /** Whether the list of problems is shown at the top: from a refused send until the problems are gone. */
  #summaryShown = false;
  #notice: 'restored' | 'cleared' | null = null;
  /** What the form last said about the connection; null while it has nothing to say. */
  #connection: Connection = null;
  /** The idempotency key of the current draft; a new one once an appeal is confirmed or cleared. */
  #key = '';

  #connected = false;

  connectedCallback(): void {
    // Moved in the page, it keeps what it has: its listeners are on its own parts and the window already.
    if (this.#connected) return;
    this.#connected = true;
    this.#m = JSON.parse(this.dataset.messages ?? '{}') as AppealMessages;
    this.#form = this.querySelector('form')!;
    this.#send = this.#form.querySelector('.appeal-form__send')!;
    this.#keep = this.#form.querySelector('input[name="keep"]')!;
    this.#captcha = new AppealCaptcha(this.#form.querySelector('[data-captcha]')!, JSON.parse(this.dataset.captcha ?? '{"mode":"demo"}') as CaptchaConfig, this.#m, (t) =>
      this.#solved(t),
    );
    this.#captcha.connect();
    this.#restore();

    this.#form.addEventListener('submit', (event) => {
      event.preventDefault();
      void this.#submit();
    });
    this.#form.addEventListener('input', (event) => {
      if (event.target === this.#keep) return;
      if (this.#field(event.target)) this.#save();
      this.#showProblems();
    });
    this.#form.addEventListener('focusout', (event) => {
      const field = this.#field(event.target);
      // A field is checked once the citizen leaves it, not at the first keystroke.
      if (field && this.#control(field).value) {
        this.#touched.add(field);
        this.#showProblems();
      }
    });
    this.#form.addEventListener('focusin', (event) => {
      if (!this.#field(event.target)) return;
      // The first focus in a field starts the appeal: the captcha begins to load while the citizen types.
      this.#captcha.start();
      // The browser scrolls only to a field it cannot see at all: one the keyboard reached half below the screen's
      // edge (the tall message box) is brought whole into view, clear of the sticky bar and the cookie bar.
      (event.target as Element).scrollIntoView({ block: 'nearest' });
    });
    this.#keep.addEventListener('change', () => this.#keepOnDevice(this.#keep.checked));

    if (!navigator.onLine) this.#say('offline');
    addEventListener('offline', () => this.#say('offline'));
    addEventListener('online', () => {
      this.#say(this.#connection ? 'back' : null);
      // A token solved before the connection dropped may have expired by now: ask for a new one.
      if (this.#tokenAt && Date.now() - this.#tokenAt > CAPTCHA_TOKEN_MAX_AGE_MS) {
        this.#solved(null);
        this.#captcha.reset();
      }
    });

    // Ready: a real submit button from now on (until now a plain button, so nothing could leave in an address).
    this.#send.type = 'submit';
    this.#send.removeAttribute('aria-disabled');
    this.#send.dataset.ready = 'true';
    this.#showSend();
  }

  #lang = () => Number(this.dataset.lang) as LangNumber;
  #control = (field: AppealField) => this.#form.elements.namedItem(field) as Control;
  #field = (target: EventTarget | null): AppealField | null =>
    (target instanceof HTMLInputElement || target instanceof HTMLTextAreaElement) && (APPEAL_FIELDS as readonly string[]).includes(target.name)
      ? (target.name as AppealField)
      : null;
  #draft(): AppealDraft {
    const draft = { ...EMPTY_DRAFT };
    for (const f of APPEAL_FIELDS) draft[f] = this.#control(f).value;
    return draft;
  }
  /** A draft on the device was kept there because the citizen asked; otherwise it is this tab's. */
  #store = () => (this.#keep.checked ? siteStorage : tabStorage);
  #save = () => saveDraft(this.#store(), this.#draft(), Date.now(), this.#key);

  /** The saved draft, under anything typed into the HTML before this script ran. */
  #restore(): void {
    const kept = loadDraft(siteStorage);
    // Ticked before the script arrived: the citizen asked for the device.
    const store = kept || this.#keep.checked ? siteStorage : tabStorage;
    this.#keep.checked = store === siteStorage;
    const saved = kept ?? loadDraft(tabStorage);
    this.#key = loadDraftKey(store) ?? newIdempotencyKey();
    const typed = this.#draft();
    // Typed before the script arrived: the form was started, so the captcha may load.
    if (APPEAL_FIELDS.some((f) => typed[f])) this.#captcha.start();
    const merged = { ...EMPTY_DRAFT };
    for (const f of APPEAL_FIELDS) merged[f] = typed[f] || saved?.[f] || '';
    if (!APPEAL_FIELDS.some((f) => merged[f])) return;
    for (const f of APPEAL_FIELDS) {
      this.#control(f).value = merged[f];
      if (merged[f]) this.#touched.add(f);
    }
    saveDraft(store, merged, Date.now(), this.#key);
    if (store === siteStorage) clearDraft(tabStorage);
    if (saved) this.#notice = 'restored';
    this.#showNotices();
    this.#showProblems();
  }

  /** The draft moves to where the citizen wants it, and is removed from the other place. */
  #keepOnDevice(wanted: boolean): void {
    saveDraft(wanted ? siteStorage : tabStorage, this.#draft(), Date.now(), this.#key);
    clearDraft(wanted ? tabStorage : siteStorage);
  }

  /** An empty form under a new idempotency key, the draft gone from both stores: once cleared (`notice`) or sent (none). */
  #startAfresh(notice: 'cleared' | null): void {
    clearDraft(siteStorage);
    clearDraft(tabStorage);
    this.#key = newIdempotencyKey();
    for (const f of APPEAL_FIELDS) this.#control(f).value = '';
    this.#touched.clear();
    this.#notice = notice;
    this.#showNotices();
    this.#showProblems();
  }

  #solved(token: string | null): void {
    this.#token = token;
    this.#tokenAt = token ? Date.now() : 0;
    if (token) this.#captcha.missing = false;
    this.#showSend();
    if (this.#summaryShown) this.#showSummary(false);
  }

  #say(connection: Connection): void {
    this.#connection = connection;
    this.#showNotices();
  }

  async #submit(): Promise<void> {
    if (this.#sending) return;
    const draft = this.#draft();
    const all = invalidFields(draft, 'all');
    if (all.size) for (const f of APPEAL_FIELDS) this.#touched.add(f);
    if (!this.#token) this.#captcha.missing = true;
    if (all.size) {
      // Every problem at the top, each a link to its field, and focus there.
      this.#showProblems();
      this.#showSummary(true);
      return;
    }
    this.#hideSummary();
    if (!this.#token) {
      // Nothing is sent without the check: say so there, and go to it (loading it if it has not begun).
      this.#captcha.focus();
      return;
    }
    if (!navigator.onLine) {
      // Nothing would leave the device: say so rather than fail after a time-out.
      this.#say('offline');
      return;
    }
    this.#sending = true;
    this.#showSend();
    const client = createApiClient({ baseUrl: this.dataset.api ?? '', timeoutMs: 20_000 });
    try {
      const outcome = await client.apply({ ...draft, captchaToken: this.#token, idempotencyKey: this.#key }, this.#lang());
      this.#say(null);
      if (outcome.kind === 'sent') {
        this.#startAfresh(null);
        this.#showSent(outcome.message);
      } else if (outcome.kind === 'too-short') {
        void toast('warning', this.#m['appeal.tooShort'], this.#m['toast.close']);
      } else {
        void toast('error', outcome.message, this.#m['toast.close']);
      }
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      // No HTTP status: the request or its answer was lost on the way (or timed out). The server may have the
      // appeal; the resend carries the same key, so it is not filed twice.
      if (err.status === undefined) this.#say(navigator.onLine ? 'lost' : 'offline');
      void toast('error', this.#m['appeal.notSent'], this.#m['toast.close']);
    } finally {
      this.#sending = false;
      // A token is good for one submission: ask for a new one.
      this.#solved(null);
      this.#captcha.reset();
    }
  }

  #showSend(): void {
    this.#send.disabled = this.#sending;
    this.#send.textContent = this.#m[this.#sending ? 'appeal.sending' : 'appeal.submit'];
    if (this.#token) this.#send.removeAttribute('aria-describedby');
    else this.#send.setAttribute('aria-describedby', fieldId('captcha-hint'));
  }

  /** Each field's problem under it, for the fields the citizen has left; the list at the top kept true. */
  #showProblems(): void {
    const problems = invalidFields(this.#draft(), this.#touched);
    for (const f of APPEAL_FIELDS) {
      const problem = problems.get(f);
      const control = this.#control(f);
      const error = this.querySelector(`#${fieldId(`${f}-error`)}`)!;
      const text = problem ? this.#m[PROBLEM_MESSAGES[problem]] : '';
      if (error.textContent !== text) error.textContent = text;
      if (problem) control.setAttribute('aria-invalid', 'true');
      else control.removeAttribute('aria-invalid');
      control.setAttribute('aria-describedby', problem ? `${error.id} ${fieldId(`${f}-hint`)}` : fieldId(`${f}-hint`));
    }
    if (this.#summaryShown) this.#showSummary(false);
  }

  /** The problems that keep the appeal from being sent, in the order of the form; gone once there are none. */
  #showSummary(takeFocus: boolean): void {
    const problems = [...invalidFields(this.#draft(), 'all')].map(([field, problem]) => ({
      text: `${this.querySelector(`label[for="${fieldId(field)}"]`)!.textContent}: ${this.#m[PROBLEM_MESSAGES[problem]]}`,
      href: `#${fieldId(field)}`,
      go: () => this.#control(field).focus(),
    }));
    if (!this.#token) problems.push({ text: this.#m['appeal.captchaHint'], href: `#${fieldId('captcha-hint')}`, go: () => this.#captcha.focus() });
    let summary = this.#form.querySelector<HTMLElement>('.appeal-form__summary');
    if (!problems.length) return this.#hideSummary();
    this.#summaryShown = true;
    if (!summary || takeFocus) {
      // A new alert each refused send, so that it is announced each time.
      summary?.remove();
      summary = this.querySelector<HTMLTemplateElement>('template[data-summary]')!.content.firstElementChild!.cloneNode(true) as HTMLElement;
      this.#form.prepend(summary);
    }
    const list = summary.querySelector('ul')!;
    // An alert read out again at every keystroke would drown what the citizen types: only a changed list is replaced.
    if (!takeFocus && [...list.children].map((li) => li.textContent).join('\n') === problems.map((p) => p.text).join('\n')) return;
    list.replaceChildren(
      ...problems.map((p) => {
        const item = document.createElement('li');
        const link = item.appendChild(document.createElement('a'));
        link.href = p.href;
        link.textContent = p.text;
        link.addEventListener('click', (event) => {
          event.preventDefault();
          p.go();
        });
        return item;
      }),
    );
    if (takeFocus) {
      // Its top in sight below the sticky bar (the page's scroll-padding), however long the list: focus alone
      // would scroll a list taller than a small screen only as far as its middle.
      summary.focus({ preventScroll: true });
      summary.scrollIntoView({ block: 'start' });
    }
  }

  #hideSummary(): void {
    this.#summaryShown = false;
    this.#form.querySelector('.appeal-form__summary')?.remove();
  }

  /** What the form says of the draft, then of the connection: each replaced only when it changes, so that a screen reader announces only the new sentence. */
  #showNotices(): void {
    const area = this.#form.querySelector<HTMLElement>('[data-notices]')!;
    const paragraph = (text: string, className = '') => {
      const p = document.createElement('p');
      p.className = `appeal-form__notice ${className}`.trim();
      p.textContent = text;
      return p;
    };
    const slots = [
      {
        slot: 'draft',
        said: this.#notice,
        build: () => {
          if (this.#notice === 'cleared') return paragraph(this.#m['appeal.draftCleared']);
          const p = paragraph(`${this.#m['appeal.draftRestored']} ${this.#m['appeal.draftPrivacy']} `);
          const clear = p.appendChild(document.createElement('button'));
          clear.type = 'button';
          clear.className = 'appeal-form__clear';
          clear.textContent = this.#m['appeal.draftClear'];
          clear.addEventListener('click', () => this.#startAfresh('cleared'));
          return p;
        },
      },
      {
        slot: 'connection',
        said: this.#connection,
        build: () => {
          const key = this.#connection === 'offline' ? 'appeal.offline' : this.#connection === 'lost' ? 'appeal.connectionLost' : 'appeal.online';
          return paragraph(this.#m[key], `appeal-form__connection appeal-form__connection--${this.#connection}`);
        },
      },
    ];
    for (const { slot, said, build } of slots) {
      const current = area.querySelector<HTMLElement>(`[data-slot="${slot}"]`);
      if ((current?.dataset.said ?? null) === said) continue;
      const next = said ? build() : null;
      if (next) Object.assign(next.dataset, { slot, said });
      if (current && next) current.replaceWith(next);
      else if (current) current.remove();
      else if (next && slot === 'draft') area.prepend(next);
      else if (next) area.append(next);
    }
  }

  /** The confirmation in place of the form, with focus; the page's one heading says what happened. */
  #showSent(message: string): void {
    const panel = this.querySelector<HTMLTemplateElement>('template[data-sent]')!.content.firstElementChild!.cloneNode(true) as HTMLElement;
    panel.querySelector('.appeal-form__sent-message')!.textContent = message;
    const heading = document.querySelector('h1');
    const before = heading?.textContent ?? '';
    if (heading) heading.textContent = this.#m['appeal.sentTitle'];
    panel.querySelector('[data-another]')!.addEventListener('click', () => {
      if (heading) heading.textContent = before;
      panel.remove();
      this.#form.hidden = false;
      this.#control(APPEAL_FIELDS[0]).focus();
    });
    this.#form.hidden = true;
    this.#form.before(panel);
    // Read from its first line, below the sticky bar, however tall the largest text makes it.
    panel.focus({ preventScroll: true });
    panel.scrollIntoView({ block: 'start' });
  }
}

export function defineAppealForm(): void {
  if (!customElements.get('appeal-form')) customElements.define('appeal-form', AppealFormElement);
}
