/** public/_headers and public/_redirects, read the way Netlify-style static hosts read them. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { cacheControl } from '../../scripts/serving/cache-rules.ts';
import { SITE_TABLES } from '../../scripts/serving/server-config.ts';

/** Every rule of a _headers file: a path pattern (`*` = anything) and its headers. */
function headerRules(text: string): { pattern: RegExp; headers: [string, string][] }[] {
  const rules: { pattern: RegExp; headers: [string, string][] }[] = [];
  for (const line of text.split('\n')) {
    if (!line.trim() || line.trimStart().startsWith('#')) continue;
    if (!/^\s/.test(line)) {
      const source = line
        .trim()
        .replace(/[.+?^${}()|[\]\\]/g, '\\$&')
        .replaceAll('*', '.*');
      rules.push({ pattern: new RegExp(`^${source}$`), headers: [] });
    } else {
      const [name, ...value] = line.trim().split(':');
      rules.at(-1)!.headers.push([name!.toLowerCase(), value.join(':').trim()]);
    }
  }
  return rules;
}

const headersFor = (path: string) =>
  headerRules(readFileSync('public/_headers', 'utf8'))
    .filter((r) => r.pattern.test(path))
    .flatMap((r) => r.headers);

describe('public/_headers', () => {
  it('gives a hashed asset exactly one Cache-Control: a year, immutable', () => {
    const cache = headersFor('/_astro/client.Ab12Cd.js').filter(([n]) => n === 'cache-control');
    expect(cache).toEqual([['cache-control', 'public, max-age=31536000, immutable']]);
  });

  it('has the service worker checked on every use, with the Cache-Control that serve.ts and nginx send', () => {
    const cache = headersFor('/sw.js').filter(([n]) => n === 'cache-control');
    expect(cache).toEqual([['cache-control', cacheControl('/sw.js', 'sw.js')]]);
    expect(cache[0]![1]).toMatch(/(^|, )max-age=0(,|$)/);
  });

  it('gives pages the security headers and no conflicting cache rule', () => {
    const page = headersFor('/ru/news/');
    expect(page.filter(([n]) => n === 'cache-control')).toEqual([]);
    expect(Object.fromEntries(page)).toMatchObject({
      'x-content-type-options': 'nosniff',
      'x-frame-options': 'SAMEORIGIN',
      'cross-origin-opener-policy': 'same-origin',
    });
  });
});

describe('public/_redirects', () => {
  it('sends no old ?pageNumber=N list link away from the list, whose first page reads the number', () => {
    expect(readFileSync('public/_redirects', 'utf8')).not.toMatch(/^[^#].*pageNumber/m);
  });

  it("gives a wrong address its language's not-found page with status 404, in every language", () => {
    const rules = readFileSync('public/_redirects', 'utf8')
      .split('\n')
      .filter((l) => l.trim() && !l.startsWith('#'))
      .map((l) => l.trim().split(/\s+/))
      .filter((r) => r.length === 3 && r[0]!.endsWith('/*'));
    /** The first splat rule that matches a path no file serves, as Netlify applies them: its target and status. */
    const notFound = (path: string) => rules.find(([from]) => path.startsWith(from!.slice(0, -1)))?.slice(1);
    for (const prefix of SITE_TABLES.prefixes) {
      const page = prefix ? `/${prefix}/404/index.html` : '/404.html';
      expect(notFound(`${prefix ? `/${prefix}` : ''}/no-such-page/here`), prefix || 'uz-latn').toEqual([page, '404']);
    }
  });
});
