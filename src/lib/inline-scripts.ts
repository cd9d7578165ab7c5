/**
 * The site's own inline scripts: the only ones a page may carry besides Astro's island loader.
 * They run before the page paints, so they cannot wait for a module. scripts/pipeline/finish/csp.ts allows
 * exactly these (by hash) and fails the build on any other inline script, which could only have
 * come through the content (a sanitiser regression).
 */
import { LANGUAGES } from '../i18n/languages.ts';
import { panelChoicesScript, prePaintScript } from '../features/accessibility-panel/accessibility.ts';
import { STORAGE_KEYS } from './storage.ts';
import { BASE_PATH } from './base-path.ts';

/** Marks that JavaScript runs, so CSS can show the controls that need it. */
export const JS_CLASS_SCRIPT = "document.documentElement.classList.add('js')";

/**
 * The phone menu's toggle (MainNav) works from the first paint, before any module has arrived: on a slow
 * line the toggle shows seconds before the scripts, and a tap then must not be lost. One
 * listener on the document flips the toggle's aria-expanded, from which MainNav's CSS shows the overlay
 * and the toggle's label, places the overlay under the bar and holds the page still; MainNav's module adds
 * the rest (Escape, Tab round the menu, the place on resize, the sticky bar) and closes it through the toggle.
 */
export const MENU_TOGGLE_SCRIPT =
  "document.addEventListener('click',function(e){var b=e.target.closest&&e.target.closest('[data-nav-toggle]'),h=document.documentElement,o;" +
  "if(b){o=b.getAttribute('aria-expanded')!='true';b.setAttribute('aria-expanded',o);h.classList.toggle('menu-open',o);" +
  "h.style.setProperty('--menu-top',Math.max(0,b.closest('[data-nav-bar]').getBoundingClientRect().bottom)+'px')}})";

/**
 * An unprefixed (default-language) page opened by someone who chose another language goes to
 * that language's version before it paints (docs/rules.md, Languages). The stored value is looked up as an own
 * property only: `__proto__` or `constructor` must not lead anywhere.
 */
export function languageRedirectScript(): string {
  const prefixes = Object.fromEntries(LANGUAGES.filter((l) => l.prefix).map((l) => [l.number, l.prefix]));
  return (
    `try{var m=${JSON.stringify(prefixes)},v=localStorage.getItem(${JSON.stringify(STORAGE_KEYS.language)}),` +
    `p=v!==null&&Object.prototype.hasOwnProperty.call(m,v)?m[v]:null;` +
    // The page's address after the site's base path (src/lib/base-path.ts), which these pages are always under.
    `if(p){var b=${JSON.stringify(BASE_PATH)},r=location.pathname.slice(b.length)||'/';location.replace(b+'/'+p+(r==='/'?'/':r)+location.search+location.hash)}}catch(e){}`
  );
}

/**
 * A host that serves one not-found page for every address it lacks (GitHub Pages, an S3 bucket, a CDN's error
 * page) shows the default language's for `/ru/…` too: on that page, an address of another language sends the
 * visitor to that language's not-found page before it paints. nginx, `npm run preview` and hosts that read
 * `_redirects` serve the right one at once, and the page then stays where it is.
 */
export function notFoundLanguageScript(): string {
  // The prefixes are letters and hyphens (src/i18n/languages.ts): nothing to escape in a pattern.
  const prefixes = LANGUAGES.filter((l) => l.prefix).map((l) => l.prefix);
  return `var b=${JSON.stringify(BASE_PATH)},m=/^\\/(${prefixes.join('|')})\\//.exec(location.pathname.slice(b.length));` + `if(m)location.replace(b+'/'+m[1]+'/404/')`;
}

/** Every inline script the layouts write. */
export function siteInlineScripts(): string[] {
  return [languageRedirectScript(), notFoundLanguageScript(), JS_CLASS_SCRIPT, MENU_TOGGLE_SCRIPT, prePaintScript(), panelChoicesScript()];
}
