/** robots.txt: everything may be indexed; the sitemap lists every page in every language. */
import type { APIRoute } from 'astro';
import { siteAddress } from '../lib/base-path.ts';

export const GET: APIRoute = ({ site }) =>
  new Response(`User-agent: *\nAllow: /\n\nSitemap: ${new URL(siteAddress('/sitemap-index.xml'), site).href}\n`, {
    headers: { 'content-type': 'text/plain; charset=utf-8' },
  });
