/**
 * The heading levels of a text from the API, fitted under the page's own headings. Editors write
 * whatever levels look right to them (an <h1> for the first subtitle, an <h3> or <h5> straight away);
 * a screen reader user who lists the page's headings would then meet a second h1, or jump from the
 * page's h1 to an h3 and wonder what was skipped. Both sanitisers (`./sanitize.ts` at build time,
 * `src/features/just-published/sanitize-browser.ts` in the browser) renumber them with this: the
 * text's first heading becomes `top` (one below the heading the text sits under), a heading the editor
 * placed under another stays under it, one level down, and no level is ever skipped.
 */

/** The highest level a text may use: under the page's h1. */
export const TEXT_TOP_HEADING = 2;

/**
 * A numbering for a text's headings, met in document order: each call takes a heading's level as
 * the editor wrote it (1–6) and gives the level it gets. A heading goes one below the nearest
 * heading before it with a higher rank (a smaller number), or to `top` when there is none; past h6
 * it stays h6.
 */
export function headingOutline(top: number = TEXT_TOP_HEADING): (level: number) => number {
  // The editor's levels of the headings the next one may sit under, outermost first.
  const open: number[] = [];
  return (level) => {
    while (open.length && open[open.length - 1]! >= level) open.pop();
    open.push(level);
    return Math.min(6, top + open.length - 1);
  };
}
