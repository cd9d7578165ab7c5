/** src/content/changes.ts: what changed, as the webhook, `rebuild --changed` and the pull speak of it. */
import { describe, expect, it } from 'vitest';
import { contentChange, describeChanges, itemKey, mergeChanges, parseItemKey } from '../../src/content/changes.ts';

describe('content changes', () => {
  it('takes a known type, with or without a non-negative id', () => {
    expect(contentChange('post', 5)).toEqual({ type: 'post', id: 5 });
    expect(contentChange('menu', undefined)).toEqual({ type: 'menu' });
  });

  it('refuses an unknown type or an id that is not a non-negative integer, saying what it takes', () => {
    expect(() => contentChange('video', 1)).toThrow(/"type" must be one of post, page, menu/);
    expect(() => contentChange('post', -1)).toThrow(/non-negative integer/);
    expect(() => contentChange('post', '5')).toThrow(/non-negative integer/);
  });

  it('merges: everything wins, repeats are kept once', () => {
    expect(mergeChanges([{ type: 'post', id: 1 }], [{ type: 'post', id: 1 }, { type: 'page' }])).toEqual([{ type: 'post', id: 1 }, { type: 'page' }]);
    expect(mergeChanges(null, 'all')).toBe('all');
    expect(describeChanges([{ type: 'post', id: 1 }, { type: 'menu' }])).toBe('post#1, menu');
  });

  it('names snapshot items as the change list of the pull and the rebuild report show them', () => {
    expect(itemKey('post', 'ru', 12)).toBe('post:12@ru');
    expect(itemKey('employee', 'en', 'leaders/3')).toBe('employee:leaders/3@en');
    expect(itemKey('menu', 'uz-latn')).toBe('menu@uz-latn');
    // And read back into their parts; anything else is no key.
    expect(parseItemKey('employee:leaders/3@en')).toEqual({ kind: 'employee', langCode: 'en', id: 'leaders/3' });
    expect(parseItemKey('menu@uz-latn')).toEqual({ kind: 'menu', langCode: 'uz-latn' });
    for (const notKey of ['', '@ru', 'post:12', 'post']) expect(parseItemKey(notKey)).toBeUndefined();
  });
});
