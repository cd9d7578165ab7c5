/**
 * Every page the build writes is valid HTML by the W3C Nu HTML Checker: every page type in four languages,
 * the not-found, error and offline pages, the moved-page redirects, and the posts whose seed content is
 * hostile (scripts, event handlers, javascript: links the sanitiser takes out).
 */
import { expect, test } from '@playwright/test';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { htmlErrors } from '../helpers/html-checker.ts';

const DIST = `${process.env.E2E_DIR ?? '.cache/e2e'}/dist`;

test('the W3C HTML checker finds no error in any page of the build', async () => {
  test.setTimeout(120_000);
  const pages = readdirSync(DIST, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.html'))
    .map((f) => join(DIST, f));
  // The pages a citizen may land on besides the content's: each must be among those checked, in every language.
  const expected = ['404.html', '500.html'];
  for (const prefix of ['', 'ru/', 'uz-cyrl/', 'en/']) {
    expected.push(...['index.html', 'news/index.html', 'murojaat_yuborish/index.html', 'offline/index.html'].map((p) => prefix + p));
    if (prefix) expected.push(`${prefix}404/index.html`, `${prefix}500/index.html`);
  }
  for (const page of expected) expect(pages, `${page} is built`).toContain(join(DIST, page));
  const errors = await htmlErrors(DIST, pages);
  expect(errors, `${errors.length} errors in ${new Set(errors.map((e) => e.split(':')[0])).size} of ${pages.length} pages`).toEqual([]);
});
