/**
 * The incremental build's page keys (Astro `cacheKey`). A page is reused only
 * when its key is unchanged, so the key must cover every input the page
 * renders that is not code (code is hashed by Astro itself): its props, the
 * menu of its language, and the build settings read from the environment.
 * Routes never build keys by hand; `perLanguage` does it from their props.
 */
import { createHash } from 'node:crypto';
import { readConfig } from '../config.ts';

/** Settings that reach the HTML without being part of Astro's config or of the code. */
function environmentInputs(): unknown[] {
  const c = readConfig();
  // The footer prints the year, so a page built in a new year is a new page.
  return [c.publicApiBase, c.mediaBase, c.hcaptchaSitekey, c.demoCaptcha, new Date().getFullYear()];
}

/**
 * The key maker of a group of pages that share `shared` (a language's menu): the settings and the shared
 * inputs are hashed once, not once a page (the menu is some kilobytes, on 11,000 pages).
 */
export function pageKeys(...shared: unknown[]): (...inputs: unknown[]) => string {
  const base = createHash('sha256').update(JSON.stringify([environmentInputs(), ...shared]));
  return (...inputs) => base.copy().update(JSON.stringify(inputs)).digest('base64url').slice(0, 32);
}
