/**
 * A control that needs its island, before the island has hydrated: on a slow line the HTML
 * paints seconds before the JavaScript, and a control that looks ready then swallows the tap. Until
 * hydration it is aria-disabled (still focusable, announced as unavailable), described by the page's one
 * "not ready yet" note (BaseLayout), and `data-ready="false"` dims it with a dashed edge (global.scss);
 * once hydrated, `data-ready="true"`, which bench:ready and the tests wait for.
 */
export const NOT_READY_NOTE_ID = 'not-ready-note';

export function readyProps(hydrated: boolean) {
  return hydrated ? { 'data-ready': 'true' } : { 'aria-disabled': true, 'aria-describedby': NOT_READY_NOTE_ID, 'data-ready': 'false' };
}
