/** /icons.svg: the icon sprite every page refers to (cached like any static file). */
import { sprite } from '../lib/icons.ts';

export const GET = () => new Response(sprite(), { headers: { 'content-type': 'image/svg+xml' } });
