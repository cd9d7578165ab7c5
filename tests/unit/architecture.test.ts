import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';

// docs/architecture.md draws the layout: a folder at the start of a line (indented: inside the folder above), then
// what it holds, naming its files. Every file it names must be in the folder it is named under, so that a move
// or a rename which forgets the map fails here.
const MAP = readFileSync('docs/architecture.md', 'utf8').split('```')[1]!;
const FILE = /(?<![\w/.*-])[\w.-]+(?:\/[\w.-]+)*\.(?:ts|tsx|astro|scss|mjs|json)\b/g;

const isFolder = (path: string) => existsSync(path) && statSync(path).isDirectory();

/** Each file the map names, with the folder it is named under. */
function namedFiles(): { folder: string; name: string }[] {
  const named: { folder: string; name: string }[] = [];
  let top = '.';
  let folder = '.';
  for (const line of MAP.split('\n')) {
    const head = /^( *)(\S+)/.exec(line);
    // A folder or file at the start of a line opens its entry; an indent of two, an entry inside the folder above.
    if (head && head[1]!.length <= 2) {
      const path = head[1] ? `${top}/${head[2]!.replace(/\/$/, '')}` : head[2]!.replace(/\/$/, '');
      folder = isFolder(path) ? path : dirname(path);
      if (!head[1]) top = folder;
    }
    for (const [name] of line.matchAll(FILE)) named.push({ folder, name });
  }
  return named;
}

/** Whether `name` is a file in `folder` or in a folder inside it (a name with a folder in it: from the folder or the root). */
function isThere(folder: string, name: string): boolean {
  if (name.includes('/')) return existsSync(name) || existsSync(join(folder, name));
  return readdirSync(folder, { recursive: true, encoding: 'utf8' }).some((f) => f === name || f.endsWith(`/${name}`));
}

describe('docs/architecture.md', () => {
  it('names only files that are where it says they are', () => {
    const named = namedFiles();
    expect(named.length).toBeGreaterThan(60);
    expect(named.filter(({ folder, name }) => !isThere(folder, name))).toEqual([]);
  });
});
