/** `npm run rebuild -- --changed post:123,page:5`: an operator names what changed, as the webhook does. */
import { describe, expect, it } from 'vitest';
import { parseArgs } from 'node:util';
import { changesArgs, changesFromOption, CHANGED_OPTION } from '../../scripts/lib/changed-option.ts';

const changesOf = (args: string[]) => changesFromOption(parseArgs({ args, options: { ...CHANGED_OPTION, wait: { type: 'boolean' } } }).values.changed);

describe('rebuild --changed', () => {
  it('pulls everything unless told what changed', () => {
    expect(changesOf([])).toBe('all');
    expect(changesOf(['--wait'])).toBe('all');
  });

  it('reads type:id pairs, and a type alone for every item of it', () => {
    expect(changesOf(['--changed', 'post:123,page:5'])).toEqual([
      { type: 'post', id: 123 },
      { type: 'page', id: 5 },
    ]);
    expect(changesOf(['--wait', '--changed', 'post'])).toEqual([{ type: 'post' }]);
  });

  it('refuses what is not a pair, saying what it takes', () => {
    expect(() => changesOf(['--changed', 'post:abc'])).toThrow(/type:id pairs such as post:123/);
    expect(() => changesOf(['--changed', 'video:3'])).toThrow(/"type" must be one of/);
  });

  it('refuses an option it does not know, instead of pulling everything', () => {
    expect(() => changesOf(['--chnaged', 'post:1'])).toThrow(/Unknown option '--chnaged'/);
  });

  it('says the same changes on the command line of the pull the rebuild starts', () => {
    for (const changes of ['all', [], [{ type: 'post', id: 123 }, { type: 'menu' }]] as const) {
      expect(changesOf(changesArgs(changes === 'all' ? changes : [...changes]))).toEqual(changes);
    }
  });
});
