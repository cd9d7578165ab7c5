/**
 * The file list of the older release a new one is made in, taken back from the served release's list through the
 * changes records of the publishes between them: the same hash for every path as that release's own list, and
 * the list read whole (null here) whenever a record is missing, damaged or leads elsewhere.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { diffByKey } from '../../scripts/lib/hash-diff.ts';
import { earlierReleaseList, releaseChanges, releaseChangesPath, releaseList } from '../../scripts/pipeline/publish/release-changes.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const [r1, r2, r3] = ['20260101T000000Z', '20260102T000000Z', '20260103T000000Z'];
type List = Record<string, string>;

/** Three releases' lists, each published against the one before, with their changes records. */
function releasesFolder(lists: [string, List][]): string {
  const dir = mkdtempSync(join(tmpdir(), 'release-changes-test-'));
  dirs.push(dir);
  mkdirSync(join(dir, 'reports'));
  let previous: { id: string; hashes: List } | null = null;
  for (const [id, hashes] of lists) {
    writeFileSync(releaseChangesPath(dir, id), JSON.stringify(releaseChanges(previous, diffByKey(previous?.hashes ?? {}, hashes))));
    previous = { id, hashes };
  }
  return dir;
}

/** The first release: pages, and their compressed copies named by the page's hash. */
const first: List = { '/index.html': 'a', '/index.html.br': 'br11:a', '/news/1/index.html': 'b', '/news/2/index.html': 'c', '/old.html': 'd' };
// A page changed, one removed, one added; then the added one changed again, a removed path back, and one removed that r1 had.
const second: List = { ...first, '/index.html': 'a2', '/index.html.br': 'br11:a2', '/news/3/index.html': 'e' };
delete second['/old.html'];
const third: List = { ...second, '/news/3/index.html': 'e2', '/old.html': 'd2' };
delete third['/news/2/index.html'];

const asRecord = (list: ReturnType<typeof releaseList>) => Object.fromEntries(list.paths().map((path) => [path, list.hashOf(path)]));

describe("the set-aside release's file list", () => {
  it('is the served release taken back through the records between them: every hash, and every path, as its own list has them', () => {
    const dir = releasesFolder([
      [r1, first],
      [r2, second],
      [r3, third],
    ]);
    const list = earlierReleaseList(dir, { id: r3, hashes: third }, r1, 3)!;
    expect(asRecord(list)).toEqual(first);
    for (const path of ['/news/3/index.html', '/nothing.html']) expect(list.hashOf(path)).toBeUndefined();
    expect(asRecord(earlierReleaseList(dir, { id: r3, hashes: third }, r2, 3)!)).toEqual(second);
  });

  it('is not taken without every record on the way, whole, or when the records lead to another release or none', () => {
    const lists: [string, List][] = [
      [r1, first],
      [r2, second],
      [r3, third],
    ];
    const served = { id: r3, hashes: third };
    // Two steps back, allowed one.
    expect(earlierReleaseList(releasesFolder(lists), served, r1, 1)).toBeNull();
    // A release no record leads to (rolled back from, or from before the records).
    expect(earlierReleaseList(releasesFolder(lists), served, '20251231T000000Z', 3)).toBeNull();
    for (const damage of ['', '{"since":', JSON.stringify({ since: r1 }), JSON.stringify({ since: r1, before: { '/index.html': 5 } }), JSON.stringify([r1])]) {
      const dir = releasesFolder(lists);
      writeFileSync(releaseChangesPath(dir, r2), damage);
      expect(earlierReleaseList(dir, served, r1, 3)).toBeNull();
    }
    const missing = releasesFolder(lists);
    rmSync(releaseChangesPath(missing, r2));
    expect(earlierReleaseList(missing, served, r1, 3)).toBeNull();
  });
});
