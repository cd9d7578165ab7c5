/**
 * A release's changes record (`reports/<id>.changes.json`): what the release changed of the one it was built
 * against, as that one had it. The build writes it beside the release's file list (../build-step.ts), the publish
 * renames it with the list (../rebuild.ts), pruning removes it with the release (./releases.ts).
 *
 * Why: a new release is made in the oldest kept release (./releases.ts `setAsideOldRelease`), and the last pass
 * asks that release's file list, for every file, whether it already has those bytes. At 10,000 news a language
 * the list is 120,000 paths, parsed in every build beside the served release's list, which differs from it only
 * by what the two publishes between them changed: a few hundred files after a new post. So the set-aside
 * release's list is the served one's, taken back through those publishes' records; a record missing, damaged or
 * leading elsewhere (a rollback, a first release) means the list is parsed as before.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as v from 'valibot';

/** Each path the release added, changed or removed, with its hash in release `since` (null: it had none there). */
const ReleaseChanges = v.object({
  /** The id of the release it was built against; null when it was built against none. */
  since: v.nullable(v.string()),
  before: v.record(v.string(), v.nullable(v.string())),
});
export type ReleaseChanges = v.InferOutput<typeof ReleaseChanges>;

export const releaseChangesPath = (dir: string, id: string) => join(dir, 'reports', `${id}.changes.json`);

/** The changes record of the release being built (the build writes it, the publish renames it to `releaseChangesPath`). */
export const stagingChangesPath = (dir: string) => join(dir, 'staging-changes.json');

/** The changes record of a release built against `previous` (its id and file list), from what differs between them. */
export function releaseChanges(
  previous: { id: string; hashes: Readonly<Record<string, string>> } | null,
  { added, changed, removed }: { added: readonly string[]; changed: readonly string[]; removed: readonly string[] },
): ReleaseChanges {
  const before: Record<string, string | null> = {};
  if (!previous) return { since: null, before };
  for (const path of added) before[path] = null;
  for (const path of [...changed, ...removed]) before[path] = previous.hashes[path]!;
  return { since: previous.id, before };
}

/** A release's file list as the last pass asks it: the hash of a file by site path, and every path. */
export interface ReleaseList {
  hashOf(path: string): string | undefined;
  paths(): string[];
}

/** A file list parsed whole. */
export const releaseList = (hashes: Readonly<Record<string, string>>): ReleaseList => ({ hashOf: (path) => hashes[path], paths: () => Object.keys(hashes) });

function readChanges(file: string): ReleaseChanges | null {
  try {
    const parsed = v.safeParse(ReleaseChanges, JSON.parse(readFileSync(file, 'utf8')));
    return parsed.success ? parsed.output : null;
  } catch {
    return null;
  }
}

/**
 * The file list of release `earlier`, from a later release's (`later`: its id and list) and the changes records of
 * the releases from `later` back to it, at most `steps` of them. Null when a record on the way is missing or
 * damaged, or the records do not lead to `earlier`.
 */
export function earlierReleaseList(dir: string, later: { id: string; hashes: Readonly<Record<string, string>> }, earlier: string, steps: number): ReleaseList | null {
  // Each record overrides the later ones: it says what the release before it had.
  const back = new Map<string, string | null>();
  let id = later.id;
  for (let step = 0; step < steps; step++) {
    const changes = readChanges(releaseChangesPath(dir, id));
    if (!changes?.since) return null;
    for (const path in changes.before) back.set(path, changes.before[path]!);
    if (changes.since === earlier) {
      const { hashes } = later;
      return {
        hashOf: (path) => {
          const hash = back.get(path);
          return hash === undefined ? hashes[path] : (hash ?? undefined);
        },
        paths: () => [...Object.keys(hashes).filter((path) => !back.has(path)), ...[...back].filter(([, hash]) => hash !== null).map(([path]) => path)],
      };
    }
    id = changes.since;
  }
  return null;
}
