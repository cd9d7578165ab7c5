/**
 * The district's emblem as the pages draw it: the SVG file of its folder, checked to be a plain drawing,
 * with the size and the attributes that keep it out of the accessibility tree and the Tab order.
 */
import { district, DistrictError, districtDir, districtFileText } from './district.ts';
import { join } from 'node:path';

/** What a drawing has no need of and a hostile file could use: scripts, links, embedded documents, handlers, styles that fetch. */
const FORBIDDEN = /<(?:script|foreignObject|iframe|object|embed|a|use|image|style|animate|set)\b|\son\w+\s*=|javascript:|(?:xlink:)?href\s*=|url\(/i;

let cached: string | undefined;

/** The emblem's root element with its contents, sized `size` px, or throws DistrictError naming the file. */
export function emblemSvg(size: number): string {
  cached ??= plainDrawing(district().pictures.emblem);
  return cached.replace('<svg', `<svg width="${size}" height="${size}" aria-hidden="true" focusable="false"`);
}

function plainDrawing(name: string): string {
  const file = join(districtDir(), name);
  if (!name.endsWith('.svg')) throw new DistrictError(`${file}: the emblem must be an SVG drawing (it is drawn inline in the header)`);
  const text = districtFileText(name).replace(/<\?xml[^>]*>|<!--[\s\S]*?-->|<!DOCTYPE[^>]*>/g, '').trim();
  const root = /^<svg\b([^>]*)>([\s\S]*)<\/svg>$/.exec(text);
  if (!root) throw new DistrictError(`${file}: the emblem must be one <svg> element`);
  if (FORBIDDEN.test(text)) throw new DistrictError(`${file}: the emblem may hold shapes only (no script, link, embedded picture, style or event handler)`);
  const viewBox = /\sviewBox="([\d.\s-]+)"/.exec(root[1]!)?.[1];
  if (!viewBox) throw new DistrictError(`${file}: the emblem needs a viewBox, so it can be drawn at any size`);
  return `<svg viewBox="${viewBox}">${root[2]!.trim()}</svg>`;
}
