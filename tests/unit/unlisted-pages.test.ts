/**
 * scripts/pipeline/astro/changed-pages.ts `unlistedFrom`: which pages a route may leave unlisted to Astro, taken as
 * they are from its cache (src/content/unlisted-pages.ts).
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { changedPagesOnly, codeRecord, unlistedFrom } from '../../scripts/pipeline/astro/changed-pages.ts';
import type { AstroManifest } from '../../scripts/pipeline/astro/astro-manifest.ts';
import type { FileStamp } from '../../scripts/pipeline/astro/copy-stats.ts';
import { MADE_FROM_PART } from '../../src/content/cache-key.ts';

const DETAIL = 'src/pages/[...lang]/[section]/[id].astro';
const manifest: AstroManifest = {
  version: 1,
  configHash: 'c',
  lockfileHash: 'l',
  routes: {
    [DETAIL]: {
      dependencyHash: 'd',
      paths: {
        '/news/5': { cacheKey: 'key-5', outputFile: 'news/5/index.html' },
        '/news/6': { cacheKey: 'key-6', outputFile: 'news/6/index.html' },
        '/news/7': { cacheKey: 'key-7', outputFile: 'news/7/index.html', headers: { 'x-page': '7' } },
        '/news/8': { cacheKey: 'shared', outputFile: 'news/8/index.html' },
      },
    },
    'src/pages/[...lang]/search.astro': { dependencyHash: 'e', paths: { '/search': { cacheKey: 'shared', outputFile: 'search/index.html' } } },
    'src/pages/[...lang]/rss.xml.ts': { dependencyHash: 'f', paths: { '/rss.xml': { cacheKey: 'key-rss', outputFile: 'rss.xml' } } },
  },
};
const stamp: FileStamp = { ino: 1n, size: 2n, mtimeNs: 3n, nlink: 1n };
const copies = new Set(['news/5/index.html', 'news/7/index.html', 'news/8/index.html', 'search/index.html', 'rss.xml']);
const copyStamp = (file: string) => (copies.has(file) ? stamp : undefined);

describe('pages a route may leave unlisted', () => {
  it("takes a page whose key the manifest holds for that one plain page, with its copy's stamp", () => {
    const { take, taken } = unlistedFrom(manifest, copyStamp);
    expect(take('key-5', { section: 'news', id: '5' })).toBe(true);
    expect(taken()).toEqual([expect.objectContaining({ entry: expect.objectContaining({ component: DETAIL, dependencyHash: 'd', pathname: '/news/5' }), stat: stamp })]);
  });

  it('lists a page Astro would not reuse as it is: a new key, a key two pages share, a page it replays more of, one without its copy, an endpoint', () => {
    const { take, taken } = unlistedFrom(manifest, copyStamp);
    expect(take('key-new', { section: 'news', id: '9' })).toBe(false);
    expect(take('shared', { section: 'news', id: '8' })).toBe(false);
    expect(take('key-7', { section: 'news', id: '7' })).toBe(false);
    expect(take('key-6', { section: 'news', id: '6' })).toBe(false);
    expect(take('key-rss', { id: 'rss' })).toBe(false);
    expect(taken()).toEqual([]);
  });

  it('takes a page by the first part of its key alone when the files hold, never a first part two pages share', () => {
    const [made, files] = ['m'.repeat(MADE_FROM_PART), 'f'.repeat(MADE_FROM_PART)];
    const twoParts: AstroManifest = structuredClone(manifest);
    const paths = twoParts.routes[DETAIL]!.paths;
    paths['/news/5']!.cacheKey = made + files;
    paths['/news/6'] = { cacheKey: 's'.repeat(MADE_FROM_PART) + files, outputFile: 'news/6/index.html' };
    paths['/news/8']!.cacheKey = 's'.repeat(MADE_FROM_PART) + 'g'.repeat(MADE_FROM_PART);
    copies.add('news/6/index.html');
    try {
      expect(unlistedFrom(twoParts, copyStamp).take.madeFrom).toBeUndefined();
      const { take, taken } = unlistedFrom(twoParts, copyStamp, true);
      expect(take.madeFrom!('s'.repeat(MADE_FROM_PART), { section: 'news', id: '6' })).toBe(false);
      expect(take.madeFrom!(made.slice(1) + 'x', { section: 'news', id: '5' })).toBe(false);
      expect(take.madeFrom!(made, { section: 'news', id: '5' })).toBe(true);
      expect(taken()).toEqual([expect.objectContaining({ entry: expect.objectContaining({ pathname: '/news/5' }) })]);
      // A key of one part is no first part.
      expect(take.madeFrom!('key-rss', {})).toBe(false);
    } finally {
      copies.delete('news/6/index.html');
    }
  });

  it('refuses to take two pages for one key', () => {
    const { take, taken } = unlistedFrom(manifest, copyStamp);
    expect(take('key-5', { section: 'news', id: '5' })).toBe(true);
    expect(() => take('key-5', { section: 'news', id: '6' })).toThrow(/two pages have one key \(key-5\)/);
    expect(taken()).toHaveLength(1);
  });
});

describe('a page two routes make', () => {
  it('is said, and recorded with the code so that no later build leaves a page unlisted', async () => {
    const cacheDir = mkdtempSync(join(tmpdir(), 'two-routes-'));
    const warnings: string[] = [];
    const changed = await changedPagesOnly({ cacheDir, reused: new Map(), codeDigest: Promise.resolve('code-1'), warn: (m) => warnings.push(m) });
    let prerenderer: { getStaticPaths(): Promise<unknown[]> } | undefined;
    const route = (component: string) => ({ component, type: 'page' });
    const paths = [
      { pathname: '/news/5', route: route('src/pages/[...lang]/[section]/[id].astro') },
      { pathname: '/news/5/', route: route('src/pages/[...lang]/[slug].astro') },
      { pathname: '/search', route: route('src/pages/[...lang]/search.astro') },
    ];
    const start = changed.integration.hooks['astro:build:start'] as unknown as (options: { setPrerenderer: (make: (astro: object) => typeof prerenderer) => void }) => void;
    start({ setPrerenderer: (make) => (prerenderer = make({ getStaticPaths: async () => paths })) });
    expect(await prerenderer!.getStaticPaths()).toEqual(paths);
    expect(warnings).toEqual([expect.stringContaining('the page /news/5 (src/pages/[...lang]/[section]/[id].astro, src/pages/[...lang]/[slug].astro) is made by two routes')]);
    changed.done();
    const written = readFileSync(join(cacheDir, 'incremental-build.code.txt'), 'utf8');
    expect(written).toMatch(/^code-1 \S+ every-page-listed$/);
    // The next build with that code trusts the manifest and leaves no page unlisted; a change of code, neither.
    const stamp = written.split(' ')[1]!;
    expect(codeRecord(written, 'code-1', stamp)).toEqual({ sameCode: true, offer: false });
    expect(codeRecord(written, 'code-2', stamp)).toEqual({ sameCode: false, offer: false });
    expect(codeRecord(`code-1 ${stamp}`, 'code-1', stamp)).toEqual({ sameCode: true, offer: true });
    expect(codeRecord(`code-1 ${stamp}`, 'code-1', 'another-stamp')).toEqual({ sameCode: false, offer: false });
  });

  it('is not a page one route lists twice, which Astro alone chooses between', async () => {
    const cacheDir = mkdtempSync(join(tmpdir(), 'one-route-'));
    const warnings: string[] = [];
    const changed = await changedPagesOnly({ cacheDir, reused: new Map(), codeDigest: Promise.resolve('code-1'), warn: (m) => warnings.push(m) });
    let prerenderer: { getStaticPaths(): Promise<unknown[]> } | undefined;
    const route = { component: 'src/pages/[...lang]/[section]/[id].astro', type: 'page' };
    const paths = [
      { pathname: '/news/5', route },
      { pathname: '/news/5/', route },
    ];
    const start = changed.integration.hooks['astro:build:start'] as unknown as (options: { setPrerenderer: (make: (astro: object) => typeof prerenderer) => void }) => void;
    start({ setPrerenderer: (make) => (prerenderer = make({ getStaticPaths: async () => paths })) });
    expect(await prerenderer!.getStaticPaths()).toEqual(paths);
    changed.done();
    expect(warnings).toEqual([]);
    expect(readFileSync(join(cacheDir, 'incremental-build.code.txt'), 'utf8')).toMatch(/^code-1 \S+$/);
  });
});
