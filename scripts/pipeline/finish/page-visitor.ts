/**
 * One check of the last pass (finish-step.ts) over the pages: what it finds in a page as Astro wrote it, and
 * what it does with a finding the pass remembers from an earlier build of the same bytes at the same path.
 * The pass reads each page once, hands it to every visitor and keeps their findings in its memo; a new check
 * is a new visitor in its list.
 */
export interface PageToVisit {
  /** The page's file, and its path on the site (`/news/5/index.html`). */
  file: string;
  path: string;
  /** Its text as Astro wrote it, read when first asked for. */
  text: () => string;
}

/** What a visitor found in a page, and the site files the finding depends on. */
export interface Visited<Finding> {
  finding: Finding;
  /**
   * The files it found the page referring to, as a filter (./reference-filter.ts), kept apart from the finding:
   * only a build some file has gone from asks for them (`holdsWithout`), and read with every page's finding they
   * were half of what the memo read on every rebuild.
   */
  refersTo?: string;
}

export interface PageVisitor<Finding = unknown> {
  /** Its findings' key in the memo. */
  readonly name: string;
  /** Finds what it looks for in a page, takes it into its own result, and returns what the memo keeps of it. */
  visit(page: PageToVisit): Visited<Finding>;
  /** Takes into its result a finding the memo kept for a page with the same bytes at the same path. */
  replay(page: PageToVisit, finding: Finding): void;
  /** Whether a finding read from the memo is one it can replay (a damaged one: the page is checked again). */
  readable?(finding: unknown): boolean;
  /**
   * Whether a finding still holds now that these files (site paths) have gone from the site since it was made, told
   * the files its visit found the page referring to (`Visited.refersTo`; undefined when the memo lost them). A
   * visitor that does not say depends on the page's bytes alone.
   */
  holdsWithout?(refersTo: string | undefined, gone: ReadonlySet<string>): boolean;
}
