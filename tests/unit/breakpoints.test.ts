import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { STICKY } from '../../src/constants.ts';

const scss = readFileSync(new URL('../../src/styles/_breakpoints.scss', import.meta.url), 'utf8');
const rem = (name: string) => Number(new RegExp(`^\\$${name}:\\s*([\\d.]+)rem;`, 'm').exec(scss)?.[1]);

describe('breakpoints', () => {
  it('the sticky header changes its offset where the CSS shows the full menu bar', () => {
    expect(rem('desktop')).toBeGreaterThan(0);
    expect(STICKY.breakpointPx).toBe(rem('desktop') * 16 - 1);
  });

  it('the sticky header stops sticking where the CSS compacts the cookie bar for a short screen', () => {
    expect(rem('short')).toBeGreaterThan(0);
    expect(STICKY.shortScreenPx).toBe(rem('short') * 16);
  });

  it('no stylesheet writes a width breakpoint of its own', async () => {
    const { globSync } = await import('node:fs');
    const files = globSync('src/**/*.{astro,scss,css}').filter((f) => !f.endsWith('_breakpoints.scss'));
    const own = files.flatMap((f) => [...readFileSync(f, 'utf8').matchAll(/@media[^{]*\((?:min|max)-width:\s*[\d.]+(?:rem|px|em)\)/g)].map((m) => `${f}: ${m[0]}`));
    expect(own).toEqual([]);
  });
});
