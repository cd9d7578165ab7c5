/**
 * Astro's manifest of its incremental build (`incremental-build.json` in its cache folder, experimental in Astro
 * 7.3): what the build reads of it. tests/unit/astro-bridge.test.ts checks its version against the installed Astro.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** A page in Astro's manifest: what Astro keeps to reuse it. */
export interface ManifestPage {
  cacheKey?: string;
  outputFile: string;
  contentHashes?: unknown;
  staticImages?: unknown;
  referencedImages?: unknown;
  headers?: unknown;
}

export interface AstroManifest {
  version: number;
  configHash: string;
  lockfileHash: string;
  routes: Record<string, { dependencyHash: string; paths: Record<string, ManifestPage> }>;
}

/** The manifest version this was written against (Astro's `CACHE_VERSION`). */
export const MANIFEST_VERSION = 1;
export const MANIFEST_FILE = 'incremental-build.json';

/** The manifest on disk, whoever wrote it; null when it cannot be read or has no routes. */
export const readManifest = (cacheDir: string): AstroManifest | null => readManifestFile(join(cacheDir, MANIFEST_FILE));

/** The manifest in `file`; null when it cannot be read or has no routes. */
export function readManifestFile(file: string): AstroManifest | null {
  try {
    const manifest = JSON.parse(readFileSync(file, 'utf8')) as AstroManifest;
    return manifest.routes && typeof manifest.routes === 'object' ? manifest : null;
  } catch {
    return null;
  }
}

/** A page whose copy may be reused as Astro keeps it: nothing Astro replays for it but the page, and a plain name for its copy. */
export function plainPage(page: ManifestPage): boolean {
  if (page.contentHashes || page.staticImages || page.referencedImages || page.headers) return false;
  // A name with an escape is left to Astro, which knows how it maps to a file.
  return typeof page.outputFile === 'string' && !page.outputFile.includes('%') && !page.outputFile.startsWith('/') && !page.outputFile.split('/').includes('..');
}
