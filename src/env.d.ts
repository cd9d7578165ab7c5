declare namespace App {
  interface Locals {
    /** Set by `pageContext(Astro)` (src/lib/page-context.ts), the only way to read it. */
    page?: import('./lib/page-context.ts').PageContext;
  }
}
