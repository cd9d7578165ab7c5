/**
 * What was added, changed and removed between two maps by key: a release's files by hash, a pull's items
 * (which pass `same`, to know an item unchanged without hashing it when it is the very same object).
 */
export function diffByKey<T>(before: Map<string, T>, after: Map<string, T>, same: (old: T, now: T) => boolean = (a, b) => a === b) {
  const added: string[] = [];
  const changed: string[] = [];
  const removed: string[] = [];
  for (const [k, h] of after) {
    const old = before.get(k);
    if (old === undefined) added.push(k);
    else if (!same(old, h)) changed.push(k);
  }
  for (const k of before.keys()) if (!after.has(k)) removed.push(k);
  return { added, changed, removed };
}
