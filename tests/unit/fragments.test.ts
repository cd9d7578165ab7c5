/** Shared fragments: rendered once, spliced into every page that carries their marker. */
import { describe, expect, it } from 'vitest';
import {
  extractFragment,
  FRAGMENT_END,
  FRAGMENT_START,
  fragmentMarker,
  fragmentName,
  fragmentNameOfPath,
  fragmentsIn,
  inFragmentFolder,
  spliceFragments,
} from '../../src/lib/fragments.ts';
import { LANGUAGES } from '../../src/i18n/languages.ts';
import { sanitize } from '../../src/lib/sanitize.ts';

describe('shared fragments', () => {
  it('tells the files and addresses of a fragment folder from the pages, whatever their language', () => {
    for (const path of ['/fragment/latest/news/index.html', '/ru/fragment/settled/news/index.html', '/ru/fragment', 'fragment/latest/news/index.html', '/chust/en/fragment/'])
      expect(inFragmentFolder(path), path).toBe(true);
    for (const path of ['/news/5/index.html', '/ru/fragments/index.html', '/page/fragment-of-history/index.html', '/ru/news/fragment.html', '/', 'afragment/x'])
      expect(inFragmentFolder(path), path).toBe(false);
  });

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
    const fragments = new Map([['latest-news@ru', Buffer.from('<ul><li>Новость</li></ul>')]]);
    const splice = (page: string) => spliceFragments(Buffer.from(page), fragments).toString();
    expect(splice(`<main>${fragmentMarker('latest-news@ru')}</main>`)).toBe('<main><ul><li>Новость</li></ul></main>');
    expect(splice(`<p>Oʻzbekiston</p>${fragmentMarker('latest-news@ru')}<p>Ўзбекистон</p>${fragmentMarker('latest-news@ru')}`)).toBe(
      '<p>Oʻzbekiston</p><ul><li>Новость</li></ul><p>Ўзбекистон</p><ul><li>Новость</li></ul>',
    );
    expect(splice('<main>plain</main>')).toBe('<main>plain</main>');
    expect(() => splice(`<main>${fragmentMarker('latest-news@en')}</main>`)).toThrow(/did not render/);
  });

  it('finds in the bytes exactly the markers the pattern <!--fragment:[\\w@.-]+--> finds in the text', () => {
    // Near misses and odd names: the byte scanner must agree with the pattern on each.
    const samples = [
      '<!--fragment:a-->',
      '<!--fragment:a--->',
      '<!--fragment:a-- >',
      '<!--fragment:-->',
      '<!--fragment:--->',
      '<!--fragment:x.y@uz-cyrl---->z',
      '<!--fragment:<!--fragment:b-->',
      '<!--fragment:ўз-->',
      'oʻ<!--fragment:latest-news@ru-->gʻ<!--fragment:c',
    ];
    const pattern = /<!--fragment:([\w@.-]+)-->/g;
    for (const sample of samples) {
      expect(fragmentsIn(Buffer.from(sample)), sample).toEqual([...sample.matchAll(pattern)].map((m) => m[1]));
      const names = new Map([...sample.matchAll(pattern)].map((m) => [m[1]!, Buffer.from(`[${m[1]}]`)]));
      expect(spliceFragments(Buffer.from(sample), names).toString(), sample).toBe(sample.replace(pattern, (_m, name: string) => `[${name}]`));
    }
  });

  it('cannot be asked for by API text: the sanitiser drops comments', () => {
    expect(sanitize(`<p>a</p>${fragmentMarker('latest-news@ru')}`, { mediaBase: 'https://media.example' })).not.toContain('fragment');
  });
});
