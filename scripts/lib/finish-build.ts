/**
 * The build's last pass, after Astro has written the site: one read of every
 * file does everything that needs its bytes.
 *
 * - splices the shared fragments into the pages that carry their markers, then
 *   removes the fragments' own pages (src/lib/fragments.ts);
 * - collects the hashes of the inline scripts for the Content-Security-Policy;
 * - checks every internal link, picture, script and #fragment;
 * - hashes every file (the release's file list, which the rebuild compares
 *   with the previous release's to know what changed);
 * - writes each text file's compressed siblings (`.br`, most also `.gz`) from the compression cache;
 * - last, writes the service worker, whose precache list needs the final pages (service-worker.ts).
 *
 * Before this pass each of those read the whole release again (four reads of
 * some 35,000 files at 2,500 posts per language).
 *
 * A rebuild after one edit gets some 11,000 pages back from Astro's cache with
 * the same bytes as last time. What this pass found in each page as Astro
 * wrote it (its inline scripts and its link check; and its hash once spliced,
 * for the same fragments) is kept in a memo beside Astro's cache and reused
 * for a page whose bytes and path are the same, while no file of the site has
 * gone and this pass's code is unchanged. The fragments are checked on their
 * own, once each, so a new post (a new side list) does not undo the memo.
 */
import { hash } from 'node:crypto';
import { copyFileSync, linkSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { extractFragment, FRAGMENT_DIR, fragmentNameOfPath, fragmentsIn, spliceFragments } from '../../src/lib/fragments.ts';
import { linkChecker, referencedUrls, type LinkReport, type PageLinks } from '../check-links.ts';
import { ForeignInlineScriptError, inlineScriptHashes, KNOWN_INLINE_SCRIPTS, POLICY_FILES, writePolicy, type policy } from './csp.ts';
import { FILE_CONCURRENCY, listFiles, mapLimit } from './files.ts';
import { COMPRESSIBLE, createCompressor, sha256, type FromPrevious } from './precompress.ts';
import { progress } from './progress.ts';
import { SERVICE_WORKER_FILE, writeServiceWorker } from './service-worker.ts';

export interface FinishedBuild {
  /** Every file of the site by site path (`/news/5/index.html`), with a hash of its bytes. */
  hashes: Record<string, string>;
  links: LinkReport;
  compressed: { files: number; made: number; reused: number; pruned: number };
  fragments: number;
  /** Pages whose findings came from the memo of the previous build. */
  remembered: number;
  /** Pages this pass had to read; the others were Astro's unchanged cache entries (PageMemo.stamp). */
  pagesRead: number;
  ms: number;
}

/** What this pass found in one HTML page, by site path. */
interface PageMemo {
  /** Hash of the page as Astro wrote it, before the fragments were spliced in. */
  raw: string;
  /**
   * The inode, size and modification time of the file Astro wrote. A page Astro reuses is a hard link
   * to its cache's copy (astro-restore.ts), which Astro rewrites only when it renders the page again:
   * the same stamp means the same bytes, and the page is not read at all.
   */
  stamp: string;
  /** The fragments it carries, by name. */
  fragments: string[];
  /** Those fragments' hashes when `hash`, the hash of the page with them spliced in, was taken. */
  spliced: string;
  hash: string;
  scripts: string[];
  links: PageLinks;
}

interface Memo {
  /** This pass's code and its known inline scripts: any change forgets every page. */
  basis: string;
  /** Every file of the site the memo was made for. */
  files: string[];
  pages: Record<string, PageMemo>;
}

const MEMO_CODE = ['finish-build.ts', 'csp.ts', '../check-links.ts', '../../src/lib/fragments.ts'].map((f) => fileURLToPath(new URL(f, import.meta.url)));

async function readMemo(file: string | undefined, basis: string, files: ReadonlySet<string>): Promise<Memo['pages']> {
  if (!file) return {};
  try {
    const memo = JSON.parse(await readFile(file, 'utf8')) as Memo;
    // A file that has gone may be what some remembered page links to.
    if (memo.basis !== basis || !memo.files.every((f) => files.has(f))) return {};
    return memo.pages;
  } catch {
    return {};
  }
}

export interface FinishOptions {
  compressCache?: string;
  /** Where the memo of what this pass found is kept between builds (none: no memo). */
  memoFile?: string;
  /**
   * The published release this build will replace. A file with the same bytes
   * there becomes a hard link to it: it keeps its modification time, so its
   * ETag and Last-Modified stay and browsers and the CDN get a 304 instead of
   * the same bytes again, and the kept releases share their disk space. This
   * relies on releases never being edited in place (README, "Rebuilds").
   */
  previousRelease?: { root: string; hashes: Readonly<Record<string, string>> } | null;
  /**
   * Files placed with their hashes already known (the drawn pictures, place-pictures.ts), by site path:
   * not read, and not copied to an inode of their own (their store never rewrites them in place).
   */
  knownHashes?: Readonly<Record<string, string>>;
}

export async function finishBuild(
  root: string,
  bases: Parameters<typeof policy>[1] & { serviceWorker: boolean },
  { compressCache, memoFile, previousRelease, knownHashes = {} }: FinishOptions = {},
): Promise<FinishedBuild> {
  const started = performance.now();
  root = resolve(root);
  const sitePath = (file: string) => `/${relative(root, file).split(sep).join('/')}`;
  const all = await listFiles(root);

  // Fragments first: every page that carries a marker needs them.
  const isFragment = (file: string) => sitePath(file).split('/').includes(FRAGMENT_DIR);
  const fragments = new Map<string, string>();
  const fragmentBytes = new Map<string, Buffer>();
  await mapLimit(all.filter((f) => isFragment(f) && f.endsWith('.html')), FILE_CONCURRENCY, async (file) => {
    const html = await readFile(file, 'utf8');
    const body = extractFragment(html);
    if (body === null) throw new Error(`${sitePath(file)} has no fragment bounds`);
    fragments.set(fragmentNameOfPath(sitePath(file)), body);
    fragmentBytes.set(fragmentNameOfPath(sitePath(file)), Buffer.from(body));
  });
  for (const dir of new Set(all.filter(isFragment).map((f) => fragmentRoot(root, f)))) await rm(dir, { recursive: true, force: true });
  const files = all.filter((f) => !isFragment(f));
  const fileSet = new Set(files);
  const sitePaths = files.map(sitePath);
  const basis = hash(
    'sha256',
    JSON.stringify([
      await Promise.all(MEMO_CODE.map((f) => readFile(f, 'utf8'))),
      [...KNOWN_INLINE_SCRIPTS].sort(),
    ]),
  );
  const fragmentHashes = new Map([...fragments].map(([name, body]) => [name, sha256(body)]));
  /** The bytes of the fragments a page carries: its spliced hash holds while these do. */
  const splicedKey = (names: string[]) => names.map((name) => fragmentHashes.get(name) ?? '').join(' ');
  const remembered = await readMemo(memoFile, basis, new Set(sitePaths));
  const memo: Memo = { basis, files: sitePaths, pages: {} };
  let reusedFindings = 0;
  let pagesRead = 0;

  // The policy's files are written once every page has been read; they are hashed after.
  const policyFiles = new Set(POLICY_FILES.map((p) => join(root, p)));
  const serviceWorker = join(root, SERVICE_WORKER_FILE);
  const links = linkChecker(root, fileSet);
  const scriptHashes = new Set<string>();
  const hashes: Record<string, string> = {};
  const show = progress('compress', files.length);
  let compressible = 0;

  /**
   * Records a file's final hash, makes it a link to the published release's file when that has the
   * same bytes, and places its compressed siblings (compressing `bytes()` only when the cache lacks
   * them). Returns whether the file was linked.
   */
  const settle = async (file: string, path: string, fileHash: string, bytes: () => Buffer | Promise<Buffer>): Promise<boolean> => {
    hashes[path] = fileHash;
    const linked = linkUnchanged(file, path, fileHash);
    if (COMPRESSIBLE.test(file)) {
      compressible++;
      const siblings = await compressor.compress(file, path, linked ? () => readFile(file) : bytes, fileHash, siblingFromPrevious);
      for (const sibling of siblings) hashes[sibling.file] = sibling.identity;
    }
    return linked;
  };

  /*
   * The pass's own file work is synchronous: page cache reads and writes of some 40 KB take tens of
   * microseconds, and each awaited call cost more than that again in a hop through libuv's threads,
   * on a machine whose cores the compression threads already keep busy (measured: 35 % less CPU).
   * The pages still flow concurrently (mapLimit), waiting only on the compression threads.
   */

  /**
   * Puts a new inode at `file`, made at a temporary name by `make`, never writing through the old one:
   * a page Astro reused is a hard link to its cache's copy (astro-restore.ts), which must keep the bytes Astro wrote.
   */
  const swapIn = (file: string, make: (tmp: string) => void) => {
    const tmp = `${file}.finish-${process.pid}`;
    try {
      make(tmp);
      renameSync(tmp, file);
    } catch (error) {
      rmSync(tmp, { force: true });
      throw error;
    }
  };

  /** A file kept as Astro wrote it: published with an inode of its own, so that Astro's next build cannot change it. */
  const keep = (file: string, links?: number) => {
    if ((links ?? statSync(file).nlink) > 1) swapIn(file, (tmp) => copyFileSync(file, tmp));
  };

  /** A file whose bytes are final as they are. */
  const finishFile = async (file: string, body: Buffer) => {
    if (!(await settle(file, sitePath(file), sha256(body), () => body))) keep(file);
  };

  /** One page as Astro wrote it: read, decoded and spliced only when something needs its bytes, its text or its final bytes. */
  const pageOf = (file: string, read?: Buffer) => {
    let text: string | undefined;
    let body: Buffer | undefined;
    const page = {
      loaded: () => read !== undefined,
      // Synchronous for the rare unread page that turns out to need its bytes (links.replay, a file not in the previous release).
      read: () => (read ??= (pagesRead++, readFileSync(file))),
      text: () => (text ??= page.read().toString('utf8')),
      final: () => (body ??= spliceFragments(page.read(), fragmentBytes)),
    };
    return page;
  };

  const scriptsOf = (path: string, html: string) => {
    try {
      return inlineScriptHashes(html);
    } catch (error) {
      // A script the site did not write (a sanitiser regression): never allow it by the policy.
      if (error instanceof ForeignInlineScriptError) throw new ForeignInlineScriptError(`${path}: ${error.message}`);
      throw error;
    }
  };

  // Each fragment is checked once, on its own; a page is checked as Astro wrote it, with the marker.
  // A fragment stands in pages at any depth, so it may only use root-relative or external references.
  for (const file of all.filter((f) => isFragment(f) && f.endsWith('.html'))) {
    const body = fragments.get(fragmentNameOfPath(sitePath(file)))!;
    const relativeRef = referencedUrls(body).find((u) => !/^(?:\/(?!\/)|[a-z][a-z0-9+.-]*:)/i.test(u));
    if (relativeRef !== undefined) throw new Error(`the shared fragment ${sitePath(file)} has a relative reference, "${relativeRef}"`);
    for (const h of scriptsOf(sitePath(file), body)) scriptHashes.add(h);
    links.page(file, body);
  }

  /** What the page's check found: from the memo for the same bytes at the same path, or now. Returns its final hash. */
  const checkPage = (file: string, path: string, page: ReturnType<typeof pageOf>, stamp: string): PageMemo => {
    const known = remembered[path];
    // An unread page is one whose stamp the memo holds (finishPage): its bytes are the remembered ones.
    const raw = page.loaded() || !known ? sha256(page.read()) : known.raw;
    // A page without markers is published as Astro wrote it.
    const finalHash = (names: string[]) => (names.length ? sha256(page.final()) : raw);
    if (known?.raw === raw) {
      reusedFindings++;
      for (const h of known.scripts) scriptHashes.add(h);
      links.replay(file, page.text, known.links);
      const spliced = splicedKey(known.fragments);
      if (spliced === known.spliced && stamp === known.stamp) return (memo.pages[path] = known);
      return (memo.pages[path] = { ...known, stamp, spliced, hash: spliced === known.spliced ? known.hash : finalHash(known.fragments) });
    }
    const text = page.text();
    const scripts = scriptsOf(path, text);
    for (const h of scripts) scriptHashes.add(h);
    const names = fragmentsIn(page.read());
    return (memo.pages[path] = { raw, stamp, fragments: names, spliced: splicedKey(names), hash: finalHash(names), scripts, links: links.page(file, text) });
  };

  /** Pages: spliced, checked, and written only when their bytes are not already in the previous release. */
  const finishPage = async (file: string) => {
    const path = sitePath(file);
    const { ino, size, mtimeNs, nlink } = statSync(file, { bigint: true });
    const stamp = `${ino}:${size}:${mtimeNs}`;
    // Unread only when nothing needs its bytes: a reused page (a link to Astro's cache) whose spliced hash holds.
    const known = remembered[path];
    const unread = nlink > 1n && known?.stamp === stamp && known.spliced === splicedKey(known.fragments);
    const page = pageOf(file, unread ? undefined : (pagesRead++, readFileSync(file)));
    const found = checkPage(file, path, page, stamp);
    if (await settle(file, path, found.hash, page.final)) return;
    if (found.fragments.length) swapIn(file, (tmp) => writeFileSync(tmp, page.final()));
    else keep(file, Number(nlink));
  };

  /** A compressed sibling the previous release has with the same identity (precompress.ts), linked from it. */
  const siblingFromPrevious: FromPrevious = (path, identity, target) => linkUnchanged(target, path, identity);

  /** Replaces `file` by a link to the previous release's file at `path` when that has `hash`. */
  const linkUnchanged = (file: string, path: string, hash: string): boolean => {
    if (!previousRelease || previousRelease.hashes[path] !== hash) return false;
    try {
      swapIn(file, (tmp) => linkSync(join(previousRelease.root, path), tmp));
      return true;
    } catch {
      // Another file system, or the release lost the file: this one stays, with its new time.
      return false;
    }
  };

  // Its threads keep the process alive until closed: started only here, where `finally` closes them.
  const compressor = await createCompressor(compressCache);
  try {
    await mapLimit(
      files.filter((f) => !policyFiles.has(f) && f !== serviceWorker),
      FILE_CONCURRENCY,
      async (file) => {
        const known = knownHashes[sitePath(file)];
        if (known) await settle(file, sitePath(file), known, () => readFileSync(file));
        else await (file.endsWith('.html') ? finishPage(file) : finishFile(file, readFileSync(file)));
        show.tick();
      },
    );
    await writePolicy(root, scriptHashes, bases);
    for (const file of policyFiles) {
      await finishFile(file, await readFile(file));
      show.tick();
    }
    await writeServiceWorker(root, bases.serviceWorker);
    await finishFile(serviceWorker, await readFile(serviceWorker));
  } finally {
    await compressor.close();
  }
  show.done();
  const checked = await links.finish();
  // Only a clean build is remembered: a page's findings are replayed without its broken references.
  if (memoFile && !checked.broken.length) {
    const tmp = `${memoFile}.${process.pid}.tmp`;
    await writeFile(tmp, JSON.stringify(memo));
    await rename(tmp, memoFile);
  }

  return {
    hashes: Object.fromEntries(Object.entries(hashes).sort(([a], [b]) => (a < b ? -1 : 1))),
    links: checked,
    compressed: { files: compressible, ...compressor.stats, pruned: await compressor.prune() },
    fragments: fragments.size,
    remembered: reusedFindings,
    pagesRead,
    ms: Math.round(performance.now() - started),
  };
}

/** The fragment folder of the language a fragment file belongs to. */
function fragmentRoot(root: string, file: string): string {
  const parts = relative(root, file).split(sep);
  return join(root, ...parts.slice(0, parts.indexOf(FRAGMENT_DIR) + 1));
}
