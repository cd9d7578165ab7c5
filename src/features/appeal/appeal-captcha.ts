/**
 * The appeal form's check that the citizen is not a robot, passed before the form can be sent. hCaptcha is another
 * company's service, so nothing is asked of it when the page loads: its script and frame load when the citizen
 * starts the form (the first focus in a field, which the form reports through `start`), presses the button that
 * says it loads hCaptcha, or tries to send. Starting on the first field rather than waiting for the button lets the
 * script arrive while the citizen types, so on a slow connection the check is there by the time the appeal is
 * written; the button serves a citizen who returns to a restored draft.
 *
 * A load that fails (no connection) or never ends (CAPTCHA_LOAD_TIMEOUT_MS) is said in the page, announced, with a
 * button to try again; the browser coming back online tries again by itself. Nothing typed is touched. On the
 * bundled sample API (no internet) a local checkbox in the HTML stands in for hCaptcha.
 */
// Imported with the form, not when first needed: a module that failed to arrive once (offline at the first focus)
// would fail again at every retry until the page is reloaded, where hCaptcha's own script is asked for anew.
import { hCaptchaLoader } from '@hcaptcha/loader';
import { CAPTCHA_LOAD_TIMEOUT_MS, type AppealMessages, type CaptchaConfig } from './appeal.ts';

/** idle: nothing asked of hCaptcha yet; loading: its script is on the way; ready: the widget shows. */
type Phase = 'idle' | 'loading' | 'ready' | 'failed';
/** Errors that mean hCaptcha could not be reached, rather than a challenge the citizen can take again. */
const LOAD_ERRORS = new Set(['script-error', 'script-load-error-other', 'network-error']);
/** The width of hCaptcha's normal checkbox frame; narrower than this (a 320 px phone), its compact one. */
const NORMAL_WIDGET_PX = 303;
const DEMO_TOKEN = 'demo-captcha-token';

interface HCaptchaApi {
  render(el: HTMLElement, options: Record<string, unknown>): string;
  reset(id?: string): void;
}

export class AppealCaptcha {
  #phase: Phase = 'idle';
  #group: HTMLElement;
  #config: CaptchaConfig;
  #m: AppealMessages;
  #onToken: (token: string | null) => void;
  #demoBox: HTMLInputElement | null;
  #widget: HTMLElement | null;
  #status: HTMLElement | null;
  #loadButton: HTMLButtonElement | null;
  #missing: HTMLElement | null;
  #api: HCaptchaApi | null = null;
  #widgetId: string | undefined;
  #timer: ReturnType<typeof setTimeout> | undefined;
  /** Focus goes to the widget once it shows, when the citizen asked for it (not while they type). */
  #focusWhenReady = false;

  constructor(group: HTMLElement, config: CaptchaConfig, messages: AppealMessages, onToken: (token: string | null) => void) {
    this.#group = group;
    this.#config = config;
    this.#m = messages;
    this.#onToken = onToken;
    this.#demoBox = group.querySelector('input[name="demo-captcha"]');
    this.#widget = group.querySelector('[data-captcha-widget]');
    this.#status = group.querySelector('[data-captcha-status]');
    this.#loadButton = group.querySelector('[data-captcha-load]');
    this.#missing = group.querySelector('[data-captcha-missing]');
  }

  /** Its buttons work from now on; a demo box ticked before the script ran counts as solved. */
  connect(): void {
    this.#demoBox?.addEventListener('change', () => this.#onToken(this.#demoBox!.checked ? DEMO_TOKEN : null));
    if (this.#demoBox?.checked) this.#onToken(DEMO_TOKEN);
    if (this.#loadButton) {
      this.#loadButton.removeAttribute('aria-disabled');
      this.#loadButton.setAttribute('aria-describedby', this.#status?.id ?? '');
      this.#loadButton.dataset.ready = 'true';
      this.#loadButton.addEventListener('click', () => this.#load(true));
    }
    // Back online after a failed load: try again without being asked.
    addEventListener('online', () => {
      if (this.#phase === 'failed') this.#load(false);
    });
  }

  /** The citizen has started the form: hCaptcha begins to load (once; a failed load waits for the button). */
  start(): void {
    if (this.#phase === 'idle') this.#load(false);
  }

  /** Forgets the solved check: a token is good for one submission. */
  reset(): void {
    if (this.#demoBox) this.#demoBox.checked = false;
    else if (this.#phase === 'ready') this.#api?.reset(this.#widgetId);
  }

  /** Takes the citizen to the check (loading it first if nothing has asked for it yet). */
  focus(): void {
    if (this.#demoBox) this.#demoBox.focus();
    else if (this.#phase === 'ready') this.#focusWidget();
    else {
      // Not asked for yet: trying to send asks for it. After a failure the button offers to try again.
      this.#loadButton?.focus();
      if (this.#phase === 'idle') this.#load(true);
    }
  }

  /** The citizen tried to send without solving the check: say so. */
  set missing(missing: boolean) {
    if (this.#missing) this.#missing.textContent = missing ? this.#m['appeal.captchaMissing'] : '';
  }

  #load(takeFocus: boolean): void {
    if (takeFocus) this.#focusWhenReady = true;
    if (this.#config.mode !== 'hcaptcha' || this.#phase === 'loading' || this.#phase === 'ready') return;
    this.#show('loading');
    // A load that never ends is a lost connection too.
    this.#timer = setTimeout(() => this.#phase === 'loading' && this.#show('failed'), CAPTCHA_LOAD_TIMEOUT_MS);
    const { sitekey, language } = this.#config;
    (hCaptchaLoader({ render: 'explicit', sentry: false, hl: language }) as Promise<HCaptchaApi>)
      .then((api) => {
        this.#api = api;
        if (this.#phase !== 'loading') return;
        // The focus is on the button that is about to go: it moves to the widget.
        if (document.activeElement === this.#loadButton) this.#focusWhenReady = true;
        this.#show('ready');
        const compact = this.#group.clientWidth < NORMAL_WIDGET_PX;
        // A widget drawn before (a load error since) is drawn afresh, not shown as it was left.
        if (this.#widgetId !== undefined) api.reset(this.#widgetId);
        this.#widgetId ??= api.render(this.#widget!, {
          sitekey,
          hl: language,
          size: compact ? 'compact' : 'normal',
          callback: (token: string) => this.#onToken(token),
          'expired-callback': () => this.#onToken(null),
          'error-callback': (error: string) => {
            this.#onToken(null);
            if (LOAD_ERRORS.has(error)) this.#show('failed');
          },
        });
        if (this.#focusWhenReady) {
          this.#focusWhenReady = false;
          this.#focusWidget();
        }
      })
      .catch(() => this.#phase === 'loading' && this.#show('failed'));
  }

  #show(phase: Phase): void {
    this.#phase = phase;
    if (phase !== 'loading') clearTimeout(this.#timer);
    // A retry the citizen did not ask for (back online) must not pull focus from the field they are typing in.
    if (phase === 'failed') this.#focusWhenReady = false;
    this.#group.querySelector('[data-captcha-about]')?.toggleAttribute('hidden', phase !== 'idle');
    if (this.#widget) this.#widget.hidden = phase !== 'ready';
    if (this.#status) {
      this.#status.textContent = phase === 'loading' ? this.#m['appeal.captchaLoading'] : phase === 'failed' ? this.#m['appeal.captchaError'] : '';
      this.#status.classList.toggle('appeal-form__captcha-failed', phase === 'failed');
    }
    const button = this.#loadButton;
    if (!button) return;
    // Focus would be lost with the button: it goes to the widget instead.
    button.hidden = phase === 'ready';
    if (phase === 'loading') button.setAttribute('aria-disabled', 'true');
    else button.removeAttribute('aria-disabled');
    button.textContent = phase === 'failed' ? this.#m['appeal.captchaRetry'] : this.#m['appeal.captchaLoad'];
  }

  #focusWidget(): void {
    this.#widget?.querySelector<HTMLElement>('iframe, button, [tabindex]')?.focus();
  }
}
