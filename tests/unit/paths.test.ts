/** src/lib/paths.ts: where posts, list pages, content pages and photo groups live, and the ids links point at. */
import { describe, expect, it } from 'vitest';
import { contentPagePath, historicalPersonId, listPagePath, photoGroupId, photoGroupPath, POST_HOMES, postPath, visitingReceptionId } from '../../src/lib/paths.ts';
import { SECTIONS } from '../../src/lib/sections.ts';

describe('site paths', () => {
  it("puts a post under its section, a list's first page at its own address and numbered pages under page/N", () => {
    expect(postPath(SECTIONS.news, 5)).toBe('/news/5');
    expect(postPath(SECTIONS.announcements, 7)).toBe('/announcements-and-tenders/7');
    expect(listPagePath(SECTIONS.lectures, 'newest')).toBe('/official-lectures');
    expect(listPagePath(SECTIONS.lectures, 1)).toBe('/official-lectures/page/1');
    expect(listPagePath(SECTIONS.lectures, 3)).toBe('/official-lectures/page/3');
    expect(contentPagePath(4)).toBe('/page/4');
  });

  it('links to the very ids that the gallery and the card lists give their items', () => {
    expect(photoGroupPath(3)).toBe(`/gallery/photo#${photoGroupId(3)}`);
    expect(POST_HOMES.visitingReceptions(8)).toBe(`/sayyor_qabullar#${visitingReceptionId(8)}`);
    expect(POST_HOMES.historicalPersons(9)).toBe(`/tarixiy_shaxslar#${historicalPersonId(9)}`);
    expect(POST_HOMES.lectures(2)).toBe(postPath(SECTIONS.lectures, 2));
  });
});
