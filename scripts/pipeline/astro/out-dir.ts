/**
 * Where Astro is told to write. Astro 7 puts its prerender chunks inside outDir when outDir's path *begins
 * with* the working directory's as a string (`/srv/site-releases` begins with `/srv/site`), and there, outside
 * the project, they cannot find its packages ("Cannot find package '@oslojs/encoding'"); for any other folder
 * outside the project it puts them under the project's own `.astro/`. So such a folder is reached through a
 * symbolic link in the system's temporary folder: the same files, a path Astro no longer mistakes for the
 * project's.
 *
 * Astro then moves the built assets from the project's `.astro/` into outDir by renaming them, which cannot
 * cross file systems (EXDEV): an outDir on another disk than the project is refused at once, saying so.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';

const inside = (parent: string, path: string) => {
  const rest = relative(parent, path);
  return rest === '' || (!rest.startsWith('..') && !isAbsolute(rest));
};

/** True when Astro would take `outDir` for a folder of the project although it is not one. */
export function mistakenForProject(outDir: string, cwd: string = process.cwd()): boolean {
  const path = resolve(cwd, outDir);
  return !inside(cwd, path) && path.startsWith(cwd);
}

/** The device of `path`, or of its nearest folder that exists. */
function deviceOf(path: string): number {
  let at = path;
  while (!existsSync(at) && dirname(at) !== at) at = dirname(at);
  return statSync(at).dev;
}

/** The outDir to give Astro for `outDir`, and what to do once it has written there. */
export function astroOutDir(outDir: string, cwd: string = process.cwd()): { path: string; done(): void } {
  const target = resolve(cwd, outDir);
  if (!inside(cwd, target) && deviceOf(target) !== deviceOf(cwd)) {
    throw new Error(
      `${target} is on another file system than the project (${cwd}): Astro moves the built files there by renaming them, ` +
        'which cannot cross file systems. Put OUT_DIR (for a rebuild: RELEASES_DIR) on the same disk as the project, or the project on that disk.',
    );
  }
  if (!mistakenForProject(outDir, cwd)) return { path: outDir, done: () => undefined };
  mkdirSync(target, { recursive: true });
  const folder = mkdtempSync(join(tmpdir(), 'astro-out-'));
  const link = join(folder, 'site');
  if (mistakenForProject(link, cwd)) throw new Error(`OUT_DIR ${target} and the temporary folder ${folder} both begin with the project's path ${cwd}: move one of them`);
  symlinkSync(target, link, 'dir');
  return { path: link, done: () => rmSync(folder, { recursive: true, force: true }) };
}
