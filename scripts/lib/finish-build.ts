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
 * - writes each text file's `.br` and `.gz` from the compression cache;
 * - last, writes the service worker, whose precache list needs the final pages (service-worker.ts).
 *
 * Before this pass each of those read the whole release again (four reads of
 * some 35,000 files at 2,500 posts per language).
 */
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join, relative, resolve, sep } from 'node:path';
import { extractFragment, FRAGMENT_DIR, fragmentNameOfPath, spliceFragments } from '../../src/lib/fragments.ts';
import { linkChecker, type LinkReport } from '../check-links.ts';
import { ForeignInlineScriptError, inlineScriptHashes, POLICY_FILES, writePolicy, type policy } from './csp.ts';
import { FILE_CONCURRENCY, listFiles, mapLimit } from './files.ts';
import { COMPRESSIBLE, createCompressor, sha256 } from './precompress.ts';
import { progress } from './progress.ts';
import { SERVICE_WORKER_FILE, writeServiceWorker } from './service-worker.ts';

export interface FinishedBuild {
  /** Every file of the site by site path (`/news/5/index.html`), with a hash of its bytes. */
  hashes: Record<string, string>;
  links: LinkReport;
  compressed: { files: number; made: number; reused: number; pruned: number };
  fragments: number;
  ms: number;
}

export async function finishBuild(
  root: string,
  bases: Parameters<typeof policy>[1] & { serviceWorker: boolean },
  compressCache?: string,
): Promise<FinishedBuild> {
  const started = performance.now();
  root = resolve(root);
  const sitePath = (file: string) => `/${relative(root, file).split(sep).join('/')}`;
  const all = await listFiles(root);

  // Fragments first: every page that carries a marker needs them.
  const isFragment = (file: string) => sitePath(file).split('/').includes(FRAGMENT_DIR);
  const fragments = new Map<string, string>();
  await mapLimit(all.filter((f) => isFragment(f) && f.endsWith('.html')), FILE_CONCURRENCY, async (file) => {
    const html = await readFile(file, 'utf8');
    const body = extractFragment(html);
    if (body === null) throw new Error(`${sitePath(file)} has no fragment bounds`);
    fragments.set(fragmentNameOfPath(sitePath(file)), body);
  });
  for (const dir of new Set(all.filter(isFragment).map((f) => fragmentRoot(root, f)))) await rm(dir, { recursive: true, force: true });
  const files = all.filter((f) => !isFragment(f));
  const fileSet = new Set(files);

  // The policy's files are written once every page has been read; they are hashed after.
  const policyFiles = new Set(POLICY_FILES.map((p) => join(root, p)));
  const serviceWorker = join(root, SERVICE_WORKER_FILE);
  const compressor = await createCompressor(compressCache);
  const links = linkChecker(root, fileSet);
  const scriptHashes = new Set<string>();
  const hashes: Record<string, string> = {};
  const show = progress('compress', files.length);
  let compressible = 0;

  const finishFile = async (file: string, body: Buffer) => {
    const path = sitePath(file);
    const hash = sha256(body);
    hashes[path] = hash;
    if (COMPRESSIBLE.test(file)) {
      compressible++;
      for (const sibling of await compressor.compress(file, path, body, hash)) hashes[sibling.file] = sibling.identity;
    }
  };

  await mapLimit(
    files.filter((f) => !policyFiles.has(f) && f !== serviceWorker),
    FILE_CONCURRENCY,
    async (file) => {
      let body = await readFile(file);
      if (file.endsWith('.html')) {
        const read = body.toString('utf8');
        const html = spliceFragments(read, fragments);
        if (html !== read) {
          body = Buffer.from(html);
          await writeFile(file, body);
        }
        try {
          for (const h of inlineScriptHashes(html)) scriptHashes.add(h);
        } catch (error) {
          // A script the site did not write (a sanitiser regression): never allow it by the policy.
          if (error instanceof ForeignInlineScriptError) throw new ForeignInlineScriptError(`${sitePath(file)}: ${error.message}`);
          throw error;
        }
        links.page(file, html);
      }
      await finishFile(file, body);
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
  show.done();

  return {
    hashes: Object.fromEntries(Object.entries(hashes).sort(([a], [b]) => (a < b ? -1 : 1))),
    links: await links.finish(),
    compressed: { files: compressible, ...compressor.stats, pruned: await compressor.prune() },
    fragments: fragments.size,
    ms: Math.round(performance.now() - started),
  };
}

/** The fragment folder of the language a fragment file belongs to. */
function fragmentRoot(root: string, file: string): string {
  const parts = relative(root, file).split(sep);
  return join(root, ...parts.slice(0, parts.indexOf(FRAGMENT_DIR) + 1));
}
