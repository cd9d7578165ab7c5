/**
 * `--changed post:123,page:5`: what changed, named on the command line as the webhook's body names it, so that
 * the pull fetches those details only; without it, everything is pulled. `npm run pull` and `npm run rebuild`
 * read it, and the rebuild writes it for the pull it starts.
 */
import { contentChange, type ContentChanges } from '../../src/content/changes.ts';

/** The option, for `parseArgs`. */
export const CHANGED_OPTION = { changed: { type: 'string' } } as const;

/** What `--changed` said; `undefined` (no option) is everything. */
export function changesFromOption(changed: string | undefined): ContentChanges {
  if (changed === undefined) return 'all';
  return changed
    .split(',')
    .filter(Boolean)
    .map((item) => {
      const [type, id] = item.split(':');
      if (!type || (id !== undefined && !/^\d+$/.test(id))) throw new Error(`--changed takes type:id pairs such as post:123, not "${item}"`);
      return contentChange(type, id === undefined ? undefined : Number(id));
    });
}

/** The command-line words that say `changes` (what changesFromOption reads). */
export const changesArgs = (changes: ContentChanges): string[] =>
  changes === 'all' ? [] : [`--changed=${changes.map((c) => (c.id === undefined ? c.type : `${c.type}:${c.id}`)).join(',')}`];
