/**
 * What the last pass's memo keeps of the files a page refers to: a Bloom filter of their site paths, 256
 * bytes a page. A file that has gone since the memo was made (a deleted post's page or pictures) sends back to
 * the link check only the pages whose filter may hold it, about one page in a hundred by chance besides those
 * that do, instead of every page of the site (some 19 s at 44,000 pages).
 */
const BITS = 2048;
const PROBES = 3;

/** Two 32-bit FNV-1a hashes of `text` (different offsets), for double hashing. */
function hashes(text: string): [number, number] {
  let a = 0x811c9dc5;
  let b = 0x01000193;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x5bd1e995);
  }
  return [a >>> 0, (b | 1) >>> 0];
}

function* positions(text: string): Generator<number> {
  const [a, b] = hashes(text);
  for (let i = 0; i < PROBES; i++) yield (a + i * b) % BITS;
}

/** The filter of a set of site paths, as the memo keeps it (base64). */
export function referenceFilter(paths: Iterable<string>): string {
  const bits = new Uint8Array(BITS / 8);
  for (const path of paths) for (const p of positions(path)) bits[p >> 3]! |= 1 << (p & 7);
  return Buffer.from(bits).toString('base64');
}

/** A test of filters against `paths`: whether a page may refer to any of them (false means it surely refers to none). */
export function referenceProbe(paths: Iterable<string>): (filter: string) => boolean {
  const probes = [...paths].map((path) => [...positions(path)]);
  return (filter) => {
    const bits = Buffer.from(filter, 'base64');
    if (bits.length !== BITS / 8) return true;
    return probes.some((probe) => probe.every((p) => bits[p >> 3]! & (1 << (p & 7))));
  };
}
