/** `npm run rebuild -- --changed post:123,page:5`: an operator names what changed, as the webhook does. */
import { describe, expect, it } from 'vitest';
import { changesArgs, changesFromArgs } from '../../src/content/changes.ts';

describe('rebuild --changed', () => {
  it('pulls everything unless told what changed', () => {
    expect(changesFromArgs([])).toBe('all');
    expect(changesFromArgs(['--wait'])).toBe('all');
  });

  it('reads type:id pairs, and a type alone for every item of it', () => {
    expect(changesFromArgs(['--changed', 'post:123,page:5'])).toEqual([{ type: 'post', id: 123 }, { type: 'page', id: 5 }]);
    expect(changesFromArgs(['--wait', '--changed', 'post'])).toEqual([{ type: 'post' }]);
  });

  it('refuses what is not a pair, saying what it takes', () => {
    expect(() => changesFromArgs(['--changed', 'post:abc'])).toThrow(/type:id pairs such as post:123/);
    expect(() => changesFromArgs(['--changed', 'video:3'])).toThrow(/"type" must be one of/);
  });

  it('says the same changes on the command line of the pull the rebuild starts', () => {
    for (const changes of ['all', [], [{ type: 'post', id: 123 }, { type: 'menu' }]] as const) {
      expect(changesFromArgs(changesArgs(changes === 'all' ? changes : [...changes]))).toEqual(changes);
    }
  });
});
