/**
 * What was added, changed and removed between two collections by key: a release's files by hash (plain objects,
 * as their lists are read: a Map made from 120,000 entries cost twice the list's parse at 10,000 news a
 * language), a pull's items (which pass `same`, to know an item unchanged without hashing it when it is the
 * very same object).
 */
type Keyed<T> = ReadonlyMap<string, T> | Readonly<Record<string, T>>;

const lookup = <T>(keyed: Keyed<T>): ((key: string) => T | undefined) =>
  keyed instanceof Map ? (key) => keyed.get(key) : (key) => (Object.hasOwn(keyed, key) ? (keyed as Record<string, T>)[key] : undefined);
const holds = <T>(keyed: Keyed<T>): ((key: string) => boolean) => (keyed instanceof Map ? (key) => keyed.has(key) : (key) => Object.hasOwn(keyed, key));
const keysOf = <T>(keyed: Keyed<T>): Iterable<string> => (keyed instanceof Map ? keyed.keys() : Object.keys(keyed));

export function diffByKey<T>(before: Keyed<T>, after: Keyed<T>, same: (old: T, now: T) => boolean = (a, b) => a === b) {
  const added: string[] = [];
  const changed: string[] = [];
  const removed: string[] = [];
  const old = lookup(before);
  const now = lookup(after);
  const had = holds(before);
  const has = holds(after);
  for (const k of keysOf(after)) {
    if (!had(k)) added.push(k);
    else if (!same(old(k)!, now(k)!)) changed.push(k);
  }
  for (const k of keysOf(before)) if (!has(k)) removed.push(k);
  return { added, changed, removed };
}
