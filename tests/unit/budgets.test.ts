/**
 * The byte budgets (scripts/pipeline/finish/budgets.ts): every page as sent when the built folder is listed
 * (`npm run check:budgets`), only the pages changed since the previous release in a rebuild.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { checkBudgets, PAGE_BUDGET, renderBlocking } from '../../scripts/pipeline/finish/budgets.ts';
import { finishBuild } from '../../scripts/pipeline/finish/finish-step.ts';

const bases = { publicApiBase: 'https://api.example.uz', mediaBase: 'https://api.example.uz', siteUrl: 'https://example.uz', serviceWorker: false };
const dirs: string[] = [];
const folder = () => {
  const d = mkdtempSync(join(tmpdir(), 'budgets-'));
  dirs.push(d);
  return d;
};
afterEach(async () => {
  for (const d of dirs.splice(0)) await rm(d, { recursive: true, force: true });
});

/** Text that does not compress away: an editor pasting a whole report into one post. */
const long = (bytes: number) =>
  `<p>${randomBytes(bytes)
    .toString('base64')
    .replace(/(.{8})/g, '$1 ')}</p>`;
const page = (body: string) => `<!doctype html><html lang="uz"><head><title>Sahifa</title></head><body>${body}</body></html>`;

describe('byte budgets', () => {
  it('counts the stylesheets that hold the first paint, not the one for printing', () => {
    const head = '<head><link rel="stylesheet" href="/_astro/site.a1.css"><link rel="stylesheet" href="/_astro/print.b2.css" media="print"></head>';
    expect(renderBlocking(head).stylesheets).toEqual(['/_astro/site.a1.css']);
  });

  it('measures every page as sent, its compressed copy where it has one, and names them in the order of their paths', async () => {
    const site = folder();
    for (const id of [7, 8, 10]) mkdirSync(join(site, 'news', String(id)), { recursive: true });
    writeFileSync(join(site, 'index.html'), page(long(30_000)));
    writeFileSync(join(site, 'news', 'index.html'), page('<a href="/news/8">Yangilik</a>'));
    writeFileSync(join(site, 'news', '7', 'index.html'), page(long(300_000)));
    writeFileSync(join(site, 'news', '10', 'index.html'), page(long(300_000)));
    // Over the budget as written, well under it as sent: a page of repeated words.
    writeFileSync(join(site, 'news', '8', 'index.html'), page('<p>Yangilik. </p>'.repeat(30_000)));
    await finishBuild(site, bases, { compressCache: folder() });

    expect((await checkBudgets(site)).failures).toEqual([
      expect.stringMatching(/^index\.html: first flight \d+ B over 29200 B$/),
      expect.stringMatching(/^news\/10\/index\.html: \d+ KB as sent, over 256 KB$/),
      expect.stringMatching(/^news\/7\/index\.html: \d+ KB as sent, over 256 KB$/),
    ]);
  });

  it("measures only the pages changed since the previous release, and carries that release's verdict on the others", async () => {
    const site = folder();
    for (const id of [7, 8, 9]) mkdirSync(join(site, 'news', String(id)), { recursive: true });
    writeFileSync(join(site, 'news', '7', 'index.html'), page(long(300_000)));
    writeFileSync(join(site, 'news', '8', 'index.html'), page('<p>Qisqa</p>'));
    writeFileSync(join(site, 'news', '9', 'index.html'), page(long(300_000)));
    const previous = (await checkBudgets(site)).failures;
    expect(previous).toEqual([expect.stringMatching(/^news\/7\/index\.html: /), expect.stringMatching(/^news\/9\/index\.html: /)]);

    // Unchanged since: its verdict stands unmeasured (shrunk here behind the check's back, to tell it was not measured).
    writeFileSync(join(site, 'news', '7', 'index.html'), page('<p>Qisqa</p>'));
    // Changed since: measured again, over and back under.
    writeFileSync(join(site, 'news', '8', 'index.html'), page(long(300_000)));
    writeFileSync(join(site, 'news', '9', 'index.html'), page('<p>Qisqa</p>'));
    const since = {
      failures: [...previous, 'news/6/index.html: 300 KB as sent, over 256 KB', 'index.html: first flight 40000 B over 29200 B'],
      pageBudget: PAGE_BUDGET,
      // news/5 was removed since: nothing to measure.
      changed: new Set(['/news/5/index.html', '/news/5/index.html.br', '/news/8/index.html', '/news/9/index.html']),
    };
    const { failures } = await checkBudgets(site, since);
    expect(failures).toEqual([previous[0], expect.stringMatching(/^news\/8\/index\.html: \d+ KB as sent, over 256 KB$/)]);

    // A page whose compressed copy changed, or went, is measured again (news/7 is small now), though its HTML did not change.
    const brotliGone = { failures: previous, pageBudget: PAGE_BUDGET, changed: new Set(['/news/7/index.html.br']) };
    expect((await checkBudgets(site, brotliGone)).failures).toEqual([previous[1]]);

    // Verdicts given under another budget, or under one not known, are not carried: every page is measured.
    for (const pageBudget of [512 * 1024, undefined]) {
      const other = { failures: previous.map((f) => f.replace('over 256 KB', 'over 512 KB')), pageBudget, changed: new Set<string>() };
      expect((await checkBudgets(site, other)).failures).toEqual([expect.stringMatching(/^news\/8\/index\.html: /)]);
    }
  });
});
