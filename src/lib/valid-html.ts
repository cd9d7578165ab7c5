/** What Astro writes before a page's first island, besides its scripts (astro/runtime/server/scripts.js). */
const ISLAND_STYLE = '<style>astro-island,astro-slot,astro-static-slot{display:contents}</style>';

/** `html` without Astro's island <style> elements (one per page, or more in nested templates), whose rule global.scss carries. */
export function withoutIslandStyle(html: string): string {
  return html.includes(ISLAND_STYLE) ? html.replaceAll(ISLAND_STYLE, '') : html;
}
