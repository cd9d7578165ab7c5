/** Shared fragments: rendered once, spliced into every page that carries their marker. */
import { describe, expect, it } from 'vitest';
import { extractFragment, FRAGMENT_END, FRAGMENT_START, fragmentMarker, fragmentName, fragmentNameOfPath, spliceFragments } from '../../src/lib/fragments.ts';
import { LANGUAGES } from '../../src/i18n/languages.ts';
import { sanitize } from '../../src/lib/sanitize.ts';

describe('shared fragments', () => {
  it('names a fragment page by its language, the default language unprefixed', () => {
    expect(fragmentNameOfPath('/fragment/latest/news/index.html')).toBe(fragmentName('latest-news', LANGUAGES[0]));
    expect(fragmentNameOfPath('/ru/fragment/latest/official-lectures/index.html')).toBe('latest-official-lectures@ru');
    expect(() => fragmentNameOfPath('/xx/fragment/latest/news/index.html')).toThrow(/not a fragment/);
  });

  it('takes the fragment from between its bounds, leaving the page frame out', () => {
    const page = `<!doctype html><html><head><link rel="stylesheet" href="/_astro/a.css"></head><body>${FRAGMENT_START}<section>Soʻnggi</section>${FRAGMENT_END}</body></html>`;
    expect(extractFragment(page)).toBe('<section>Soʻnggi</section>');
    expect(extractFragment('<p>no bounds</p>')).toBeNull();
  });

  it('replaces every marker with its fragment and refuses a marker nobody rendered', () => {
    const fragments = new Map([['latest-news@ru', '<ul><li>Новость</li></ul>']]);
    const page = `<main>${fragmentMarker('latest-news@ru')}</main>`;
    expect(spliceFragments(page, fragments)).toBe('<main><ul><li>Новость</li></ul></main>');
    expect(spliceFragments('<main>plain</main>', fragments)).toBe('<main>plain</main>');
    expect(() => spliceFragments(`<main>${fragmentMarker('latest-news@en')}</main>`, fragments)).toThrow(/did not render/);
  });

  it('cannot be asked for by API text: the sanitiser drops comments', () => {
    expect(sanitize(`<p>a</p>${fragmentMarker('latest-news@ru')}`, { mediaBase: 'https://media.example' })).not.toContain('fragment');
  });
});
