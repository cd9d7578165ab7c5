/**
 * The appeal form's rules (docs/rules.md, Appeal form): five required fields, each at least 10
 * characters, the phone a phone number and the e-mail an address; each rule is
 * said under its field from the start, and a field is checked when the citizen
 * leaves it or sends the form, not at the first keystroke. Also the
 * draft kept until the server confirms the appeal: it holds a citizen's name,
 * phone and e-mail, possibly on a shared computer (a library, a mahalla office),
 * so by default it lives in the tab's session storage and goes with the tab; only
 * when the citizen asks is it kept on the device, for at most a day.
 */
import { APPEAL_MIN_LENGTH } from '../../constants.ts';
import type { MessageKey } from '../../i18n/t.ts';
import { STORAGE_KEYS } from '../../lib/storage.ts';

export const APPEAL_FIELDS = ['fullName', 'phone', 'email', 'subject', 'message'] as const;
export type AppealField = (typeof APPEAL_FIELDS)[number];
export type AppealDraft = Record<AppealField, string>;

/** Each field as the citizen meets it: its label, the rule said under it, and what the phone's keyboard offers. */
export const APPEAL_FIELD_INPUTS: Record<
  AppealField,
  { label: MessageKey; hint: MessageKey; type: 'text' | 'tel' | 'email' | 'textarea'; autocomplete: string; inputmode?: 'tel' | 'email' }
> = {
  fullName: { label: 'appeal.fullName', hint: 'appeal.hintLength', type: 'text', autocomplete: 'name' },
  phone: { label: 'appeal.phone', hint: 'appeal.hintPhone', type: 'tel', autocomplete: 'tel', inputmode: 'tel' },
  email: { label: 'appeal.email', hint: 'appeal.hintEmail', type: 'email', autocomplete: 'email', inputmode: 'email' },
  subject: { label: 'appeal.subject', hint: 'appeal.hintLength', type: 'text', autocomplete: 'off' },
  message: { label: 'appeal.message', hint: 'appeal.hintLength', type: 'textarea', autocomplete: 'off' },
};

/** The id of a part of the form (a field, its hint or error, the captcha's hint): one form per page. */
export const fieldId = (part: string) => `appeal-${part}`;

/** hCaptcha in production; on the bundled sample API (no internet), a local stand-in. */
export type CaptchaConfig = { mode: 'hcaptcha'; sitekey: string; language: string } | { mode: 'demo' };

/** What the form's script says in the page: the rest of the form is in its HTML. */
export const APPEAL_MESSAGES = [
  'appeal.minLength',
  'appeal.badPhone',
  'appeal.badEmail',
  'appeal.submit',
  'appeal.sending',
  'appeal.tooShort',
  'appeal.notSent',
  'appeal.draftRestored',
  'appeal.draftPrivacy',
  'appeal.draftClear',
  'appeal.draftCleared',
  'appeal.offline',
  'appeal.connectionLost',
  'appeal.online',
  'appeal.sentTitle',
  'appeal.captchaHint',
  'appeal.captchaLoad',
  'appeal.captchaLoading',
  'appeal.captchaError',
  'appeal.captchaRetry',
  'appeal.captchaMissing',
  'toast.close',
] as const satisfies readonly MessageKey[];
export type AppealMessages = Record<(typeof APPEAL_MESSAGES)[number], string>;

/** What the citizen reads under a field with a problem. */
export const PROBLEM_MESSAGES = { short: 'appeal.minLength', phone: 'appeal.badPhone', email: 'appeal.badEmail' } as const satisfies Record<FieldProblem, MessageKey>;

export const EMPTY_DRAFT: AppealDraft = { fullName: '', phone: '', email: '', subject: '', message: '' };
export const DRAFT_STORAGE_KEY = STORAGE_KEYS.appealDraft;
/** Long enough to survive a reload, a lost connection or coming back the next morning; no longer. */
const DRAFT_MAX_AGE_MS = 24 * 60 * 60 * 1000;

function fieldTooShort(value: string): boolean {
  return value.trim().length < APPEAL_MIN_LENGTH;
}

/** What is wrong with a field's value, or null. */
export type FieldProblem = 'short' | 'phone' | 'email';

/** A phone number as people write it: digits with spaces, hyphens, brackets and a leading +; 9 to 15 digits. */
const PHONE = /^\+?[\d\s()-]+$/;
/** An address with a name, an @ and a domain with a dot: what the server can write to. */
const EMAIL = /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/;

export function fieldProblem(field: AppealField, value: string): FieldProblem | null {
  const v = value.trim();
  if (field === 'phone' && v && (!PHONE.test(v) || !/^\d{9,15}$/.test(v.replace(/\D/g, '')))) return 'phone';
  if (field === 'email' && v && !EMAIL.test(v)) return 'email';
  return fieldTooShort(v) ? 'short' : null;
}

/** Fields with a problem among those the citizen has left (or all, on sending), with the problem of each. */
export function invalidFields(draft: AppealDraft, checked: ReadonlySet<AppealField> | 'all'): Map<AppealField, FieldProblem> {
  const out = new Map<AppealField, FieldProblem>();
  for (const f of APPEAL_FIELDS) {
    const problem = checked === 'all' || checked.has(f) ? fieldProblem(f, draft[f]) : null;
    if (problem) out.set(f, problem);
  }
  return out;
}

type Store = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

/** The saved draft, or null: none, damaged, or older than DRAFT_MAX_AGE_MS (then it is removed). */
export function loadDraft(store: Store, now = Date.now()): AppealDraft | null {
  try {
    const raw = store.getItem(DRAFT_STORAGE_KEY);
    if (!raw) return null;
    const parsed = JSON.parse(raw) as Partial<Record<string, unknown>>;
    const savedAt = parsed.savedAt;
    // A draft without a time (saved before drafts expired) counts as expired.
    if (typeof savedAt !== 'number' || !(now - savedAt < DRAFT_MAX_AGE_MS) || savedAt > now + 60_000) {
      store.removeItem(DRAFT_STORAGE_KEY);
      return null;
    }
    const draft = { ...EMPTY_DRAFT };
    for (const f of APPEAL_FIELDS) if (typeof parsed[f] === 'string') draft[f] = parsed[f];
    return APPEAL_FIELDS.some((f) => draft[f]) ? draft : null;
  } catch {
    return null;
  }
}

/**
 * The idempotency key kept with the saved draft, or null (none yet, or no draft). It outlives a
 * reload, so a citizen who resends tomorrow what may have arrived today does not file it twice.
 */
export function loadDraftKey(store: Store, now = Date.now()): string | null {
  if (!loadDraft(store, now)) return null;
  try {
    const key = (JSON.parse(store.getItem(DRAFT_STORAGE_KEY) ?? '{}') as { idempotencyKey?: unknown }).idempotencyKey;
    return typeof key === 'string' && IDEMPOTENCY_KEY.test(key) ? key : null;
  } catch {
    return null;
  }
}

export function saveDraft(store: Store, draft: AppealDraft, now = Date.now(), idempotencyKey?: string): void {
  try {
    if (APPEAL_FIELDS.some((f) => draft[f])) store.setItem(DRAFT_STORAGE_KEY, JSON.stringify({ ...draft, savedAt: now, idempotencyKey }));
    else store.removeItem(DRAFT_STORAGE_KEY);
  } catch {
    // Storage full or disabled: the form still works, only without the safety copy.
  }
}

export function clearDraft(store: Store): void {
  try {
    store.removeItem(DRAFT_STORAGE_KEY);
  } catch {
    // Nothing to clear.
  }
}

/** A key as the form makes it (a UUID); anything else found in storage is replaced. */
const IDEMPOTENCY_KEY = /^[0-9a-f-]{32,36}$/i;

/**
 * A new idempotency key for a new appeal draft. crypto.randomUUID needs a secure context (HTTPS or
 * localhost); over plain HTTP the same 122 random bits come from getRandomValues.
 */
export function newIdempotencyKey(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = (b[6]! & 0x0f) | 0x40;
  b[8] = (b[8]! & 0x3f) | 0x80;
  const h = [...b].map((x) => x.toString(16).padStart(2, '0')).join('');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/**
 * hCaptcha's tokens are valid for 120 s. A token older than this when the connection comes back may
 * be dead by the time the appeal reaches the API, so the form asks for a new one.
 */
export const CAPTCHA_TOKEN_MAX_AGE_MS = 100_000;

/**
 * How long hCaptcha may take to load before the form says it could not and offers to try again. A
 * connection that drops without the phone noticing fails no request, it only never answers; 30 s is
 * past what hCaptcha's script takes on a slow mobile connection that still works.
 */
export const CAPTCHA_LOAD_TIMEOUT_MS = 30_000;
