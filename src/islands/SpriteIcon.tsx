/**
 * An icon from the site's sprite (/icons.svg, src/lib/icons.ts) for the
 * islands, the same `<use>` as `Icon.astro`: no path is repeated in the
 * JavaScript, and no emoji stands in for an icon. Always decorative: the
 * control it sits in carries the text.
 */
import { iconHref, type IconName } from '../lib/icons.ts';

export function SpriteIcon({ name, size = 20 }: { name: IconName; size?: number }) {
  return (
    <svg className="icon" width={size} height={size} fill="currentColor" aria-hidden="true" focusable="false">
      <use href={iconHref(name)} />
    </svg>
  );
}
