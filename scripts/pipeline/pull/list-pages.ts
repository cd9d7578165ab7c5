/**
 * The site's own pages of a post list, numbered from the oldest post (docs/build-pipeline.md, List pages).
 *
 * The API numbers its pages from the newest post, so one new post moves every post of the list one place
 * and every page of it changes: at 10,000 news that is a thousand pages a language for each post. Here a
 * page, once full, keeps its posts and its number: the newest posts wait on the list's first page
 * (`/news`, half of `size` to one and a half times it, less one: 5 to 14) until it would hold more, and
 * then the oldest `size` of them become the next numbered page. The first page so weighs about what a page
 * of `size` weighs (its first flight stays within the budget on a slow line). A new post then changes the
 * first page and, every `size` posts, one new numbered page and its neighbours' links; the rest of the
 * archive is untouched.
 *
 * The pages are the previous pull's, mended:
 * - a deleted post leaves its page one shorter (no page after it shifts);
 * - a post that is new to a numbered page's stretch of the list (dated back into the archive) joins the
 *   page of the post just older than it;
 * - a post dated anew out of its page's order leaves it and is placed again by that rule;
 * - a numbered page left empty, or grown past `2 × size − 1`, is laid out again with every page newer
 *   than it, the only case in which numbers move;
 * - a first page that deletions left with fewer than half of `size` takes the newest numbered page back.
 *
 * A pull without a previous snapshot lays the list out afresh; so the pages are a function of the
 * snapshot, and a cold build of a snapshot writes what the rebuilds that led to it wrote.
 */

/**
 * The list's pages, oldest first; the last is the list's first page, the newest posts. `newestFirst` is the
 * list as the API orders it; `previous` the previous pull's pages (oldest first), if any.
 */
export function layOutListPages(newestFirst: readonly number[], previous: readonly (readonly number[])[] | undefined, size: number): number[][] {
  const fewest = Math.ceil(size / 2);
  const order = [...newestFirst].reverse();
  const numbered = (previous ?? []).slice(0, -1);
  const pageOf = new Map<number, number>();
  numbered.forEach((ids, page) => ids.forEach((id) => pageOf.set(id, page)));

  // The posts that keep their page: the longest run, in list order, whose pages never go back.
  const kept = keptInOrder(order.map((id) => pageOf.get(id)));
  const lastKept = kept.lastIndexOf(true);
  const pages: number[][] = numbered.map(() => []);
  const top: number[] = [];
  let current = 0;
  order.forEach((id, i) => {
    if (i > lastKept) top.push(id);
    else {
      if (kept[i]) current = pageOf.get(id)!;
      pages[current]!.push(id);
    }
  });

  // A page that can no longer stand as it is: lay it out again, and every page newer than it.
  const broken = pages.findIndex((ids) => ids.length === 0 || ids.length >= 2 * size);
  const settled = broken < 0 ? pages : pages.slice(0, broken);
  const open = broken < 0 ? top : [...pages.slice(broken).flat(), ...top];
  // Deletions among the newest posts: the newest numbered page joins them again rather than leave a first page of a few.
  while (open.length < fewest && settled.length) open.unshift(...settled.pop()!);
  // The newest posts: whole pages of `size` from their oldest end while more than the first page holds are left.
  while (open.length >= fewest + size) settled.push(open.splice(0, size));
  return [...settled, open];
}

/** Which entries belong to a longest non-decreasing subsequence of the defined ones (undefined: never). */
function keptInOrder(pages: readonly (number | undefined)[]): boolean[] {
  // Patience sorting: tails[k] is the index ending the best run of length k + 1 found so far.
  const tails: number[] = [];
  const before = new Array<number>(pages.length).fill(-1);
  pages.forEach((page, i) => {
    if (page === undefined) return;
    let lo = 0;
    let hi = tails.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (pages[tails[mid]!]! <= page) lo = mid + 1;
      else hi = mid;
    }
    before[i] = lo > 0 ? tails[lo - 1]! : -1;
    tails[lo] = i;
  });
  const kept = new Array<boolean>(pages.length).fill(false);
  for (let i = tails.length ? tails[tails.length - 1]! : -1; i >= 0; i = before[i]!) kept[i] = true;
  return kept;
}
