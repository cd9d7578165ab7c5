/**
 * The special-opportunities button and panel (docs/rules.md, Special opportunities): three colour modes and
 * text size, applied as body classes and kept for every page. Closed by its
 * close icon and Escape; focus goes back to the button.
 */
import { useEffect, useRef, useState, type ReactNode } from 'react';
import '../../islands/header-islands.scss';
import './accessibility-panel.scss';
import { format } from '../../i18n/format.ts';
import type { MessageKey } from '../../i18n/t.ts';
import {
  A11Y_STORAGE_KEY,
  ALL_BODY_CLASSES,
  COLOUR_MODES,
  ZOOM_STEPS,
  bodyClasses,
  parseSettings,
  type A11ySettings,
  type ColourMode,
} from './accessibility.ts';
import { readStored, writeStored } from '../../lib/storage.ts';
import { useHydrated } from '../../islands/useHydrated.ts';
import { CRASH_MESSAGES, withCrashScreen } from '../../islands/CrashScreen.tsx';
import { SpriteIcon } from '../../islands/SpriteIcon.tsx';
import { readyProps } from '../../islands/NotReady.tsx';

export const A11Y_MESSAGES = [
  ...CRASH_MESSAGES,
  'header.accessibility',
  'a11y.title',
  'a11y.colour',
  'a11y.normal',
  'a11y.grayscale',
  'a11y.contrast',
  'a11y.size',
  'a11y.zoomIn',
  'a11y.zoomOut',
  'a11y.zoomLevel',
  'a11y.close',
] as const satisfies readonly MessageKey[];
type Messages = Record<(typeof A11Y_MESSAGES)[number], string>;

const MODE_LABEL: Record<ColourMode, keyof Messages> = { normal: 'a11y.normal', grayscale: 'a11y.grayscale', contrast: 'a11y.contrast' };

function apply(settings: A11ySettings) {
  document.body.classList.remove(...ALL_BODY_CLASSES);
  document.body.classList.add(...bodyClasses(settings));
  // Without storage the choice holds for this page only.
  writeStored(A11Y_STORAGE_KEY, JSON.stringify(settings));
}

/** `children`: the button's icon, drawn in the HTML by the page (`<Icon inline>`), so it paints before the sprite arrives. */
function AccessibilityPanel({ messages: m, children: icon }: { messages: Messages; children?: ReactNode }) {
  const hydrated = useHydrated();
  const [open, setOpen] = useState(false);
  const [settings, setSettings] = useState<A11ySettings | null>(null);
  const button = useRef<HTMLButtonElement>(null);
  const panel = useRef<HTMLDivElement>(null);

  // Read after hydration: the server rendered the defaults.
  useEffect(() => setSettings(parseSettings(readStored(A11Y_STORAGE_KEY))), []);

  useEffect(() => {
    if (!open) return;
    panel.current?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') close();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [open]);

  function close() {
    setOpen(false);
    button.current?.focus();
  }

  function change(next: A11ySettings) {
    setSettings(next);
    apply(next);
  }

  const current = settings ?? { mode: 'normal', zoom: 0 };
  const percent = Math.round(ZOOM_STEPS[current.zoom]! * 100);

  return (
    <div className="a11y">
      <button
        ref={button}
        type="button"
        className="header-button"
        {...readyProps(hydrated)}
        aria-expanded={open}
        aria-controls={hydrated ? 'a11y-panel' : undefined}
        onClick={() => (open ? close() : setOpen(true))}
      >
        {icon}
        <span className="header-button__label">{m['header.accessibility']}</span>
      </button>
      {/* Not in the HTML: nothing opens it before hydration, and every page's first flight is shorter without it. */}
      {hydrated && (
        <div
          ref={panel}
          id="a11y-panel"
          className="a11y-panel"
          role="dialog"
          aria-modal="false"
          aria-labelledby="a11y-panel-title"
          tabIndex={-1}
          hidden={!open}
        >
          <div className="a11y-panel__head">
            <h2 id="a11y-panel-title">{m['a11y.title']}</h2>
            <button type="button" className="close-button" aria-label={m['a11y.close']} onClick={close}>
              <SpriteIcon name="close" size={22} />
            </button>
          </div>
          <fieldset>
            <legend>{m['a11y.size']}</legend>
            <div className="a11y-panel__options">
              {/* aria-disabled, not disabled: the button pressed to the limit keeps the focus (a disabled one drops it to the page). */}
              <button type="button" aria-disabled={current.zoom === 0} onClick={() => current.zoom > 0 && change({ ...current, zoom: current.zoom - 1 })}>
                <span aria-hidden="true">A−</span> <span className="visually-hidden">{m['a11y.zoomOut']}</span>
              </button>
              <output aria-live="polite">{format(m['a11y.zoomLevel'], { n: percent })}</output>
              <button
                type="button"
                aria-disabled={current.zoom === ZOOM_STEPS.length - 1}
                onClick={() => current.zoom < ZOOM_STEPS.length - 1 && change({ ...current, zoom: current.zoom + 1 })}
              >
                <span aria-hidden="true">A+</span> <span className="visually-hidden">{m['a11y.zoomIn']}</span>
              </button>
            </div>
          </fieldset>
          <fieldset>
            <legend>{m['a11y.colour']}</legend>
            <div className="a11y-panel__options">
              {COLOUR_MODES.map((mode) => (
                <button
                  key={mode}
                  type="button"
                  className={`a11y-panel__mode a11y-panel__mode--${mode}`}
                  aria-pressed={current.mode === mode}
                  onClick={() => change({ ...current, mode })}
                >
                  {m[MODE_LABEL[mode]]}
                </button>
              ))}
            </div>
          </fieldset>
        </div>
      )}
    </div>
  );
}

export default withCrashScreen(AccessibilityPanel);
