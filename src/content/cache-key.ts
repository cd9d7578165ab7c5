/**
 * The incremental build's page keys (Astro `cacheKey`). A page is reused only
 * when its key is unchanged, so the key must cover every input the page
 * renders that is not code (code is hashed by Astro itself): its props, the
 * menu of its language, and the site's settings. Routes never build keys by
 * hand; `perLanguage` does it from their props.
 */
import { createHash, hash } from 'node:crypto';
import { readConfig, type SiteConfig } from '../config.ts';
import { districtDigest } from '../district/district.ts';
import { DISTRICT_KEY } from '../district/key.ts';

/**
 * Settings that cannot reach a page: where the pull keeps the snapshot. Every other setting is in every
 * key, by construction, so a new setting that some page shows cannot leave stale pages behind.
 */
export const SETTINGS_NOT_IN_PAGES = ['contentDir'] as const satisfies readonly (keyof SiteConfig)[];

/**
 * The settings that reach the HTML, the district's folder (its names, texts and pictures are on every page), and
 * the year (the footer prints it, so a page built in a new year is a new page).
 */
function environmentInputs(config: SiteConfig = readConfig()): unknown[] {
  const settings = Object.entries(config).filter(([name]) => !(SETTINGS_NOT_IN_PAGES as readonly string[]).includes(name));
  return [settings.sort(([a], [b]) => (a < b ? -1 : 1)), DISTRICT_KEY, districtDigest(), new Date().getFullYear()];
}

/** The digest of an input the pull has already hashed (a post: src/content/snapshot.ts `postDigests`), if it has one. */
export type KnownDigest = (value: object) => string | undefined;

/**
 * The key maker of a group of pages that share `shared` (a language's menu): the settings and the shared
 * inputs are hashed once, not once a page (the menu is some kilobytes, on 11,000 pages). An input that
 * `known` has a digest of is keyed by that digest, not by its whole text.
 */
export function pageKeys(shared: unknown[], known: KnownDigest = () => undefined): ((...inputs: unknown[]) => string) & { basis: string } {
  const base = createHash('sha256').update(JSON.stringify([environmentInputs(), ...shared]));
  const replace = (_name: string, value: unknown) => (typeof value === 'object' && value !== null && known(value)) || value;
  return Object.assign((...inputs: unknown[]) => base.copy().update(JSON.stringify(inputs, replace)).digest('base64url').slice(0, 32), {
    /** What every key of the group is made on (`madeFromKey`). */
    basis: base.copy().digest('base64url'),
  });
}

/** The length of each part of a key `madeFromKey` makes. */
export const MADE_FROM_PART = 22;
const part = (text: string) => hash('sha256', text, 'base64url').slice(0, MADE_FROM_PART);

/**
 * The key of a page made from plain values and posts the pull has hashed (src/lib/paths.ts), in two parts: what the
 * page is made from (`basis`, its parameters as listed, and its props as `madeFrom` says them), then the entries of the
 * files it names. The first part alone lets the build find the page in Astro's manifest without the files being looked
 * up again (src/content/unlisted-pages.ts `madeFrom`), when none of the build before's has changed since.
 */
export function madeFromKey(basis: string, listed: string, madeFrom: string): { madeFrom: string; withFiles: (files: readonly string[]) => string } {
  const first = part(`${basis}\n${listed}\n${madeFrom}`);
  return { madeFrom: first, withFiles: (files) => first + part(JSON.stringify(files)) };
}
