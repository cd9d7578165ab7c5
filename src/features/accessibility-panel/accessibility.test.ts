import { describe, expect, it } from 'vitest';
import { A11Y_STORAGE_KEY, bodyClasses, COLOUR_MODES, panelChoicesScript, prePaintScript, ZOOM_STEPS, type A11ySettings } from './accessibility.ts';

describe('special opportunities settings', () => {
  it('maps settings to body classes', () => {
    expect(bodyClasses({ mode: 'normal', zoom: 0 })).toEqual([]);
    expect(bodyClasses({ mode: 'grayscale', zoom: 2 })).toEqual(['mode-grayscale', 'zoom-2']);
  });

  it('the pre-paint script applies the same classes as bodyClasses', () => {
    // What is stored may be anything a user, an older site or another script left: what is not a setting is ignored.
    const cases: [string | null, A11ySettings][] = [
      ['{"mode":"grayscale","zoom":1}', { mode: 'grayscale', zoom: 1 }],
      ['{"mode":"contrast","zoom":0}', { mode: 'contrast', zoom: 0 }],
      ['{"mode":"neon","zoom":7}', { mode: 'normal', zoom: 0 }],
      ['oops', { mode: 'normal', zoom: 0 }],
      [null, { mode: 'normal', zoom: 0 }],
    ];
    for (const [stored, settings] of cases) {
      const classes = new Set<string>();
      const localStorage = { getItem: (k: string) => (k === A11Y_STORAGE_KEY ? stored : null) };
      const document = { body: { classList: { add: (c: string) => void classes.add(c) } } };
      new Function('localStorage', 'document', prePaintScript())(localStorage, document);
      expect([...classes]).toEqual(bodyClasses(settings));
    }
  });
});

/** A button of the panel as AccessibilityPanel.astro writes it: `data-mode="grayscale"`, `data-zoom="-1"`. */
type Press = { mode: string } | { zoom: '-1' | '1' };

/**
 * Just as much of a page as the panel's script touches: <body>'s classes (with one that is not the panel's, which
 * it must leave alone), the panel with its buttons and <output>, and storage. `press` clicks a button.
 */
function panelPage(classes: string[]) {
  const body = new Set(['js', ...classes]);
  const stored: [string, string][] = [];
  type FakeElement = { tag: string; dataset: Record<string, string>; value?: string; ariaPressed?: unknown; ariaDisabled?: unknown };
  // The selectors the script asks for: a tag name or `[data-…]` / `[data-…="…"]`, or a list of them.
  const matches = (el: FakeElement, selectors: string) =>
    selectors.split(',').some((selector) => {
      const data = /^\[data-(\w+)(?:="([^"]*)")?\]$/.exec(selector.trim());
      if (!data) return el.tag === selector.trim();
      return data[1]! in el.dataset && (data[2] === undefined || el.dataset[data[1]!] === data[2]);
    });
  const elements: FakeElement[] = [
    { tag: 'button', dataset: { zoom: '-1' } },
    { tag: 'output', dataset: {}, value: 'Size: 100%' },
    { tag: 'button', dataset: { zoom: '1' } },
    ...COLOUR_MODES.map((mode) => ({ tag: 'button', dataset: { mode } })),
  ];
  const listeners = new Map<string, (event: { target: unknown }) => void>();
  const panel = {
    dataset: {} as Record<string, string>,
    // A browser with popovers: the script leaves opening and closing to it.
    showPopover: () => {},
    addEventListener: (type: string, listener: (event: { target: unknown }) => void) => void listeners.set(type, listener),
    querySelector: (selectors: string) => elements.find((el) => matches(el, selectors)) ?? null,
    querySelectorAll: (selectors: string) => elements.filter((el) => matches(el, selectors)),
  };
  const document = {
    getElementById: (id: string) => (id === 'a11y-panel' ? panel : null),
    addEventListener: () => {},
    body: {
      classList: {
        add: (...names: string[]) => names.forEach((n) => body.add(n)),
        remove: (...names: string[]) => names.forEach((n) => body.delete(n)),
        contains: (name: string) => body.has(name),
      },
    },
  };
  const localStorage = { setItem: (key: string, value: string) => void stored.push([key, value]) };
  new Function('document', 'localStorage', panelChoicesScript())(document, localStorage);
  expect(panel.dataset.ready).toBe('true');
  return {
    press(press: Press) {
      const [name, value] = Object.entries(press)[0]!;
      const button = elements.find((el) => el.tag === 'button' && el.dataset[name] === value)!;
      listeners.get('click')!({ target: { closest: (selectors: string) => (matches(button, selectors) ? button : null) } });
    },
    /** <body>'s classes other than the one that is not the panel's, sorted. */
    classes: () => [...body].filter((c) => c !== 'js').sort(),
    keptOthers: () => body.has('js'),
    stored: () => stored.map(([key, value]) => [key, JSON.parse(value)]),
  };
}

describe('the panel script', () => {
  const starts: A11ySettings[] = COLOUR_MODES.flatMap((mode) => ZOOM_STEPS.map((_, zoom) => ({ mode, zoom })));
  const presses: Press[] = [...COLOUR_MODES.map((mode) => ({ mode })), { zoom: '-1' }, { zoom: '1' }];

  it.each(starts)('from $mode at size step $zoom, each button leaves the classes bodyClasses gives and keeps the settings', (start) => {
    for (const press of presses) {
      // The page as the pre-paint script left it for these settings.
      const page = panelPage(bodyClasses(start));
      page.press(press);
      const zoom = start.zoom + ('zoom' in press ? Number(press.zoom) : 0);
      const label = JSON.stringify(press);
      if (zoom < 0 || zoom >= ZOOM_STEPS.length) {
        // Past the smallest or the largest step the press changes nothing and keeps nothing.
        expect(page.classes(), label).toEqual([...bodyClasses(start)].sort());
        expect(page.stored(), label).toEqual([]);
      } else {
        const settings: A11ySettings = { mode: 'mode' in press ? (press.mode as A11ySettings['mode']) : start.mode, zoom };
        expect(page.classes(), label).toEqual([...bodyClasses(settings)].sort());
        expect(page.stored(), label).toEqual([[A11Y_STORAGE_KEY, settings]]);
      }
      expect(page.keptOthers(), label).toBe(true);
    }
  });

  it('goes from the smallest size step to the largest and back, and no further either way', () => {
    const page = panelPage([]);
    const last = ZOOM_STEPS.length - 1;
    for (let i = 0; i < last + 2; i++) page.press({ zoom: '1' });
    expect(page.classes()).toEqual(bodyClasses({ mode: 'normal', zoom: last }));
    for (let i = 0; i < last + 2; i++) page.press({ zoom: '-1' });
    expect(page.classes()).toEqual([]);
    const steps = [...Array.from({ length: last }, (_, i) => i + 1), ...Array.from({ length: last }, (_, i) => last - 1 - i)];
    expect(page.stored()).toEqual(steps.map((zoom) => [A11Y_STORAGE_KEY, { mode: 'normal', zoom }]));
  });
});
