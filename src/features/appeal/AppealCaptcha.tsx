/**
 * The appeal form's check that the citizen is not a robot, passed before the form can be sent. hCaptcha is another company's service, so
 * nothing is asked of it when the page loads: its script and frame load when the citizen starts
 * the form (the first focus or input in a field, which AppealForm reports through `start`), presses the
 * button that says it loads hCaptcha, or tries to send. Starting on the first field rather than waiting for
 * the button lets the script arrive while the citizen types, so on a slow connection the check is there by
 * the time the appeal is written; the button serves a citizen who returns to a restored draft.
 *
 * A load that fails (no connection) or never ends (CAPTCHA_LOAD_TIMEOUT_MS) is said in the page, announced,
 * with a button to try again; the browser coming back online tries again by itself. Nothing typed is
 * touched. On the bundled sample API (no internet) a local checkbox stands in for hCaptcha.
 */
import HCaptcha from '@hcaptcha/react-hcaptcha';
import { useEffect, useImperativeHandle, useRef, useState, type Ref } from 'react';
import type { MessageKey } from '../../i18n/t.ts';
import { CAPTCHA_LOAD_TIMEOUT_MS } from './appeal.ts';

export const CAPTCHA_MESSAGES = [
  'appeal.captchaHint',
  'appeal.captchaAbout',
  'appeal.captchaLoad',
  'appeal.captchaLoading',
  'appeal.captchaError',
  'appeal.captchaRetry',
  'appeal.captchaMissing',
  'appeal.demoCaptcha',
] as const satisfies readonly MessageKey[];

/** hCaptcha in production; on the bundled sample API (no internet), a local stand-in. */
export type CaptchaConfig = { mode: 'hcaptcha'; sitekey: string; language: string } | { mode: 'demo' };

export interface CaptchaHandle {
  /** The citizen has started the form: hCaptcha begins to load (once; a failed load waits for the button). */
  start(): void;
  /** Forgets the solved check: a token is good for one submission. */
  reset(): void;
  /** Takes the citizen to the check (loading it first if nothing has asked for it yet). */
  focus(): void;
}

interface Props {
  config: CaptchaConfig;
  /** Prefix of the ids in here; the hint's id is `${idPrefix}-captcha-hint`, which the form refers to. */
  idPrefix: string;
  messages: Record<(typeof CAPTCHA_MESSAGES)[number], string>;
  /** The citizen tried to send without solving the check: say so. */
  missing: boolean;
  onToken: (token: string | null) => void;
  ref?: Ref<CaptchaHandle>;
}

/** idle: nothing asked of hCaptcha yet; loading: its script is on the way; ready: the widget shows. */
type Phase = 'idle' | 'loading' | 'ready' | 'failed';
/** Errors that mean hCaptcha could not be reached, rather than a challenge the citizen can take again. */
const LOAD_ERRORS = new Set(['script-error', 'script-load-error-other', 'network-error']);
/** The width of hCaptcha's normal checkbox frame; narrower than this (a 320 px phone), its compact one. */
const NORMAL_WIDGET_PX = 303;

export function AppealCaptcha({ config, idPrefix, messages: m, missing, onToken, ref }: Props) {
  const [phase, setPhase] = useState<Phase>('idle');
  const [demoChecked, setDemoChecked] = useState(false);
  const [compact, setCompact] = useState(false);
  const group = useRef<HTMLDivElement>(null);
  const hcaptcha = useRef<HCaptcha>(null);
  const widget = useRef<HTMLDivElement>(null);
  const loadButton = useRef<HTMLButtonElement>(null);
  const demoBox = useRef<HTMLInputElement>(null);
  /** Focus goes to the widget once it shows, when the citizen asked for it (not while they type). */
  const focusWhenReady = useRef(false);

  const load = (takeFocus: boolean) => {
    if (config.mode !== 'hcaptcha') return;
    if (takeFocus) focusWhenReady.current = true;
    setPhase((p) => (p === 'idle' || p === 'failed' ? 'loading' : p));
  };
  const focusWidget = () => widget.current?.querySelector<HTMLElement>('iframe, button, [tabindex]')?.focus();

  useImperativeHandle(ref, () => ({
    start: () => {
      if (config.mode === 'hcaptcha') setPhase((p) => (p === 'idle' ? 'loading' : p));
    },
    reset: () => {
      if (config.mode === 'demo') setDemoChecked(false);
      else hcaptcha.current?.resetCaptcha();
    },
    focus: () => {
      if (config.mode === 'demo') demoBox.current?.focus();
      else if (phase === 'ready') focusWidget();
      else {
        // Not asked for yet: trying to send asks for it. After a failure the button offers to try again.
        loadButton.current?.focus();
        if (phase === 'idle') load(true);
      }
    },
  }));

  useEffect(() => setCompact((group.current?.clientWidth ?? NORMAL_WIDGET_PX) < NORMAL_WIDGET_PX), []);

  // A load that never ends is a lost connection too.
  useEffect(() => {
    if (phase !== 'loading') return;
    const timer = setTimeout(() => setPhase((p) => (p === 'loading' ? 'failed' : p)), CAPTCHA_LOAD_TIMEOUT_MS);
    return () => clearTimeout(timer);
  }, [phase]);

  // Back online after a failed load: try again without being asked.
  useEffect(() => {
    if (phase !== 'failed') return;
    const retry = () => setPhase('loading');
    window.addEventListener('online', retry);
    return () => window.removeEventListener('online', retry);
  }, [phase]);

  useEffect(() => {
    if (phase === 'ready' && focusWhenReady.current) {
      focusWhenReady.current = false;
      focusWidget();
    }
  }, [phase]);

  const hintId = `${idPrefix}-captcha-hint`;
  const statusId = `${idPrefix}-captcha-status`;
  return (
    <div ref={group} className="appeal-form__captcha" role="group" aria-labelledby={hintId}>
      <p id={hintId}>{m['appeal.captchaHint']}</p>
      {config.mode === 'demo' ? (
        <label className="appeal-form__demo-captcha">
          <input
            ref={demoBox}
            type="checkbox"
            checked={demoChecked}
            onChange={(e) => {
              setDemoChecked(e.target.checked);
              onToken(e.target.checked ? 'demo-captcha-token' : null);
            }}
          />
          {m['appeal.demoCaptcha']}
        </label>
      ) : (
        <>
          {phase === 'idle' && <p>{m['appeal.captchaAbout']}</p>}
          {(phase === 'loading' || phase === 'ready') && (
            <div ref={widget} className="appeal-form__widget">
              <HCaptcha
                ref={hcaptcha}
                sitekey={config.sitekey}
                languageOverride={config.language}
                size={compact ? 'compact' : 'normal'}
                sentry={false}
                // onReady, not onLoad: a widget drawn again (another appeal, a retry after a late script) has
                // no load, only the drawing.
                onReady={() => setPhase('ready')}
                onVerify={(token) => onToken(token)}
                onExpire={() => onToken(null)}
                onError={(error) => {
                  onToken(null);
                  setPhase((p) => (p === 'loading' || LOAD_ERRORS.has(error) ? 'failed' : p));
                }}
              />
            </div>
          )}
          {/* Always there, so that what appears in it is announced. */}
          <p id={statusId} role="status" className={phase === 'failed' ? 'appeal-form__captcha-failed' : undefined}>
            {phase === 'loading' ? m['appeal.captchaLoading'] : phase === 'failed' ? m['appeal.captchaError'] : ''}
          </p>
          {phase !== 'ready' && (
            // One button from "load" to "loading" to "try again", so focus stays on it throughout.
            <button
              ref={loadButton}
              type="button"
              className="appeal-form__load"
              aria-disabled={phase === 'loading' || undefined}
              aria-describedby={statusId}
              onClick={() => load(true)}
            >
              {phase === 'failed' ? m['appeal.captchaRetry'] : m['appeal.captchaLoad']}
            </button>
          )}
        </>
      )}
      <p className="appeal-form__error" aria-live="polite">
        {missing ? m['appeal.captchaMissing'] : ''}
      </p>
    </div>
  );
}
