/**
 * API HTML as the pages show it: sanitised, with relative images joined to the
 * media base, as the API's own pictures are (docs/rules.md, The API's calls). API pictures
 * themselves are the picture map's (src/content/pictures/).
 */
import { readConfig } from '../config.ts';
import { sanitize } from './sanitize.ts';

/**
 * API HTML made safe to show, with relative images joined to the media base and its highest heading
 * at `topHeading` (h2 under the page's h1 unless given).
 */
export function safeHtml(html: string, topHeading?: number): string {
  return sanitize(html, { mediaBase: readConfig().mediaBase, topHeading });
}
