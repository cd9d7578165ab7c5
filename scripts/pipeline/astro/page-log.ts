/**
 * Astro's log as the render step reads it, through Astro's Logger API (the `logger` setting, whose
 * `entrypoint` is this module): Astro logs one line per page it writes ("├─ /news/5/index.html", then
 * "(+3ms)", or "(cached)"/"(restored)" when it reused the page), far too many for a log. They become a
 * count; Astro's warnings and errors are passed on, and the rest of its chatter is left out.
 *
 * What this still reads of Astro's own words (the page marker, "(cached)", "(restored)", "generating static
 * routes") is checked against the installed Astro by tests/unit/astro-bridge.test.ts.
 */
import { fileURLToPath } from 'node:url';
import type { AstroLoggerDestination, AstroLoggerMessage } from 'astro';

/** What one build's log said. */
export interface PageLog {
  /** Pages written, and of those the ones reused from Astro's cache. */
  count: number;
  reused: number;
  /** When Astro began to render the pages (performance.now()), 0 before. */
  renderStarted: number;
}

type Listener = (message: AstroLoggerMessage) => void;
// Astro imports this module itself; a global reaches the build that listens whichever copy it loaded.
const LISTENER = Symbol.for('hokimiyat.astro-page-log');
const listening = globalThis as { [LISTENER]?: Listener };

/** The logger Astro loads (its `logger.entrypoint`): hands every message to the build that listens. */
export default function pageLogDestination(): AstroLoggerDestination {
  return { write: (message) => listening[LISTENER]?.(message) };
}

/** Astro's `logger` setting that sends its log here. */
export const ASTRO_LOGGER = { entrypoint: fileURLToPath(import.meta.url) };

// eslint-disable-next-line no-control-regex -- the terminal's colour codes are what this removes
const plain = (text: string) => text.replace(/\x1b\[[0-9;]*m/g, '');
export const PAGE_MARKER = /[├└]─/;
export const REUSED_MARKER = /\((cached|restored)\)/;
export const RENDER_START = 'static routes';

/**
 * Listens to Astro's log until the returned `stop`: each page counted (`tick`), warnings and errors handed to
 * `write` with their level and label.
 */
export function listenToAstro(tick: () => void, write: (text: string, level: 'warn' | 'error') => unknown): { seen: PageLog; stop: () => void } {
  const seen: PageLog = { count: 0, reused: 0, renderStarted: 0 };
  listening[LISTENER] = ({ level, label, message }) => {
    const line = plain(message);
    if (PAGE_MARKER.test(line)) {
      seen.count++;
      tick();
    } else if (REUSED_MARKER.test(line)) seen.reused++;
    else if (line.includes(RENDER_START)) seen.renderStarted = performance.now();
    else if (level === 'warn' || level === 'error') write(`[${level}]${label && label !== 'SKIP_FORMAT' ? ` ${label}` : ''} ${message}\n`, level);
  };
  return { seen, stop: () => delete listening[LISTENER] };
}
