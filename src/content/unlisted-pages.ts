/**
 * The pages a route need not list to Astro: a build that trusts Astro's manifest (scripts/pipeline/astro/changed-pages.ts)
 * offers, through this, to take a page whose key the manifest holds for one page as it is, from Astro's cache. A
 * route's page so taken is not listed: Astro goes through every page its routes list, a check, two stringified
 * parameters and a record each (some half a second of a rebuild at 10,000 news a language, profiled), even one it
 * only reuses. Without the offer (a build whose code changed, a test, the dev server) every page is listed.
 */

/** Whether the build takes the page with this key as it is (and so the route does not list it). */
export type TakeUnlisted = ((key: string, params: Readonly<Record<string, unknown>>) => boolean) & {
  /**
   * Whether the build takes as it is the page whose key begins with `madeFrom` (src/content/cache-key.ts `madeFromKey`):
   * offered only when every picture and document the build before knew is the same, so that such a key's other part,
   * the files its page names, stands. Without it, the route makes the whole key.
   */
  madeFrom?: (madeFrom: string, params: Readonly<Record<string, unknown>>) => boolean;
};

const OFFER = Symbol.for('hokimiyat.unlisted-pages');
const shared = globalThis as { [OFFER]?: TakeUnlisted };

/** The build's offer, when it made one. */
export const unlistedPages = (): TakeUnlisted | undefined => shared[OFFER];

/** Made by the build before Astro asks the routes for their pages; withdrawn (undefined) when Astro is done. */
export function offerUnlistedPages(take: TakeUnlisted | undefined): void {
  shared[OFFER] = take;
}
