/** What was added, changed and removed between two maps of hashes by key: a release's files. */
export function diffHashes(before: Map<string, string>, after: Map<string, string>) {
  const added: string[] = [];
  const changed: string[] = [];
  const removed: string[] = [];
  for (const [k, h] of after) {
    const old = before.get(k);
    if (old === undefined) added.push(k);
    else if (old !== h) changed.push(k);
  }
  for (const k of before.keys()) if (!after.has(k)) removed.push(k);
  return { added, changed, removed };
}
