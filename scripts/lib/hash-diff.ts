/**
 * What was added, changed and removed between two collections by key: a release's files by hash (plain objects,
 * as their lists are read: a Map made from 120,000 entries cost twice the list's parse at 10,000 news a
 * language), a pull's posts by digest (plain objects, as the snapshot keeps them), a pull's other items (Maps,
 * which pass `same`, to know an item unchanged without hashing it when it is the very same object).
 */
export interface KeyDiff {
  added: string[];
  changed: string[];
  removed: string[];
}

type Same<T> = (old: T, now: T) => boolean;
const identical = (a: unknown, b: unknown) => a === b;

export function diffByKey<T>(before: ReadonlyMap<string, T>, after: ReadonlyMap<string, T>, same?: Same<T>): KeyDiff;
export function diffByKey<T>(before: Readonly<Record<string, T>>, after: Readonly<Record<string, T>>, same?: Same<T>): KeyDiff;
export function diffByKey<T>(
  before: ReadonlyMap<string, T> | Readonly<Record<string, T>>,
  after: ReadonlyMap<string, T> | Readonly<Record<string, T>>,
  same: Same<T> = identical,
): KeyDiff {
  const diff: KeyDiff = { added: [], changed: [], removed: [] };
  if (before instanceof Map && after instanceof Map) {
    for (const [k, now] of after) {
      if (!before.has(k)) diff.added.push(k);
      else if (!same(before.get(k)!, now)) diff.changed.push(k);
    }
    for (const k of before.keys()) if (!after.has(k)) diff.removed.push(k);
    return diff;
  }
  // Two plain objects, walked with `for…in`, without a list of each object's keys or a call for each key (120,000
  // paths: 186–199 → 94–154 ms). Only own keys count, as in a Map.
  const old = before as Readonly<Record<string, T>>;
  const now = after as Readonly<Record<string, T>>;
  for (const k in now) {
    if (!Object.hasOwn(now, k)) continue;
    if (!Object.hasOwn(old, k)) diff.added.push(k);
    else if (!same(old[k]!, now[k]!)) diff.changed.push(k);
  }
  diff.removed = keysGone(old, now);
  return diff;
}

/** The own keys of `before` that `after` has not, in `before`'s order. */
export function keysGone(before: Readonly<Record<string, unknown>>, after: Readonly<Record<string, unknown>>): string[] {
  const gone: string[] = [];
  for (const k in before) if (Object.hasOwn(before, k) && !Object.hasOwn(after, k)) gone.push(k);
  return gone;
}
