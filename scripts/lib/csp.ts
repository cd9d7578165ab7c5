/**
 * The Content-Security-Policy of a built site. Scripts may come only from the
 * site itself and hCaptcha, plus the inline scripts the build wrote (Astro's
 * island loader, the language and accessibility pre-paint scripts), each
 * allowed by its SHA-256 hash: no 'unsafe-inline' for scripts. The policy is
 * computed from the build's HTML, so it always matches the release, and is
 * written beside it for the web server (content-security-policy.txt, and into
 * _headers for static hosts).
 */
import { createHash } from 'node:crypto';
import { appendFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

export const CSP_FILE = 'content-security-policy.txt';

/** The nginx snippet that deploy/nginx.conf includes: the policy as a header on every response. */
export const nginxCspSnippet = (policy: string) => `add_header Content-Security-Policy "${policy}" always;\n`;
const HCAPTCHA = ['https://hcaptcha.com', 'https://*.hcaptcha.com'];
const MAP = 'https://www.openstreetmap.org';

/** The SHA-256 source expression of every distinct inline script in `html`. */
export function inlineScriptHashes(html: string): string[] {
  return [...html.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)]
    .filter((m) => !/type="application\/(ld\+)?json"/.test(m[0]))
    .map((m) => `'sha256-${createHash('sha256').update(m[1]!).digest('base64')}'`);
}

const origin = (url: string) => new URL(url).origin;

export function policy(hashes: Iterable<string>, bases: { publicApiBase: string; mediaBase: string; siteUrl: string }): string {
  const api = origin(bases.publicApiBase);
  const media = origin(bases.mediaBase);
  const directives = [
    "default-src 'self'",
    `script-src 'self' ${[...new Set(hashes)].sort().join(' ')} ${HCAPTCHA.join(' ')}`,
    // Styles: sweetalert2 and the carousel set inline styles; scripts stay strict.
    `style-src 'self' 'unsafe-inline' ${HCAPTCHA.join(' ')}`,
    `img-src 'self' data: ${[...new Set([media, api])].join(' ')}`,
    `connect-src 'self' ${api} ${HCAPTCHA.join(' ')}`,
    `frame-src ${HCAPTCHA.join(' ')} ${MAP}`,
    "font-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'self'",
  ];
  if (bases.siteUrl.startsWith('https:')) directives.push('upgrade-insecure-requests');
  return directives.join('; ');
}

/** The files the policy is written into, site-relative: changed by `writePolicy` after the pages are read. */
export const POLICY_FILES = [`/${CSP_FILE}`, '/_headers'] as const;

/** Writes the policy allowing `hashes` beside the site in `root` (and into its `_headers`, for static hosts). */
export async function writePolicy(root: string, hashes: Iterable<string>, bases: Parameters<typeof policy>[1]): Promise<string> {
  const csp = policy(hashes, bases);
  await writeFile(join(root, CSP_FILE), `${csp}\n`);
  await appendFile(join(root, '_headers'), `\n/*\n  Content-Security-Policy: ${csp}\n`);
  return csp;
}
