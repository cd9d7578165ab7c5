/**
 * Everything a build's output depends on, as one digest: the content
 * snapshot (without the time it was pulled), its picture and document maps, the site's code and dependencies,
 * the district's folder, and the settings that reach the HTML. When the digest equals the published
 * release's, a rebuild would write the same bytes again, so it publishes
 * nothing (`rebuild --force` builds anyway).
 */
import { createHash } from 'node:crypto';
import { statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { isAbsolute, join } from 'node:path';
import type { SiteConfig } from '../../src/config.ts';
import { SNAPSHOT_FILE } from '../../src/content/snapshot.ts';
import { DOCUMENT_MAP_FILE } from '../../src/content/documents/map.ts';
import { PICTURE_MAP_FILE } from '../../src/content/pictures/map.ts';
import { districtDir } from '../../src/district/district.ts';
import { DISTRICT_KEY } from '../../src/district/key.ts';
import { codeFiles } from '../lib/code-graph.ts';
import { FILE_CONCURRENCY, listFiles, mapLimit } from '../lib/files.ts';

/** What the build reads besides the snapshot and the code of its command: the site's sources, public files, dependencies. */
const SITE = ['src', 'public', 'package.json', 'package-lock.json', 'tsconfig.json'];
/** The build's command and Astro's configuration, with every module they import or start (./code-graph.ts). */
const BUILD_ENTRIES = ['scripts/build.ts', 'astro.config.mjs'];

/** The files of each entry, a file or a folder (all the files under it), relative to `root` unless absolute. */
function filesOf(entries: readonly string[], root: string): string[] {
  return entries.flatMap((entry) => {
    const path = isAbsolute(entry) ? entry : join(root, entry);
    return statSync(path, { throwIfNoEntry: false })?.isDirectory() ? listFiles(path) : [path];
  });
}

/**
 * The site's code: its sources, public files, dependencies, district folder, and the build's command and
 * Astro's configuration with every module they import or start. The render step hands Astro only the pages
 * whose key changed while this is what it was (./astro/changed-pages.ts).
 */
export async function siteCodeDigest(root = process.cwd()): Promise<string> {
  const hash = createHash('sha256');
  const files = new Set([...(await codeFiles(BUILD_ENTRIES, root)), ...filesOf([...SITE, districtDir()], root)]);
  const sorted = [...files].sort();
  const bodies = await mapLimit(sorted, FILE_CONCURRENCY, (f) => readFile(f).catch(() => Buffer.alloc(0)));
  sorted.forEach((f, i) => hash.update(`\0${f.slice(root.length)}\0`).update(bodies[i]!));
  return hash.digest('hex');
}

/**
 * Every file the site's code could be read from (the sources, the build's scripts, Astro's configuration, the
 * district folder), by size and modification time: the same before and after a build when nothing was
 * deployed while it ran, whatever Astro read when. Some 330 stats, 13 ms.
 */
export function siteCodeStamps(root = process.cwd()): string {
  return filesOf([...SITE, 'scripts', 'astro.config.mjs', districtDir()], root)
    .map((file) => {
      const stat = statSync(file, { bigint: true, throwIfNoEntry: false });
      return `${file}\0${stat ? `${stat.size}:${stat.mtimeNs}` : 'none'}`;
    })
    .sort()
    .join('\n');
}

export async function buildInputsDigest(config: SiteConfig, root = process.cwd()): Promise<string> {
  const hash = createHash('sha256');
  // The pull writes when it ran first; the rest is the content, hashed as bytes (decoding 58 MB took 0.5 s).
  const snapshot = await readFile(join(config.contentDir, SNAPSHOT_FILE));
  const pulledAt = /^\{"pulledAt":"[^"]*",/.exec(snapshot.subarray(0, 64).toString('latin1'));
  if (pulledAt) hash.update('{').update(snapshot.subarray(pulledAt[0].length));
  else hash.update(snapshot);
  // The drawn pictures: a photograph replaced at the same URL changes this and nothing else.
  hash.update(await readFile(join(config.contentDir, PICTURE_MAP_FILE)).catch(() => Buffer.alloc(0)));
  // The kept documents: one replaced at the same URL, or kept at last after failing, changes this and nothing else.
  hash.update(await readFile(join(config.contentDir, DOCUMENT_MAP_FILE)).catch(() => Buffer.alloc(0)));
  hash.update(await siteCodeDigest(root));
  // The footer shows the year, so the same content builds differently on the first of January.
  hash.update(JSON.stringify({ ...config, contentDir: undefined, district: DISTRICT_KEY, year: new Date().getFullYear() }));
  return hash.digest('hex');
}
