/** What was added, changed and removed between two releases' file lists, or two pulls' items. */
import { describe, expect, it } from 'vitest';
import { diffByKey } from '../../scripts/lib/hash-diff.ts';

describe('diffByKey', () => {
  it('finds the same added, changed and removed keys in plain objects as in maps, names like constructor included', () => {
    const before = { '/a.html': '1', '/b.html': '2', constructor: '3', '/gone.html': '4' };
    const after = JSON.parse('{"/a.html":"1","/b.html":"9","constructor":"3","__proto__":"5","/new.html":"6"}') as Record<string, string>;
    const expected = { added: ['__proto__', '/new.html'], changed: ['/b.html'], removed: ['/gone.html'] };
    expect(diffByKey(before, after)).toEqual(expected);
    expect(diffByKey(new Map(Object.entries(before)), new Map(Object.entries(after)))).toEqual(expected);
    // A key the prototype has but the list does not is not in it.
    expect(diffByKey({ toString: 'x' }, {})).toEqual({ added: [], changed: [], removed: ['toString'] });
  });

  it('counts a key whose value is undefined as there, as a Map has it', () => {
    const before = new Map<string, string | undefined>([['menu', undefined]]);
    const after = new Map<string, string | undefined>([['menu', undefined]]);
    expect(diffByKey(before, after)).toEqual({ added: [], changed: [], removed: [] });
  });
});
