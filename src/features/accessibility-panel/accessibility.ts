/**
 * Special opportunities (docs/rules.md, Special opportunities): a colour mode and a text-size step, applied
 * as classes on <body> and kept in local storage, so that every page of the
 * static site opens in the chosen look before it paints.
 */
import { STORAGE_KEYS } from '../../lib/storage.ts';

export const COLOUR_MODES = ['normal', 'grayscale', 'contrast'] as const;
export type ColourMode = (typeof COLOUR_MODES)[number];

/** Text-size steps as a fraction of the normal size; index 0 is normal. */
export const ZOOM_STEPS = [1, 1.125, 1.25, 1.5] as const;

export interface A11ySettings {
  mode: ColourMode;
  zoom: number;
}

const DEFAULT_A11Y: A11ySettings = { mode: 'normal', zoom: 0 };
export const A11Y_STORAGE_KEY = STORAGE_KEYS.a11y;

/** The body classes for the settings: `mode-grayscale`, `zoom-2` …; normal settings add none. */
export function bodyClasses(s: A11ySettings): string[] {
  return [...(s.mode === 'normal' ? [] : [`mode-${s.mode}`]), ...(s.zoom > 0 ? [`zoom-${s.zoom}`] : [])];
}

export const ALL_BODY_CLASSES = [
  ...COLOUR_MODES.filter((m) => m !== 'normal').map((m) => `mode-${m}`),
  ...ZOOM_STEPS.slice(1).map((_, i) => `zoom-${i + 1}`),
];

export function parseSettings(raw: string | null): A11ySettings {
  try {
    const v = JSON.parse(raw ?? 'null') as Partial<A11ySettings> | null;
    const mode = COLOUR_MODES.includes(v?.mode as ColourMode) ? (v!.mode as ColourMode) : 'normal';
    const zoom = Number.isInteger(v?.zoom) && v!.zoom! >= 0 && v!.zoom! < ZOOM_STEPS.length ? v!.zoom! : 0;
    return { mode, zoom };
  } catch {
    return DEFAULT_A11Y;
  }
}

/**
 * The tiny script that runs first thing in <body>, before anything paints:
 * the same rules as bodyClasses, written out so it needs no module.
 */
export function prePaintScript(): string {
  return (
    `try{var s=JSON.parse(localStorage.getItem(${JSON.stringify(A11Y_STORAGE_KEY)})||'{}'),c=document.body.classList;` +
    `if(${JSON.stringify(COLOUR_MODES.filter((m) => m !== 'normal'))}.indexOf(s.mode)>=0)c.add('mode-'+s.mode);` +
    `if(s.zoom>0&&s.zoom<${ZOOM_STEPS.length})c.add('zoom-'+s.zoom)}catch(e){}`
  );
}
