/** What Astro writes before a page's first island, besides its scripts (astro/runtime/server/scripts.js). */
const ISLAND_STYLE = '<style>astro-island,astro-slot,astro-static-slot{display:contents}</style>';

/** `html` without Astro's island <style> element, whose rule global.scss carries in the page's own stylesheet. */
export function withoutIslandStyle(html: string): string {
  return html.includes(ISLAND_STYLE) ? html.replace(ISLAND_STYLE, '') : html;
}
