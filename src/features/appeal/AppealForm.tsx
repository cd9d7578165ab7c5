/**
 * The citizen appeal form (docs/rules.md, Appeal form). A citizen's text is never lost: it is
 * kept in local storage as they type and cleared only after the server says
 * the appeal was received. Sending is possible once the captcha is solved.
 *
 * On a connection that drops the form says so while it is offline or when a send fails on
 * the network, and again when the browser is back online; the text stays. Each draft carries an
 * idempotency key, sent with the appeal, so a resend after an answer that never arrived is the
 * same appeal to the API, not a second one.
 *
 * Each field says its rule from the start (aria-describedby); a field is checked when the citizen leaves
 * it or sends, and its error is announced. A received appeal is confirmed in the page, with its number,
 * and the confirmation takes focus and stays until the citizen starts another appeal.
 *
 * The captcha (AppealCaptcha.tsx) loads hCaptcha only once the citizen starts the form. The
 * send button looks unavailable until the check is solved, but stays focusable: pressed too early it says
 * what is missing and takes the citizen there, instead of doing nothing.
 */
import { useEffect, useId, useRef, useState, type FocusEvent, type SubmitEvent } from 'react';
import '../../styles/forms.scss';
import './appeal-form.scss';
import { ApiError, createApiClient } from '../../api/client.ts';
import type { LangNumber } from '../../i18n/languages.ts';
import type { MessageKey } from '../../i18n/t.ts';
import {
  APPEAL_FIELDS,
  CAPTCHA_TOKEN_MAX_AGE_MS,
  EMPTY_DRAFT,
  clearDraft,
  invalidFields,
  type FieldProblem,
  loadDraft,
  loadDraftKey,
  newIdempotencyKey,
  saveDraft,
  type AppealDraft,
  type AppealField,
} from './appeal.ts';
import { siteStorage, tabStorage } from '../../lib/storage.ts';
import { toast } from '../../islands/toast.ts';
import { useHydrated } from '../../islands/useHydrated.ts';
import { CRASH_MESSAGES, withCrashScreen } from '../../islands/CrashScreen.tsx';
import { AppealCaptcha, CAPTCHA_MESSAGES, type CaptchaConfig, type CaptchaHandle } from './AppealCaptcha.tsx';

export const APPEAL_MESSAGES = [
  ...CRASH_MESSAGES,
  'appeal.fullName',
  'appeal.phone',
  'appeal.phonePlaceholder',
  'appeal.email',
  'appeal.subject',
  'appeal.message',
  'appeal.minLength',
  'appeal.submit',
  'appeal.sending',
  ...CAPTCHA_MESSAGES,
  'appeal.tooShort',
  'appeal.notSent',
  'appeal.draftRestored',
  'appeal.draftPrivacy',
  'appeal.draftClear',
  'appeal.draftCleared',
  'appeal.keepDraft',
  'appeal.keepDraftHint',
  'appeal.problemTitle',
  'appeal.sentTerms',
  'appeal.offline',
  'appeal.connectionLost',
  'appeal.online',
  'appeal.hintLength',
  'appeal.hintPhone',
  'appeal.hintEmail',
  'appeal.badPhone',
  'appeal.badEmail',
  'appeal.sentTitle',
  'appeal.sentKeep',
  'appeal.another',
  'toast.close',
] as const satisfies readonly MessageKey[];
type Messages = Record<(typeof APPEAL_MESSAGES)[number], string>;

interface Props {
  lang: LangNumber;
  /** The district's helpline, which a citizen calls with the appeal's number: as written, and its `tel:` link. */
  helpline: { number: string; href: string };
  apiBase: string;
  captcha: CaptchaConfig;
  messages: Messages;
}

const LABELS: Record<AppealField, keyof Messages> = {
  fullName: 'appeal.fullName',
  phone: 'appeal.phone',
  email: 'appeal.email',
  subject: 'appeal.subject',
  message: 'appeal.message',
};
const HINTS: Record<AppealField, keyof Messages> = {
  fullName: 'appeal.hintLength',
  phone: 'appeal.hintPhone',
  email: 'appeal.hintEmail',
  subject: 'appeal.hintLength',
  message: 'appeal.hintLength',
};
const PROBLEMS: Record<FieldProblem, keyof Messages> = { short: 'appeal.minLength', phone: 'appeal.badPhone', email: 'appeal.badEmail' };
const INPUT: Record<AppealField, { type: string; autoComplete: string; inputMode?: 'tel' | 'email' }> = {
  fullName: { type: 'text', autoComplete: 'name' },
  phone: { type: 'tel', autoComplete: 'tel', inputMode: 'tel' },
  email: { type: 'email', autoComplete: 'email', inputMode: 'email' },
  subject: { type: 'text', autoComplete: 'off' },
  message: { type: 'textarea', autoComplete: 'off' },
};

function AppealForm({ lang, helpline, apiBase, captcha, messages: m }: Props) {
  const id = useId();
  const [draft, setDraft] = useState<AppealDraft>(EMPTY_DRAFT);
  const [touched, setTouched] = useState<Set<AppealField>>(new Set());
  const [token, setToken] = useState<string | null>(null);
  /** The citizen tried to send before solving the captcha. */
  const [captchaMissing, setCaptchaMissing] = useState(false);
  const [sending, setSending] = useState(false);
  const [notice, setNotice] = useState<'restored' | 'cleared' | null>(null);
  /** The citizen asked to keep the unsent text on this device (24 hours) rather than in this tab alone. */
  const [keep, setKeep] = useState(false);
  const draftStore = keep ? siteStorage : tabStorage;
  /** The server's confirmation of the appeal just received (with its number); shown until another is begun. */
  const [sent, setSent] = useState<string | null>(null);
  const sentRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!sent) return;
    sentRef.current?.focus();
    // The page's one heading says what happened (GOV.UK's confirmation page), and says it again when the
    // citizen starts another appeal: the island owns the page's purpose while it shows the result.
    const heading = document.querySelector('h1');
    const before = heading?.textContent ?? '';
    if (heading) heading.textContent = m['appeal.sentTitle'];
    return () => {
      if (heading) heading.textContent = before;
    };
  }, [sent, m]);
  /** Whether the list of problems is shown at the top: from a refused send until the problems are gone. */
  const [summaryShown, setSummaryShown] = useState(0);
  const summaryRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!summaryShown) return;
    // Its top in sight below the sticky bar (the page's scroll-padding), however long the list: focus alone
    // would scroll a list taller than a small screen only as far as its middle.
    summaryRef.current?.focus({ preventScroll: true });
    summaryRef.current?.scrollIntoView({ block: 'start' });
  }, [summaryShown]);
  /** What the form last said about the connection; null while it has nothing to say. */
  const [connection, setConnection] = useState<'offline' | 'lost' | 'back' | null>(null);
  const captchaRef = useRef<CaptchaHandle>(null);
  /** The idempotency key of the current draft; a new one once an appeal is confirmed or cleared. */
  const keyRef = useRef<string>('');
  /** When the captcha was solved, to ask again if the token may have expired while offline. */
  const tokenAtRef = useRef(0);
  const formRef = useRef<HTMLFormElement>(null);
  const hydrated = useHydrated();

  // Restored after hydration, so the server's HTML and the first client render agree. Anything
  // typed into the server's HTML before the script arrived wins over the saved draft.
  useEffect(() => {
    // A draft on the device was kept there because the citizen asked; otherwise it is this tab's.
    const kept = loadDraft(siteStorage);
    const store = kept ? siteStorage : tabStorage;
    setKeep(kept !== null);
    const saved = kept ?? loadDraft(tabStorage);
    keyRef.current = loadDraftKey(store) ?? newIdempotencyKey();
    const typed = { ...EMPTY_DRAFT };
    for (const f of APPEAL_FIELDS) {
      const el = formRef.current?.elements.namedItem(f);
      if (el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement) typed[f] = el.value;
    }
    // Typed before the script arrived: the form was started, so the captcha may load.
    if (APPEAL_FIELDS.some((f) => typed[f])) captchaRef.current?.start();
    const merged = { ...EMPTY_DRAFT };
    for (const f of APPEAL_FIELDS) merged[f] = typed[f] || saved?.[f] || '';
    if (APPEAL_FIELDS.some((f) => merged[f])) {
      setDraft(merged);
      setTouched(new Set(APPEAL_FIELDS.filter((f) => merged[f])));
      saveDraft(store, merged, Date.now(), keyRef.current);
      if (saved) setNotice('restored');
    }
  }, []);

  useEffect(() => {
    if (!navigator.onLine) setConnection('offline');
    const offline = () => setConnection('offline');
    const online = () => {
      setConnection((was) => (was ? 'back' : null));
      // A token solved before the connection dropped may have expired by now: ask for a new one.
      if (tokenAtRef.current && Date.now() - tokenAtRef.current > CAPTCHA_TOKEN_MAX_AGE_MS) {
        tokenAtRef.current = 0;
        setToken(null);
        captchaRef.current?.reset();
      }
    };
    window.addEventListener('offline', offline);
    window.addEventListener('online', online);
    return () => {
      window.removeEventListener('offline', offline);
      window.removeEventListener('online', online);
    };
  }, []);

  const forgetDraft = () => {
    clearDraft(siteStorage);
    clearDraft(tabStorage);
    keyRef.current = newIdempotencyKey();
    setDraft(EMPTY_DRAFT);
    setTouched(new Set());
    setNotice('cleared');
  };

  const update = (field: AppealField, value: string) => {
    const next = { ...draft, [field]: value };
    setDraft(next);
    saveDraft(draftStore, next, Date.now(), keyRef.current);
  };
  /** The draft moves to where the citizen wants it, and is removed from the other place. */
  const keepOnDevice = (wanted: boolean) => {
    setKeep(wanted);
    saveDraft(wanted ? siteStorage : tabStorage, draft, Date.now(), keyRef.current);
    clearDraft(wanted ? tabStorage : siteStorage);
  };
  /** A field is checked once the citizen leaves it, not at the first keystroke. */
  const leave = (field: AppealField) => {
    if (draft[field]) setTouched((t) => new Set(t).add(field));
  };

  const invalid = invalidFields(draft, touched);

  /** The citizen starts the form with its first focus in a field: the captcha begins to load. */
  const started = (event: FocusEvent<HTMLFormElement>) => {
    if (event.target instanceof HTMLInputElement || event.target instanceof HTMLTextAreaElement) {
      if ((APPEAL_FIELDS as readonly string[]).includes(event.target.name)) captchaRef.current?.start();
      // The browser scrolls only to a field it cannot see at all: one the keyboard reached half below the
      // screen's edge (the tall message box) is brought whole into view, clear of the sticky bar and the cookie bar.
      event.target.scrollIntoView({ block: 'nearest' });
    }
  };
  const solved = (t: string | null) => {
    tokenAtRef.current = t ? Date.now() : 0;
    setToken(t);
    if (t) setCaptchaMissing(false);
  };

  async function submit(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    if (sending) return;
    const all = invalidFields(draft, 'all');
    if (all.size) setTouched(new Set(APPEAL_FIELDS));
    if (!token) setCaptchaMissing(true);
    if (all.size) {
      // Every problem at the top, each a link to its field (GOV.UK's error summary), and focus there.
      setSummaryShown((n) => n + 1);
      return;
    }
    setSummaryShown(0);
    if (!token) {
      // Nothing is sent without the check: say so there, and go to it (loading it if it has not begun).
      captchaRef.current?.focus();
      return;
    }
    if (!navigator.onLine) {
      // Nothing would leave the device: say so rather than fail after a time-out.
      setConnection('offline');
      return;
    }
    setSending(true);
    const client = createApiClient({ baseUrl: apiBase, timeoutMs: 20_000 });
    try {
      const outcome = await client.apply({ ...draft, captchaToken: token, idempotencyKey: keyRef.current }, lang);
      setConnection(null);
      if (outcome.kind === 'sent') {
        clearDraft(siteStorage);
        clearDraft(tabStorage);
        keyRef.current = newIdempotencyKey();
        setDraft(EMPTY_DRAFT);
        setTouched(new Set());
        setNotice(null);
        setSent(outcome.message);
      } else if (outcome.kind === 'too-short') {
        void toast('warning', m['appeal.tooShort'], m['toast.close']);
      } else {
        void toast('error', outcome.message, m['toast.close']);
      }
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      // No HTTP status: the request or its answer was lost on the way (or timed out). The server may
      // have the appeal; the resend carries the same key, so it is not filed twice.
      if (err.status === undefined) setConnection(navigator.onLine ? 'lost' : 'offline');
      void toast('error', m['appeal.notSent'], m['toast.close']);
    } finally {
      setSending(false);
      // A token is good for one submission: ask for a new one.
      setToken(null);
      captchaRef.current?.reset();
    }
  }

  if (sent) {
    const [before, after] = m['appeal.sentKeep'].split('{phone}');
    return (
      <div ref={sentRef} className="panel panel--narrow appeal-form__sent" role="status" tabIndex={-1} aria-label={m['appeal.sentTitle']}>
        <p className="appeal-form__sent-message">{sent}</p>
        <p>
          {before}
          <a href={helpline.href}>{helpline.number}</a>
          {after}
        </p>
        <p>{m['appeal.sentTerms']}</p>
        <button type="button" className="button" onClick={() => setSent(null)}>
          {m['appeal.another']}
        </button>
      </div>
    );
  }

  /** The problems that keep the appeal from being sent, in the order of the form. */
  const problems: { text: string; go: () => void; href: string }[] = summaryShown
    ? [
        ...[...invalidFields(draft, 'all')].map(([field, problem]) => ({
          text: `${m[LABELS[field]]}: ${m[PROBLEMS[problem]]}`,
          href: `#${id}-${field}`,
          go: () => document.getElementById(`${id}-${field}`)?.focus(),
        })),
        ...(token ? [] : [{ text: m['appeal.captchaHint'], href: `#${id}-captcha-hint`, go: () => captchaRef.current?.focus() }]),
      ]
    : [];

  return (
    <form ref={formRef} className="panel panel--narrow" onSubmit={submit} onFocus={started} noValidate aria-describedby={`${id}-captcha-hint`}>
      {problems.length > 0 && (
        <div ref={summaryRef} className="appeal-form__summary" role="alert" tabIndex={-1} aria-labelledby={`${id}-summary-title`}>
          <h2 id={`${id}-summary-title`}>{m['appeal.problemTitle']}</h2>
          <ul>
            {problems.map((p) => (
              <li key={p.href}>
                <a
                  href={p.href}
                  onClick={(event) => {
                    event.preventDefault();
                    p.go();
                  }}
                >
                  {p.text}
                </a>
              </li>
            ))}
          </ul>
        </div>
      )}
      <div role="status">
        {notice === 'restored' && (
          <p className="appeal-form__notice">
            {m['appeal.draftRestored']} {m['appeal.draftPrivacy']}{' '}
            <button type="button" className="appeal-form__clear" onClick={forgetDraft}>
              {m['appeal.draftClear']}
            </button>
          </p>
        )}
        {notice === 'cleared' && <p className="appeal-form__notice">{m['appeal.draftCleared']}</p>}
        {connection && (
          <p className={`appeal-form__notice appeal-form__connection appeal-form__connection--${connection}`}>
            {m[connection === 'offline' ? 'appeal.offline' : connection === 'lost' ? 'appeal.connectionLost' : 'appeal.online']}
          </p>
        )}
      </div>
      {APPEAL_FIELDS.map((field) => {
        const inputId = `${id}-${field}`;
        const errorId = `${inputId}-error`;
        const hintId = `${inputId}-hint`;
        const problem = invalid.get(field);
        const common = {
          id: inputId,
          name: field,
          value: draft[field],
          required: true,
          minLength: 10,
          autoComplete: INPUT[field].autoComplete,
          'aria-invalid': problem ? true : undefined,
          'aria-describedby': problem ? `${errorId} ${hintId}` : hintId,
          onBlur: () => leave(field),
        };
        return (
          <div className="form-field" key={field}>
            <label htmlFor={inputId}>{m[LABELS[field]]}</label>
            <p className="form-field__hint" id={hintId}>
              {m[HINTS[field]]}
            </p>
            {INPUT[field].type === 'textarea' ? (
              <textarea {...common} rows={6} onChange={(e) => update(field, e.target.value)} />
            ) : (
              <input
                {...common}
                type={INPUT[field].type}
                inputMode={INPUT[field].inputMode}
                placeholder={field === 'phone' ? m['appeal.phonePlaceholder'] : undefined}
                onChange={(e) => update(field, e.target.value)}
              />
            )}
            {/* Always there, so that a message appearing in it is announced. */}
            <p className="appeal-form__error" id={errorId} aria-live="polite">
              {problem ? m[PROBLEMS[problem]] : ''}
            </p>
          </div>
        );
      })}
      <div className="form-field appeal-form__keep">
        <input id={`${id}-keep`} type="checkbox" checked={keep} onChange={(e) => keepOnDevice(e.target.checked)} aria-describedby={`${id}-keep-hint`} />
        <label htmlFor={`${id}-keep`}>{m['appeal.keepDraft']}</label>
        <p className="form-field__hint" id={`${id}-keep-hint`}>
          {m['appeal.keepDraftHint']}
        </p>
      </div>
      <AppealCaptcha ref={captchaRef} config={captcha} idPrefix={id} messages={m} missing={captchaMissing} onToken={solved} />
      {/* Never greyed out before the check is done: pressed, it says what is missing and goes there. */}
      <button type="submit" className="button appeal-form__send" disabled={!hydrated || sending} aria-describedby={token ? undefined : `${id}-captcha-hint`}>
        {sending ? m['appeal.sending'] : m['appeal.submit']}
      </button>
    </form>
  );
}

export default withCrashScreen(AppealForm);
