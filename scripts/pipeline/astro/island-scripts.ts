/**
 * The inline scripts Astro writes into a page with islands: its island loader and one script per client
 * directive, read from Astro's runtime (its `*.prebuilt.js` modules), so that the policy allows them by hash
 * (../finish/csp.ts). Astro's own CSP (`security.csp`) hashes them into each page's <meta>; this site's policy
 * is a header that follows the served release (docs/accessibility-and-security.md), so it hashes them itself.
 * tests/unit/astro-bridge.test.ts checks that they are still where this reads them.
 */
import islandLoader from 'astro/runtime/server/astro-island.prebuilt.js';
import idleDirective from 'astro/runtime/client/idle.prebuilt.js';
import loadDirective from 'astro/runtime/client/load.prebuilt.js';
import mediaDirective from 'astro/runtime/client/media.prebuilt.js';
import onlyDirective from 'astro/runtime/client/only.prebuilt.js';
import visibleDirective from 'astro/runtime/client/visible.prebuilt.js';

export const ASTRO_INLINE_SCRIPTS: readonly string[] = [islandLoader, idleDirective, loadDirective, mediaDirective, onlyDirective, visibleDirective];
