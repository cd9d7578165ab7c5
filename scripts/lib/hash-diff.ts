/**
 * What was added, changed and removed between two collections by key: a release's files by hash (plain objects,
 * as their lists are read: a Map made from 120,000 entries cost twice the list's parse at 10,000 news a
 * language), a pull's items (which pass `same`, to know an item unchanged without hashing it when it is the
 * very same object).
 */
type Keyed<T> = ReadonlyMap<string, T> | Readonly<Record<string, T>>;

/** A plain object read as a Map reads: its own keys only. */
const asMap = <T>(keyed: Keyed<T>): Pick<ReadonlyMap<string, T>, 'get' | 'has' | 'keys'> =>
  keyed instanceof Map
    ? keyed
    : {
        get: (key) => (Object.hasOwn(keyed, key) ? (keyed as Record<string, T>)[key] : undefined),
        has: (key) => Object.hasOwn(keyed, key),
        keys: () => Object.keys(keyed).values(),
      };

export function diffByKey<T>(before: Keyed<T>, after: Keyed<T>, same: (old: T, now: T) => boolean = (a, b) => a === b) {
  const added: string[] = [];
  const changed: string[] = [];
  const removed: string[] = [];
  const old = asMap(before);
  const now = asMap(after);
  for (const k of now.keys()) {
    if (!old.has(k)) added.push(k);
    else if (!same(old.get(k)!, now.get(k)!)) changed.push(k);
  }
  for (const k of old.keys()) if (!now.has(k)) removed.push(k);
  return { added, changed, removed };
}
