/**
 * The district's emblem as the pages draw it: the SVG file of its folder, read by an XML parser and
 * written again with only the shapes and paint of a drawing (an allowlist of elements and attributes), so
 * that nothing in the operator's file (a script, a handler, a link, a redirect, a foreign element) can
 * reach every page's header. The site adds the size and the attributes that keep it out of the
 * accessibility tree and the Tab order.
 */
import { Parser } from 'htmlparser2';
import { join } from 'node:path';
import { district, DistrictError, districtDir, districtFileText } from './district.ts';

const ELEMENTS = new Set(['svg', 'g', 'path', 'circle', 'ellipse', 'rect', 'line', 'polyline', 'polygon', 'defs', 'lineargradient', 'radialgradient', 'stop', 'clippath']);
/** SVG's own spelling of the elements above whose names have capitals. */
const SPELLING: Record<string, string> = { lineargradient: 'linearGradient', radialgradient: 'radialGradient', clippath: 'clipPath' };
const ATTRIBUTES = new Set([
  'viewbox',
  'd',
  'cx',
  'cy',
  'r',
  'rx',
  'ry',
  'x',
  'y',
  'x1',
  'y1',
  'x2',
  'y2',
  'fx',
  'fy',
  'width',
  'height',
  'points',
  'transform',
  'fill',
  'fill-rule',
  'fill-opacity',
  'stroke',
  'stroke-width',
  'stroke-linecap',
  'stroke-linejoin',
  'stroke-miterlimit',
  'stroke-opacity',
  'opacity',
  'clip-rule',
  'clip-path',
  'id',
  'offset',
  'stop-color',
  'stop-opacity',
  'gradientunits',
  'gradienttransform',
]);
const ATTRIBUTE_SPELLING: Record<string, string> = { viewbox: 'viewBox', gradientunits: 'gradientUnits', gradienttransform: 'gradientTransform' };
/** Values a drawing needs: numbers, colours, path data, and references to its own gradients and clips (`url(#id)`). */
const VALUE = /^(?:[\w\s.,#%+-]*|url\(#[\w-]+\)|rgba?\([\d\s.,%]+\))$/;

let cached: string | undefined;

/** The emblem sized `size` px; throws DistrictError naming the file when it is no plain drawing. */
export function emblemSvg(size: number): string {
  cached ??= plainDrawing(district().pictures.emblem);
  return cached.replace('<svg', `<svg class="emblem" width="${size}" height="${size}" aria-hidden="true" focusable="false"`);
}

/** The drawing of SVG `text`: its shapes and paint only; null when its root is no `<svg>` with a viewBox. */
export function drawingOf(text: string): string | null {
  let out = '';
  let depth = 0;
  let roots = 0;
  let skipping = 0;
  let viewBox = false;
  const parser = new Parser(
    {
      onopentag(name, attributes) {
        if (skipping || !ELEMENTS.has(name) || (depth === 0) !== (name === 'svg')) return void skipping++;
        if (depth === 0) roots++;
        depth++;
        const kept = Object.entries(attributes)
          .filter(([a, v]) => ATTRIBUTES.has(a) && VALUE.test(v))
          .map(([a, v]) => ` ${ATTRIBUTE_SPELLING[a] ?? a}="${v}"`);
        if (name === 'svg') viewBox = kept.some((a) => a.startsWith(' viewBox='));
        out += `<${SPELLING[name] ?? name}${kept.join('')}>`;
      },
      onclosetag(name) {
        if (skipping) return void skipping--;
        depth--;
        out += `</${SPELLING[name] ?? name}>`;
      },
    },
    { xmlMode: true, lowerCaseTags: true, lowerCaseAttributeNames: true, recognizeSelfClosing: true },
  );
  parser.write(text);
  parser.end();
  return roots === 1 && depth === 0 && viewBox ? out : null;
}

function plainDrawing(name: string): string {
  const file = join(districtDir(), name);
  const drawing = drawingOf(districtFileText(name));
  if (!drawing) throw new DistrictError(`${file}: the emblem must be one <svg> drawing with a viewBox (it is drawn inline in every header)`);
  return drawing;
}
