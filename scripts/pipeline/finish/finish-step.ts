/**
 * The build's last pass, after Astro has written the site: one read of every
 * file does everything that needs its bytes.
 *
 * - splices the shared fragments into the pages that carry their markers, then
 *   removes the fragments' own pages (src/lib/fragments.ts);
 * - hands each page to the checks, its visitors (./page-visitor.ts): the inline
 *   scripts' hashes for the Content-Security-Policy (csp.ts), and every internal
 *   link, picture, script and #fragment (link-check.ts);
 * - hashes every file (the release's file list), and finds what changed since
 *   the previous release's list as it goes (the publish and the edge's purge need it);
 * - writes each text file's compressed siblings (`.br`, most also `.gz`) from the compression cache;
 * - last, writes the policy and the service worker, whose precache list needs the final pages
 *   (src/features/offline/build-service-worker.ts).
 *
 * Before this pass each of those read the whole release again (four reads of
 * some 35,000 files at 2,500 posts per language).
 *
 * A rebuild after one edit gets some 11,000 pages back from Astro's cache with
 * the same bytes as last time. They are not in the folder yet: the pass reads
 * them from the cache when it must, and puts each in place once, as a link to
 * the published release's file or as a file of its own
 * (../astro/restore-output.ts). What the visitors found in each page as Astro
 * wrote it (and its hash once spliced, for the same fragments) is kept in this
 * pass's memo beside Astro's cache and replayed
 * for a page whose bytes and path are the same, while no file it refers to has
 * gone and this pass's code is unchanged. The fragments are checked on their
 * own, once each, so a new post (a new side list) does not undo the memo.
 */
import { hash } from 'node:crypto';
import { copyFileSync, readFileSync, renameSync, rmdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { readFile, rm } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { extractFragment, FRAGMENT_DIR, fragmentNameOfPath, fragmentsIn, inFragmentFolder, spliceFragments } from '../../../src/lib/fragments.ts';
import { codeFiles } from '../../lib/code-graph.ts';
import { linkChecker, linkVisitor, referencedUrls, type LinkReport } from './link-check.ts';
import { inlineScriptVisitor, KNOWN_INLINE_SCRIPTS, POLICY_FILES, writePolicy, type policy } from './csp.ts';
import type { PageToVisit, PageVisitor } from './page-visitor.ts';
import { FILE_CONCURRENCY, linkInPlace, listFiles, makeFolder, mapLimit, placeFile } from '../../lib/files.ts';
import { readPage, rememberedPages, type PageRows } from './finish-memo.ts';
import { COMPRESSIBLE, createCompressor, sha256, type Compressor, type FromPrevious } from './precompress.ts';
import { progress } from '../../lib/progress.ts';
import { SERVICE_WORKER_FILE, writeServiceWorker } from '../../../src/features/offline/build-service-worker.ts';
import type { ReusedPages } from '../astro/restore-output.ts';
import type { ReleaseList } from '../publish/release-changes.ts';
import { diffByKey, keysGone, type KeyDiff } from '../../lib/hash-diff.ts';

export interface FinishedBuild {
  /**
   * Every file of the site by site path (`/news/5/index.html`), with a hash of its bytes, in the order the pass
   * settled them: no reader needs another, and sorting 120,000 paths into a new object cost 185 ms at 10,000 news
   * a language.
   */
  hashes: Record<string, string>;
  /** The files (site paths) added, changed and removed since the previous release's list (FinishOptions.previousRelease; all added without one), in the order `diffByKey` gives. */
  sincePrevious: KeyDiff;
  links: LinkReport;
  compressed: { files: number; made: number; reused: number; pruned: number };
  fragments: number;
  /** Pages whose findings came from the memo of the previous build. */
  remembered: number;
  /** Pages this pass had to read; the others were Astro's unchanged cache entries (PageMemo.stamp). */
  pagesRead: number;
  /** Files (compressed siblings among them) the older release this one was made in had already, left as they were (FinishOptions.into). */
  keptFromOlder: number;
  ms: number;
}

/** A file of the site kept in a store: where its bytes are, and their hash. */
export interface StoredFile {
  source: string;
  hash: string;
}

/** Files of the site kept in stores, by site path (`/_astro/pictures/…`). */
export type StoredFiles = ReadonlyMap<string, StoredFile>;

/** What this pass found in one HTML page, by site path: what every build reads of it (finish-memo.ts). */
interface PageMemo {
  /**
   * The inode, size and modification time of the file Astro wrote. A page Astro reuses is read from its
   * cache's copy (../astro/restore-output.ts), which Astro rewrites only when it renders the page again:
   * the same stamp means the same bytes, and the page is not read at all.
   */
  stamp: string;
  /** The fragments it carries, by name. */
  fragments: string[];
  /** Those fragments' hashes when `hash`, the hash of the page with them spliced in, was taken. */
  spliced: string;
  hash: string;
  /** What each visitor found in it (./page-visitor.ts), by the visitor's name. */
  findings: Record<string, unknown>;
}

/** The rest of what this pass found in a page, read only for a page read again, or once a file has gone (finish-memo.ts). */
interface PageDetail {
  /** The page's stamp (PageMemo.stamp) when the row was written: the two parts are read apart, and must be of one writing. */
  stamp: string;
  /** Hash of the page as Astro wrote it, before the fragments were spliced in. */
  raw: string;
  /** The files each visitor found it referring to (`Visited.refersTo`), by the visitor's name. */
  refersTo: Record<string, string>;
}

/** The memo's pages, by site path: a page unchanged as the text the memo handed over (finish-memo.ts). */
type MemoPages = Map<string, PageRows<PageMemo, PageDetail> | string>;

const isStrings = (value: unknown): value is string[] => Array.isArray(value) && value.every((v) => typeof v === 'string');
/** Whether a remembered row is a page's memo as this pass writes it. */
const isPageMemo = (value: unknown): value is PageMemo => {
  const m = value as Partial<PageMemo> | null;
  return (
    typeof m === 'object' &&
    m !== null &&
    (['stamp', 'spliced', 'hash'] as const).every((k) => typeof m[k] === 'string') &&
    isStrings(m.fragments) &&
    typeof m.findings === 'object' &&
    m.findings !== null
  );
};

/** Whether a remembered detail is a page's as this pass writes it. */
const isPageDetail = (value: unknown): value is PageDetail => {
  const d = value as Partial<PageDetail> | null;
  return (
    typeof d === 'object' &&
    d !== null &&
    typeof d.stamp === 'string' &&
    typeof d.raw === 'string' &&
    typeof d.refersTo === 'object' &&
    d.refersTo !== null &&
    isStrings(Object.values(d.refersTo))
  );
};

/** This module, with every module it imports or starts: what the memo's findings depend on. */
const MEMO_ENTRY = fileURLToPath(import.meta.url);

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
   * Files kept in a store (the drawn pictures, the documents, the search index's files), by site path: not in
   * `root`, placed by this pass as hard links to the store's file, and never read to be hashed (their store never
   * rewrites them in place). Placed only where the release lacks those bytes: some 27,000 at 10,000 posts per language.
   */
  stored?: StoredFiles;
  /** The files Astro reused from its cache and did not write into `root` (../astro/restore-output.ts): placed by this pass. */
  reused?: ReusedPages;
  /**
   * An older release, no longer served nor kept to roll back to, to make this release in instead of `root`:
   * a file it already has with the same bytes (`hashes`, its file list) is left as it is, any other is
   * removed and placed anew (never written through: its inode may be shared with the releases still kept),
   * and the files the new release lacks are removed. `root` stays what Astro wrote.
   */
  into?: { root: string; hashes: ReleaseList } | null;
}

/** The shared fragments of a build, by name: their text and bytes, and their hashes (a page's spliced hash holds while those do). */
interface Fragments {
  text: Map<string, string>;
  bytes: Map<string, Buffer>;
  hashes: Map<string, string>;
}

/** Reads every fragment Astro wrote and removes their pages: they are spliced into the pages that carry their markers. */
async function takeFragments(renderRoot: string, files: string[], sitePath: (file: string) => string, sourceOf: (file: string) => string): Promise<Fragments> {
  const text = new Map<string, string>();
  const bytes = new Map<string, Buffer>();
  await mapLimit(
    files.filter((f) => f.endsWith('.html')),
    FILE_CONCURRENCY,
    async (file) => {
      const body = extractFragment(await readFile(sourceOf(file), 'utf8'));
      if (body === null) throw new Error(`${sitePath(file)} has no fragment bounds`);
      text.set(fragmentNameOfPath(sitePath(file)), body);
      bytes.set(fragmentNameOfPath(sitePath(file)), Buffer.from(body));
    },
  );
  for (const dir of new Set(files.map((f) => fragmentRoot(renderRoot, sitePath(f))))) await rm(dir, { recursive: true, force: true });
  return { text, bytes, hashes: new Map([...text].map(([name, body]) => [name, sha256(body)])) };
}

/** This pass's code and its known inline scripts: any change forgets every page. */
async function memoBasis(): Promise<string> {
  const code = await codeFiles([MEMO_ENTRY], fileURLToPath(new URL('../../..', import.meta.url)));
  return hash('sha256', JSON.stringify([await Promise.all(code.map((f) => readFile(f, 'utf8'))), [...KNOWN_INLINE_SCRIPTS].sort()]));
}

/**
 * Puts a new inode at `file`, made at a temporary name by `make`, never writing through the old one:
 * a file in the build's folder may be a hard link to a file elsewhere (a store's, a cache's) that must keep its bytes.
 */
function swapIn(file: string, make: (tmp: string) => void): void {
  const tmp = `${file}.finish-${process.pid}`;
  try {
    make(tmp);
    renameSync(tmp, file);
  } catch (error) {
    rmSync(tmp, { force: true });
    throw error;
  }
}

/** A file kept as Astro wrote it: published with an inode of its own, so that Astro's next build cannot change it. */
function keep(file: string, links?: number): void {
  if ((links ?? statSync(file).nlink) > 1) swapIn(file, (tmp) => copyFileSync(file, tmp));
}

/** One page as Astro wrote it (`file`: where it is, in the folder or Astro's cache): read, decoded and spliced only when something needs its bytes, its text or its final bytes. */
class PageBytes {
  private text_?: string;
  private final_?: Buffer;
  private readonly file: string;
  private readonly fragments: Fragments;
  private readonly onRead: () => void;
  private bytes?: Buffer;
  constructor(file: string, fragments: Fragments, onRead: () => void, bytes?: Buffer) {
    this.file = file;
    this.fragments = fragments;
    this.onRead = onRead;
    this.bytes = bytes;
  }
  loaded = () => this.bytes !== undefined;
  // Synchronous for the rare unread page that turns out to need its bytes (links.replay, a file not in the previous release).
  read = () => (this.bytes ??= (this.onRead(), readFileSync(this.file)));
  text = () => (this.text_ ??= this.read().toString('utf8'));
  final = () => (this.final_ ??= spliceFragments(this.read(), this.fragments.bytes));
}

interface PassContext {
  /** A file's site path: `/news/5/index.html`. */
  sitePath: (file: string) => string;
  fragments: Fragments;
  /** The memo's text of each page (finish-memo.ts), by site path. */
  remembered: ReadonlyMap<string, string>;
  /** A remembered page's detail (finish-memo.ts), read when asked for. */
  detail: (path: string) => PageDetail | undefined;
  /** The files of the site the memo was made for that have gone since. */
  gone: ReadonlySet<string>;
  /** The checks each page is handed to, in this order. */
  visitors: readonly PageVisitor[];
  compressor: Compressor;
  /** The previous release, when its files can be linked into this one. */
  previousRelease: FinishOptions['previousRelease'];
  /** The previous release's file list, linkable or not (FinishedBuild.sincePrevious). */
  previousHashes: Readonly<Record<string, string>>;
  stored: StoredFiles;
  reused: ReusedPages;
  /** Where the bytes of a file of the release are, by its site path: Astro's cache, a store, Astro's folder, or the file itself. */
  sourceAt: (path: string) => string;
  /** The file list of the older release this one is made in (FinishOptions.into), or null. */
  into: ReleaseList | null;
}

/**
 * What the pass does to each file. The pass's own file work is synchronous: page cache reads and writes
 * of some 40 KB take tens of microseconds, and each awaited call cost more than that again in a hop through
 * libuv's threads, on a machine whose cores the compression threads already keep busy (measured: 35 % less
 * CPU). The pages still flow concurrently (mapLimit), waiting only on the compression threads.
 */
class FinishPass {
  readonly hashes: Record<string, string> = {};
  /** The files added and changed since the previous release, in the order they were recorded. */
  private readonly sincePrevious: Omit<KeyDiff, 'removed'> = { added: [], changed: [] };
  /** Files settled at a path the previous release has. */
  private inPrevious = 0;
  /** Files recorded: more than the list holds when some were settled twice. */
  private recorded = 0;
  readonly memo: MemoPages = new Map();
  reusedFindings = 0;
  pagesRead = 0;
  keptFromOlder = 0;
  compressible = 0;
  private readonly c: PassContext;
  constructor(context: PassContext) {
    this.c = context;
  }

  private sitePath = (file: string) => this.c.sitePath(file);

  /** Any file of the site: a page, a store's file, or any other file as it is. */
  async finish(file: string): Promise<void> {
    const path = this.sitePath(file);
    const stored = this.c.stored.get(path);
    const source = this.c.sourceAt(path);
    // A reused or stored file's folder is made here, where the file is placed (../astro/restore-output.ts); in an older release, where it differs (settle).
    if (!this.c.into && source !== file) makeFolder(dirname(file));
    if (stored) {
      // Linked, never moved: the store keeps its file for the next build.
      if (!(await this.settle(file, path, stored.hash, () => readFileSync(source)))) placeFile(source, file);
    } else if (file.endsWith('.html')) await this.finishPage(file, path, source);
    else await this.finishFile(file, readFileSync(source), path, source);
  }

  /** A file whose bytes are final as they are (`source`: where they are, sourceAt). */
  async finishFile(file: string, body: Buffer, path = this.sitePath(file), source = this.c.sourceAt(path)): Promise<void> {
    if (!(await this.settle(file, path, sha256(body), () => body))) this.keepAsWritten(file, path, source);
  }

  /** Publishes a file with the bytes Astro wrote, in an inode of its own: a reused file copied from Astro's cache. */
  private keepAsWritten(file: string, path: string, source: string, links?: number): void {
    if (this.c.reused.has(path)) copyFileSync(source, file);
    else {
      this.moveIn(file, source);
      keep(file, links);
    }
  }

  /** A file written in Astro's folder, moved to its place in the older release this one is made in. */
  private moveIn(file: string, source: string): void {
    if (source !== file) renameSync(source, file);
  }

  /**
   * Whether the older release this one is made in has these bytes at `path` already. If not, its place is
   * made ready: the folder made, and another file there removed (never written through: the releases
   * still kept may share its inode).
   */
  private alreadyThere(file: string, path: string, fileHash: string): boolean {
    const into = this.c.into;
    if (!into) return false;
    const had = into.hashOf(path);
    if (had === fileHash) {
      this.keptFromOlder++;
      return true;
    }
    if (had === undefined) makeFolder(dirname(file));
    rmSync(file, { force: true });
    return false;
  }

  /**
   * Records a file's final hash, makes it a link to the published release's file when that has the
   * same bytes, and places its compressed siblings (compressing `bytes()` only when the cache lacks
   * them). Returns whether the file was linked.
   */
  private async settle(file: string, path: string, fileHash: string, bytes: () => Buffer | Promise<Buffer>): Promise<boolean> {
    this.record(path, fileHash);
    const linked = this.alreadyThere(file, path, fileHash) || this.linkUnchanged(file, path, fileHash);
    if (COMPRESSIBLE.test(file)) {
      this.compressible++;
      const siblings = await this.c.compressor.compress(file, path, linked ? () => readFile(file) : bytes, fileHash, this.siblingFromPrevious);
      for (const sibling of siblings) this.record(sibling.file, sibling.identity);
    }
    return linked;
  }

  /**
   * A file of the release, in its file list and in what changed since the previous release's: compared here, where
   * each file is settled, rather than the two lists of 120,000 files at 10,000 news a language compared after (a file
   * settled twice is found in `changes`).
   */
  private record(path: string, fileHash: string): void {
    this.recorded++;
    this.hashes[path] = fileHash;
    const before = this.c.previousHashes[path];
    if (before === undefined) this.sincePrevious.added.push(path);
    else {
      this.inPrevious++;
      if (before !== fileHash) this.sincePrevious.changed.push(path);
    }
  }

  /** What changed since the previous release, once every file is settled: the files recorded, and those gone. */
  changes(): KeyDiff {
    const previous = this.c.previousHashes;
    // A folder that holds an earlier pass's compressed copies has some settled twice: the lists are compared whole.
    if (this.recorded !== Object.keys(this.hashes).length) return diffByKey(previous, this.hashes);
    // Nothing is gone when every file of the previous release was settled again (a new post, an edit).
    return { ...this.sincePrevious, removed: this.inPrevious === Object.keys(previous).length ? [] : keysGone(previous, this.hashes) };
  }

  /** Replaces `file` by a link to the previous release's file at `path` when that has `hash`. */
  private linkUnchanged(file: string, path: string, hash: string): boolean {
    const previous = this.c.previousRelease;
    if (!previous || previous.hashes[path] !== hash) return false;
    // A release that lost the file: this one stays, with its new time.
    return linkInPlace(join(previous.root, path), file);
  }

  /** A compressed sibling the previous release has with the same identity (precompress.ts), linked from it. */
  private siblingFromPrevious: FromPrevious = (path, identity, target) => this.alreadyThere(target, path, identity) || this.linkUnchanged(target, path, identity);

  /** The bytes of the fragments a page carries: its spliced hash holds while these do. */
  private splicedKey = (names: string[]) => names.map((name) => this.c.fragments.hashes.get(name) ?? '').join(' ');

  /** Pages: spliced, checked, and written only when their bytes are not already in the previous release. */
  private async finishPage(file: string, path: string, source: string): Promise<void> {
    const reused = this.c.reused.get(path);
    const { ino, size, mtimeNs, nlink } = reused?.stat ?? statSync(source, { bigint: true });
    const stamp = `${ino}:${size}:${mtimeNs}`;
    // Unread only when nothing needs its bytes: a reused page (Astro's cache entry, or a link to it) whose spliced hash holds.
    const known = readPage(this.c.remembered.get(path), isPageMemo);
    const unread = (reused !== undefined || nlink > 1n) && known?.stamp === stamp && known.spliced === this.splicedKey(known.fragments);
    const page = new PageBytes(source, this.c.fragments, () => void this.pagesRead++, unread ? undefined : (this.pagesRead++, readFileSync(source)));
    const found = this.checkPage(file, path, page, stamp, known);
    if (await this.settle(file, path, found.hash, page.final)) return;
    if (found.fragments.length) swapIn(file, (tmp) => writeFileSync(tmp, page.final()));
    else this.keepAsWritten(file, path, source, Number(nlink));
  }

  /** Whether the memo holds a finding of every visitor for the page, each one it can replay. */
  private readable = (known: PageMemo) =>
    this.c.visitors.every((visitor) => visitor.name in known.findings && (!visitor.readable || visitor.readable(known.findings[visitor.name])));

  /** Whether every finding remembered for a page holds without the files that have gone since (its `detail` says what it refers to). */
  private holdsWithoutGone = (detail: PageDetail | undefined) =>
    !this.c.gone.size || this.c.visitors.every((visitor) => !visitor.holdsWithout || visitor.holdsWithout(detail?.refersTo[visitor.name], this.c.gone));

  /** What the page's checks found: from the memo for the same bytes at the same path, or now. */
  private checkPage(file: string, path: string, page: PageBytes, stamp: string, known: PageMemo | undefined): PageMemo {
    // An unread page is one whose stamp the memo holds (finishPage): its bytes are the remembered ones, and its
    // detail is needed only to see whether what it refers to is still here.
    const unread = known !== undefined && !page.loaded();
    const detail = known && (!unread || this.c.gone.size) ? this.detailOf(path, known) : undefined;
    const raw = unread ? undefined : sha256(page.read());
    // A page without markers is published as Astro wrote it.
    const finalHash = (names: string[], bytesHash: string) => (names.length ? sha256(page.final()) : bytesHash);
    const visited: PageToVisit = { file, path, text: page.text };
    if (known && (unread || (raw !== undefined && detail?.raw === raw)) && this.readable(known) && this.holdsWithoutGone(detail)) {
      const spliced = this.splicedKey(known.fragments);
      if (spliced === known.spliced && stamp === known.stamp) {
        this.replay(visited, known);
        // Handed back as the text read: it is not written again.
        this.memo.set(path, this.c.remembered.get(path)!);
        return known;
      }
      // Only a page read gets here (an unread one has the stamp and fragments remembered), with its detail in hand.
      if (detail) {
        this.replay(visited, known);
        const hash = spliced === known.spliced ? known.hash : finalHash(known.fragments, detail.raw);
        return this.remember(path, { ...known, stamp, spliced, hash }, { ...detail, stamp });
      }
    }
    const bytesHash = raw ?? sha256(page.read());
    const visits = this.c.visitors.map((visitor) => [visitor.name, visitor.visit(visited)] as const);
    const findings = Object.fromEntries(visits.map(([name, visit]) => [name, visit.finding]));
    const refersTo = Object.fromEntries(visits.flatMap(([name, visit]) => (visit.refersTo === undefined ? [] : [[name, visit.refersTo]])));
    const names = fragmentsIn(page.read());
    return this.remember(path, { stamp, fragments: names, spliced: this.splicedKey(names), hash: finalHash(names, bytesHash), findings }, { stamp, raw: bytesHash, refersTo });
  }

  /** A remembered page's detail, when it was written with the part in hand (`known`): the two parts of a row are read apart. */
  private detailOf(path: string, known: PageMemo): PageDetail | undefined {
    const detail = this.c.detail(path);
    return detail?.stamp === known.stamp ? detail : undefined;
  }

  private replay(visited: PageToVisit, known: PageMemo): void {
    this.reusedFindings++;
    for (const visitor of this.c.visitors) visitor.replay(visited, known.findings[visitor.name]);
  }

  private remember(path: string, memo: PageMemo, detail: PageDetail): PageMemo {
    this.memo.set(path, { memo, detail });
    return memo;
  }
}

/**
 * Each fragment is checked once, on its own; a page is checked as Astro wrote it, with the marker.
 * A fragment stands in pages at any depth, so it may only use root-relative or external references.
 */
function checkFragments(files: string[], fragments: Fragments, visitors: readonly PageVisitor[], sitePath: (file: string) => string): void {
  for (const file of files.filter((f) => f.endsWith('.html'))) {
    const body = fragments.text.get(fragmentNameOfPath(sitePath(file)))!;
    const relativeRef = referencedUrls(body).find((u) => !/^(?:\/(?!\/)|[a-z][a-z0-9+.-]*:)/i.test(u));
    if (relativeRef !== undefined) throw new Error(`the shared fragment ${sitePath(file)} has a relative reference, "${relativeRef}"`);
    for (const visitor of visitors) visitor.visit({ file, path: sitePath(file), text: () => body });
  }
}

export async function finishBuild(
  root: string,
  bases: Parameters<typeof policy>[1] & { serviceWorker: boolean },
  { compressCache, memoFile, previousRelease, stored = new Map(), reused = new Map(), into = null }: FinishOptions = {},
): Promise<FinishedBuild> {
  const started = performance.now();
  // Astro's folder, and the release's: the same unless the release is made in an older one.
  const renderRoot = resolve(root);
  root = into ? resolve(into.root) : renderRoot;
  // Files are named by their place in the release: a site path is the rest of the name (path.relative took 1.6 s at 164,000 files).
  const sitePath = (file: string) => file.slice(root.length);
  // What Astro wrote, what it reused and left in its cache, and the stores' files (both placed by this pass).
  // (A store's file an earlier build of the same folder placed is placed again, once.)
  const written = listFiles(renderRoot).filter((f) => !stored.has(f.slice(renderRoot.length)));
  const all = [...written.map((f) => root + f.slice(renderRoot.length)), ...[...reused.keys(), ...stored.keys()].map((path) => root + path)];
  const sourceAt = (path: string) => reused.get(path)?.source ?? stored.get(path)?.source ?? renderRoot + path;
  const sourceOf = (file: string) => sourceAt(sitePath(file));
  // Fragments first: every page that carries a marker needs them.
  const fragmentFiles: string[] = [];
  const files: string[] = [];
  for (const file of all) (inFragmentFolder(sitePath(file)) ? fragmentFiles : files).push(file);
  const fragments = await takeFragments(renderRoot, fragmentFiles, sitePath, sourceOf);
  const sitePaths = files.map(sitePath);
  const basis = await memoBasis();
  const links = linkChecker(root, new Set(files));
  const scripts = inlineScriptVisitor();
  // The checks of every page: a new check is a new visitor here.
  const visitors: PageVisitor[] = [scripts, linkVisitor(links)] as PageVisitor[];
  checkFragments(fragmentFiles, fragments, visitors, sitePath);

  // The policy's files are written once every page has been read; they are hashed after, and the service worker last.
  const policyFiles = new Set(POLICY_FILES.map((p) => join(root, p)));
  const serviceWorker = join(root, SERVICE_WORKER_FILE);
  const show = progress('compress', files.length);
  // Open from here until it is saved, or closed by the `finally` at the end whatever happens.
  const memo = memoFile ? rememberedPages<PageMemo, PageDetail>(memoFile, basis, new Set(sitePaths), isPageDetail) : null;
  try {
    const remembered = memo?.pages ?? new Map<string, string>();
    const gone = memo?.gone ?? new Set<string>();
    // Its threads keep the process alive until closed: started only here, where `finally` closes them.
    const compressor = await createCompressor(compressCache);
    const pass = new FinishPass({
      sitePath,
      fragments,
      remembered,
      detail: (path) => memo?.detail(path),
      gone,
      visitors,
      compressor,
      previousRelease: linkable(previousRelease, root),
      previousHashes: previousRelease?.hashes ?? {},
      stored,
      reused,
      sourceAt,
      into: into?.hashes ?? null,
    });
    /** The files of the older release this one is made in that it has not placed: listed once, when all but the service worker are. */
    let notPlaced: string[];
    try {
      await mapLimit(
        files.filter((f) => !policyFiles.has(f) && f !== serviceWorker),
        FILE_CONCURRENCY,
        async (file) => {
          await pass.finish(file);
          show.tick();
        },
      );
      await writePolicy(renderRoot, scripts.hashes, bases);
      for (const file of policyFiles) {
        await pass.finishFile(file, await readFile(sourceOf(file)));
        show.tick();
      }
      // Its precache list is read from the release, which must by then hold no file the older one left.
      notPlaced = into ? into.hashes.paths().filter((path) => !(path in pass.hashes)) : [];
      removeFilesGone(
        root,
        notPlaced.filter((path) => !path.startsWith(SERVICE_WORKER_FILE)),
      );
      await writeServiceWorker(root, bases.serviceWorker, sitePaths, sourceOf(serviceWorker));
      await pass.finishFile(serviceWorker, await readFile(sourceOf(serviceWorker)));
    } finally {
      await compressor.close();
    }
    show.done();
    removeFilesGone(
      root,
      notPlaced.filter((path) => path.startsWith(SERVICE_WORKER_FILE) && !(path in pass.hashes)),
    );
    const checked = await links.finish();
    // Only a clean build is remembered: a page's findings are replayed without its broken references.
    if (memo && !checked.broken.length) memo.save(pass.memo, sitePaths);

    return {
      hashes: pass.hashes,
      sincePrevious: pass.changes(),
      links: checked,
      compressed: { files: pass.compressible, ...compressor.stats, pruned: await compressor.prune() },
      fragments: fragments.text.size,
      remembered: pass.reusedFindings,
      pagesRead: pass.pagesRead,
      keptFromOlder: pass.keptFromOlder,
      ms: Math.round(performance.now() - started),
    };
  } finally {
    memo?.close();
  }
}

/** The previous release, when its files can be linked into `root`: a hard link cannot cross file systems. */
function linkable(previous: FinishOptions['previousRelease'], root: string): FinishOptions['previousRelease'] {
  if (!previous) return null;
  try {
    const [from, to] = [statSync(previous.root), statSync(root)];
    // The build's own folder is no release to link from.
    return from.dev === to.dev && from.ino !== to.ino ? previous : null;
  } catch {
    return null;
  }
}

/** The fragment folder (in Astro's folder) of the language a fragment file belongs to. */
function fragmentRoot(renderRoot: string, sitePath: string): string {
  const parts = sitePath.split('/');
  return join(renderRoot, ...parts.slice(0, parts.indexOf(FRAGMENT_DIR) + 1));
}

/** Removes the files (site paths) an older release had that this one has not, and the folders they leave empty. */
function removeFilesGone(root: string, paths: string[]): void {
  const folders = new Set<string>();
  for (const path of paths) {
    rmSync(root + path, { force: true });
    folders.add(dirname(root + path));
  }
  // Deepest first, each up to the first folder that still holds something.
  for (const start of [...folders].sort((a, b) => b.length - a.length)) {
    for (let folder = start; folder.length > root.length; folder = dirname(folder)) {
      try {
        rmdirSync(folder);
      } catch {
        break;
      }
    }
  }
}
