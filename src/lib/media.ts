/**
 * API pictures and API HTML as the pages show them: joined to the media base
 * (§7 "Images come from the API (or media) base"), read from the settings like
 * every other setting, and sanitised.
 */
import { readConfig } from '../config.ts';
import { sanitize } from './sanitize.ts';

/** Joins an API image path to the media base; absolute URLs stay as they are. */
export function mediaUrl(path: string | null): string | null {
  if (!path) return null;
  if (/^https?:\/\//.test(path)) return path;
  return `${readConfig().mediaBase}/${path.replace(/^\/+/, '')}`;
}

/** API HTML made safe to show, with relative images joined to the media base. */
export function safeHtml(html: string): string {
  return sanitize(html, { mediaBase: readConfig().mediaBase });
}
