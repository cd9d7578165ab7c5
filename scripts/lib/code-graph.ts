/**
 * The project's own source files that a program is made of: what esbuild's bundler reaches from its entry
 * files (static and dynamic imports; packages are left out, package-lock.json stands for them), and the
 * files that code starts by URL (a worker: `new Worker(new URL('./<file>', import.meta.url))`).
 * The build-inputs digest (scripts/pipeline/inputs.ts) and the last pass's memo (scripts/pipeline/finish/finish-step.ts) hash these, so neither
 * keeps a list of files by hand that a new module would silently miss.
 */
import { readFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { build } from 'esbuild';

const STARTED_BY_URL = /new URL\(\s*['"](\.{1,2}\/[^'"]+\.[cm]?[jt]s)['"]\s*,\s*import\.meta\.url\s*\)/g;

export async function codeFiles(entries: readonly string[], root: string = process.cwd()): Promise<string[]> {
  const seen = new Set<string>();
  let pending = entries.map((entry) => resolve(root, entry));
  while (pending.length) {
    const { metafile } = await build({
      entryPoints: pending,
      absWorkingDir: root,
      bundle: true,
      write: false,
      metafile: true,
      platform: 'node',
      format: 'esm',
      packages: 'external',
      logLevel: 'silent',
      // Nothing is written (write: false); esbuild wants a folder to name its outputs by.
      outdir: join(root, '.code-graph'),
    });
    const found = Object.keys(metafile.inputs)
      .map((input) => resolve(root, input))
      .filter((file) => !seen.has(file));
    found.forEach((file) => seen.add(file));
    const next = new Set<string>();
    for (const file of found) {
      for (const [, relative] of (await readFile(file, 'utf8')).matchAll(STARTED_BY_URL)) {
        const target = resolve(dirname(file), relative!);
        if (!seen.has(target)) next.add(target);
      }
    }
    pending = [...next];
  }
  return [...seen].sort();
}

/**
 * The text of a program's own files (`codeFiles`) and of package-lock.json, which stands for its packages: what a
 * digest of the code that made something hashes, so that a change to either makes it again.
 */
export async function codeTexts(entries: readonly string[], root: string = process.cwd()): Promise<string[]> {
  const files = [...(await codeFiles(entries, root)), join(root, 'package-lock.json')];
  return Promise.all(files.map((file) => readFile(file, 'utf8')));
}
