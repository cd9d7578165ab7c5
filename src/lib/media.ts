/**
 * API HTML as the pages show it: sanitised, with relative images joined to the
 * media base (§7 "Images come from the API (or media) base"). API pictures
 * themselves are the picture map's (src/content/pictures/).
 */
import { readConfig } from '../config.ts';
import { sanitize } from './sanitize.ts';

/** API HTML made safe to show, with relative images joined to the media base. */
export function safeHtml(html: string): string {
  return sanitize(html, { mediaBase: readConfig().mediaBase });
}
