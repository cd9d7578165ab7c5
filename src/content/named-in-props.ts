/**
 * The walk of a page's props for the files they name (pictures/map.ts, documents/map.ts), which the page's
 * key covers: every string is handed to `inString`; an object whose files are `known` (a post the pull
 * read: text-files.ts) gives those and is not walked; anything else is walked.
 */

/** The URLs of the files an object names when they are already known, or undefined. */
export type KnownFiles = (value: object) => readonly string[] | undefined;

export function walkNamedFiles(value: unknown, inString: (text: string) => void, known: KnownFiles, add: (url: string) => void): void {
  const visit = (v: unknown): void => {
    if (typeof v === 'string') inString(v);
    else if (Array.isArray(v)) v.forEach(visit);
    else if (v && typeof v === 'object') {
      const urls = known(v);
      if (urls) urls.forEach(add);
      else Object.values(v).forEach(visit);
    }
  };
  visit(value);
}
