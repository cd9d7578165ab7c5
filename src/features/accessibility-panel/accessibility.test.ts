import { describe, expect, it } from 'vitest';
import { A11Y_STORAGE_KEY, ALL_BODY_CLASSES, bodyClasses, parseSettings, prePaintScript } from './accessibility.ts';

describe('special opportunities settings', () => {
  it('maps settings to body classes', () => {
    expect(bodyClasses({ mode: 'normal', zoom: 0 })).toEqual([]);
    expect(bodyClasses({ mode: 'grayscale', zoom: 2 })).toEqual(['mode-grayscale', 'zoom-2']);
    expect(ALL_BODY_CLASSES).toEqual(['mode-grayscale', 'mode-contrast', 'zoom-1', 'zoom-2', 'zoom-3']);
  });

  it('reads stored settings defensively', () => {
    expect(parseSettings('{"mode":"contrast","zoom":3}')).toEqual({ mode: 'contrast', zoom: 3 });
    expect(parseSettings('{"mode":"neon","zoom":9}')).toEqual({ mode: 'normal', zoom: 0 });
    expect(parseSettings('oops')).toEqual({ mode: 'normal', zoom: 0 });
  });

  it('the pre-paint script applies the same classes as bodyClasses', () => {
    for (const stored of ['{"mode":"grayscale","zoom":1}', '{"mode":"contrast","zoom":0}', '{"mode":"neon","zoom":7}', 'oops', null]) {
      const classes = new Set<string>();
      const localStorage = { getItem: (k: string) => (k === A11Y_STORAGE_KEY ? stored : null) };
      const document = { body: { classList: { add: (c: string) => void classes.add(c) } } };
      new Function('localStorage', 'document', prePaintScript())(localStorage, document);
      expect([...classes]).toEqual(bodyClasses(parseSettings(stored)));
    }
  });
});
