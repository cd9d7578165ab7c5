/**
 * How far a pull told what changed must read a paginated list. The API's
 * lists are newest first, so a change moves only their beginning: once a
 * page read now is a run of the previous pull's list with nothing new in it,
 * the rest of the list is the previous pull's rest. One new post then costs
 * two list pages instead of every page of the list (250 at 2,500 news), and a
 * deleted post one, wherever it stood.
 *
 * The nightly run reads every page and catches what this cannot see: a post
 * dated back into the middle of a list that the webhook did not name.
 */

export interface Named {
  /** Posts named as changed that are gone (a deleted post shifts every API page after its own). */
  gone: ReadonlySet<number>;
  /** Posts named as changed whose date changed: they may have moved anywhere in the list, so must be read where they are now. */
  moved: ReadonlySet<number>;
}

/**
 * The whole list as ids page by page, when `fetched` (pages 1…k read now) and `previous` (the previous
 * pull's pages) determine it; null when another page must be read.
 */
export function restOfList(fetched: readonly number[][], previous: readonly number[][], pageCount: number, named: Named): number[][] | null {
  const k = fetched.length;
  if (k >= pageCount) return fetched.map((p) => [...p]);
  if (!previous.length) return null;
  // Only whole pages can be cut again: a page the API or the pull shortened (a malformed or missing item) cannot.
  const pageSize = fetched[0]!.length;
  const whole = (pages: readonly number[][]) => pages.slice(0, -1).every((p) => p.length === pageSize);
  if (!pageSize || !whole(previous) || !whole([...fetched, []])) return null;
  const before = previous.flat();
  const last = fetched[k - 1]!;
  const start = before.indexOf(last[0]!);
  if (start < 0 || last.some((id, i) => before[start + i] !== id)) return null;
  // A post named as changed and found gone is gone from the rest too: the API's pages after it are the previous ones shifted.
  const rest = before.slice(start + last.length).filter((id) => !named.gone.has(id));
  const flat = [...fetched.flat(), ...rest];
  if (new Set(flat).size !== flat.length || Math.ceil(flat.length / pageSize) !== pageCount) return null;
  // A post of this list dated anew is wherever its date puts it now: read on until it is seen.
  const seen = new Set(fetched.flat());
  if (before.some((id) => named.moved.has(id) && !seen.has(id))) return null;
  return Array.from({ length: pageCount }, (_, i) => flat.slice(i * pageSize, (i + 1) * pageSize));
}
