/**
 * Everything a build's output depends on, as one digest: the content
 * snapshot (without the time it was pulled) and its picture map, the site's code and dependencies,
 * and the settings that reach the HTML. When the digest equals the published
 * release's, a rebuild would write the same bytes again, so it publishes
 * nothing (`rebuild --force` builds anyway).
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { SiteConfig } from '../../src/config.ts';
import { SNAPSHOT_FILE } from '../../src/content/snapshot.ts';
import { PICTURE_MAP_FILE } from '../../src/content/pictures/map.ts';
import { FILE_CONCURRENCY, listFiles, mapLimit } from './files.ts';

/** What the build reads besides the snapshot: code, styles, public files, dependencies, configuration. */
const CODE = ['src', 'public', 'scripts/build.ts', 'scripts/lib', 'astro.config.mjs', 'package.json', 'package-lock.json', 'tsconfig.json'];

export async function buildInputsDigest(config: SiteConfig, root = process.cwd()): Promise<string> {
  const hash = createHash('sha256');
  const snapshot = await readFile(join(config.contentDir, SNAPSHOT_FILE), 'utf8');
  // The pull writes when it ran first; the rest is the content.
  hash.update(snapshot.replace(/^\{"pulledAt":"[^"]*",/, '{'));
  // The drawn pictures: a photograph replaced at the same URL changes this and nothing else.
  hash.update(await readFile(join(config.contentDir, PICTURE_MAP_FILE)).catch(() => Buffer.alloc(0)));
  const files: string[] = [];
  for (const entry of CODE) {
    const path = join(root, entry);
    files.push(...(await listFiles(path).catch(() => [path])));
  }
  files.sort();
  const bodies = await mapLimit(files, FILE_CONCURRENCY, (f) => readFile(f).catch(() => Buffer.alloc(0)));
  files.forEach((f, i) => hash.update(`\0${f.slice(root.length)}\0`).update(bodies[i]!));
  // The footer shows the year, so the same content builds differently on the first of January.
  hash.update(JSON.stringify({ ...config, contentDir: undefined, year: new Date().getFullYear() }));
  return hash.digest('hex');
}
