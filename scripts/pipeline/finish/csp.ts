/**
 * The Content-Security-Policy of a built site. Scripts may come only from the
 * site itself and hCaptcha, plus the known inline scripts (Astro's island
 * loader and its directive scripts, and the site's own pre-paint scripts from
 * src/lib/inline-scripts.ts), each allowed by its SHA-256 hash: no
 * 'unsafe-inline' for scripts. Any other inline script in the build fails it:
 * it can only have come through the content, and hashing it would make the
 * policy allow exactly what it exists to stop. The policy is written beside
 * the release for the web server (content-security-policy.txt, and into
 * _headers for static hosts).
 */
import { Parser } from 'htmlparser2';
import { siteAddress } from '../../../src/lib/base-path.ts';
import { createHash } from 'node:crypto';
import { appendFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ASTRO_INLINE_SCRIPTS } from '../astro/island-scripts.ts';
import type { PageVisitor } from './page-visitor.ts';
import { VIDEO_PLAYER_ORIGINS } from '../../../src/features/video-embed/video-hosts.ts';
import { siteInlineScripts } from '../../../src/lib/inline-scripts.ts';

export const CSP_FILE = 'content-security-policy.txt';

/**
 * What a policy may look like to be handed to the web server: directives `name source …` joined by `; `, in
 * letters, digits and `:/.*'+=_-`. deploy/hokimiyat-load-policy, which root runs, holds the same grammar and
 * checks it again; this copy stops a build whose policy it would refuse, with a message that names it.
 */
const SOURCE = "[A-Za-z0-9:/.*'+=_-]+";
const DIRECTIVE = `[a-z][a-z-]*(?: ${SOURCE})*`;
export const POLICY_GRAMMAR = new RegExp(`^${DIRECTIVE}(?:; ${DIRECTIVE})*$`);
/** nginx refuses a quoted value over about 4 KiB: a longer policy would stop it for every site of the server. */
export const MAX_POLICY_BYTES = 4_000;

export class PolicyGrammarError extends Error {}

/** `policy`, or a PolicyGrammarError when the web server's helper would refuse it. */
export function checkedPolicy(policy: string): string {
  if (!POLICY_GRAMMAR.test(policy) || Buffer.byteLength(policy) > MAX_POLICY_BYTES) {
    throw new PolicyGrammarError(
      `the Content-Security-Policy ${JSON.stringify(policy.slice(0, 120))}${policy.length > 120 ? '…' : ''} is not of the form ` +
        `the web server takes (directives of letters, digits and :/.*'+=_-, at most ${MAX_POLICY_BYTES} bytes)`,
    );
  }
  return policy;
}
const HCAPTCHA = ['https://hcaptcha.com', 'https://*.hcaptcha.com'];
const MAP = 'https://www.openstreetmap.org';

/** The inline scripts a page of this site may carry: Astro's (as its runtime writes them) and the site's own. */
export const KNOWN_INLINE_SCRIPTS: ReadonlySet<string> = new Set([...ASTRO_INLINE_SCRIPTS, ...siteInlineScripts()]);

export class ForeignInlineScriptError extends Error {}

/** A scripts finding: places, a space between two, or none. */
const PLACES = /^(?:\d+(?: \d+)*)?$/;

/** An inline script's source expression in the policy. */
const sourceExpression = (body: string) => `'sha256-${createHash('sha256').update(body).digest('base64')}'`;

/**
 * The last pass's check of the inline scripts (./page-visitor.ts): the hashes of each page's, for the policy
 * (`hashes`, written by writePolicy once every page has been seen). A script the site did not write (a
 * sanitiser regression) fails the build, naming the page: it is never allowed by the policy.
 *
 * A page's finding names its scripts by their places among the site's own, sorted (`2 5 7`): the memo kept
 * every page's hashes, the same five on nearly every page, a third of its 43 MB at 10,000 news a language. The
 * places hold while the memo does (its basis is the pass's code and the site's scripts, finish-step.ts), and a
 * list already taken is known by its text.
 */
export function inlineScriptVisitor(): PageVisitor<string> & { hashes: Set<string> } {
  const ordered = [...KNOWN_INLINE_SCRIPTS].sort().map(sourceExpression);
  const placeOf = new Map(ordered.map((hash, i) => [hash, i]));
  const hashes = new Set<string>();
  const taken = new Set<string>();
  const places = (found: string) => (found ? found.split(' ').map(Number) : []);
  const take = (found: string) => {
    if (taken.has(found)) return found;
    taken.add(found);
    for (const place of places(found)) hashes.add(ordered[place]!);
    return found;
  };
  return {
    name: 'scripts',
    hashes,
    visit: ({ path, text }) => {
      try {
        return {
          finding: take(
            inlineScriptHashes(text())
              .map((hash) => placeOf.get(hash)!)
              .join(' '),
          ),
        };
      } catch (error) {
        if (error instanceof ForeignInlineScriptError) throw new ForeignInlineScriptError(`${path}: ${error.message}`);
        throw error;
      }
    },
    replay: (_page, found) => void take(found),
    readable: (found) => typeof found === 'string' && PLACES.test(found) && places(found).every((place) => place < ordered.length),
  };
}

/**
 * The SHA-256 source expression of every inline script in `html`, all of which must be known;
 * throws ForeignInlineScriptError on any other (data blocks, JSON and JSON-LD, are not scripts).
 */
export function inlineScriptHashes(html: string, known: ReadonlySet<string> = KNOWN_INLINE_SCRIPTS): string[] {
  // The parser costs 0.3 ms a page and, over 11,000 pages, some 500 MB of heap that V8 lets pile up before it
  // collects: a page whose script elements are all of the two forms the site writes is read without it.
  const bodies = ownScriptsOnly(html, known) ?? inlineScripts(html);
  return bodies.map((body) => {
    if (!known.has(body)) {
      throw new ForeignInlineScriptError(
        `an inline script that is not one of the site's own: ${JSON.stringify(body.slice(0, 120))}${body.length > 120 ? '…' : ''}. ` +
          'If it came from the API, the sanitiser let it through (src/lib/sanitize.ts); if the site needs a new ' +
          'inline script, add it to src/lib/inline-scripts.ts.',
      );
    }
    return sourceExpression(body);
  });
}

/** A script element as the site writes it: its start tag's attributes, and its text up to the first end tag. */
const SCRIPT_ELEMENT = /<script\b([^>]*)>([\s\S]*?)<\/script>/gi;
/** The attributes of the site's external scripts, as Astro writes them. */
const SITE_MODULE = new RegExp(`^ type="module" src="${RegExp.escape(siteAddress('/_astro/'))}[\\w.-]+\\.js"$`);

/**
 * The inline scripts of a page on which every `<script` begins one of the two elements the site writes, a
 * bare `<script>` holding one of its own scripts or an empty `<script type="module" src="/_astro/…">`; null
 * for any other page (an editor's words, a data block, a start tag with other attributes or a `>` inside one,
 * an element without its end tag), which only the parser reads rightly.
 */
function ownScriptsOnly(html: string, known: ReadonlySet<string>): string[] | null {
  const bodies: string[] = [];
  let elements = 0;
  for (const [, attributes, body] of html.matchAll(SCRIPT_ELEMENT)) {
    elements++;
    if (attributes === '' && known.has(body!)) bodies.push(body!);
    else if (!(SITE_MODULE.test(attributes!) && body === '')) return null;
  }
  // A `<script` the pattern did not take as the start of an element (inside another's text, or never ended).
  return (html.match(/<script\b/gi)?.length ?? 0) === elements ? bodies : null;
}

/**
 * The text of every inline script element of `html`, read by an HTML parser as a browser reads it: an
 * editor's words "<script> … </script>" in an attribute (a page's description) or escaped in a text are
 * no script, and must not stop publishing. Data blocks (JSON, JSON-LD) are not scripts.
 */
function inlineScripts(html: string): string[] {
  const scripts: string[] = [];
  let current: string | null = null;
  const parser = new Parser(
    {
      onopentag(name, attributes) {
        if (name === 'script' && attributes.src === undefined && !/^application\/(ld\+)?json$/i.test(attributes.type ?? '')) current = '';
      },
      ontext(text) {
        if (current !== null) current += text;
      },
      onclosetag(name) {
        if (name === 'script' && current !== null) scripts.push(current);
        current = null;
      },
    },
    { decodeEntities: false, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );
  parser.write(html);
  parser.end();
  return scripts;
}

const origin = (url: string) => new URL(url).origin;

export function policy(hashes: Iterable<string>, bases: { publicApiBase: string; mediaBase: string; siteUrl: string }): string {
  const api = origin(bases.publicApiBase);
  const media = origin(bases.mediaBase);
  const directives = [
    "default-src 'self'",
    ['script-src', "'self'", ...[...new Set(hashes)].sort(), ...HCAPTCHA].join(' '),
    // Styles: sweetalert2 and the carousel set inline styles; scripts stay strict.
    `style-src 'self' 'unsafe-inline' ${HCAPTCHA.join(' ')}`,
    `img-src 'self' data: ${[...new Set([media, api])].join(' ')}`,
    `connect-src 'self' ${api} ${HCAPTCHA.join(' ')}`,
    // The map and the players of the video hosts an editor may embed, each loaded only when the citizen presses its button.
    `frame-src ${HCAPTCHA.join(' ')} ${MAP} ${VIDEO_PLAYER_ORIGINS.join(' ')}`,
    // Sound and video files an editor put in a text play from the media server.
    `media-src 'self' ${media}`,
    "font-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'self'",
  ];
  if (bases.siteUrl.startsWith('https:')) directives.push('upgrade-insecure-requests');
  return checkedPolicy(directives.join('; '));
}

/** The files the policy is written into, site-relative: changed by `writePolicy` after the pages are read. */
export const POLICY_FILES = [`/${CSP_FILE}`, '/_headers'] as const;

/** Writes the policy allowing `hashes` beside the site in `root` (and into its `_headers`, for static hosts). */
export async function writePolicy(root: string, hashes: Iterable<string>, bases: Parameters<typeof policy>[1]): Promise<string> {
  const csp = policy(hashes, bases);
  await writeFile(join(root, CSP_FILE), `${csp}\n`);
  await appendFile(join(root, '_headers'), `\n${siteAddress('/*')}\n  Content-Security-Policy: ${csp}\n`);
  return csp;
}
