import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { NavGroup } from '../../src/api/types.ts';
import { hasOwnContent, INFO_PAGES } from '../../src/lib/info-pages.ts';
import { slugWords, topicPages } from '../../src/lib/topic-pages.ts';

type SeedGroup = { title: { uz: string }; items: { title: { uz: string }; page: string; isPage: boolean }[] };

/** The sample API's menu in Uzbek Latin, as the pull turns it into groups. */
const seedMenus: NavGroup[] = (JSON.parse(readFileSync('scripts/sample-api/seed/menu.json', 'utf8')) as SeedGroup[]).map((group) => ({
  title: group.title.uz,
  isTop: false,
  items: group.items.map((item) => ({
    title: item.title.uz,
    target: item.isPage ? { kind: 'page', pageId: Number(item.page) } : { kind: 'route', path: item.page },
  })),
}));
const slugsWithoutContent = INFO_PAGES.filter((page) => !hasOwnContent(page)).map((page) => page.path);
const titleOf = (pageId: number) => seedMenus.flatMap((g) => g.items).find((i) => i.target.kind === 'page' && i.target.pageId === pageId)!.title;

describe('topic slugs that the menu answers with a content page', () => {
  it('spells titles as slugs are spelt: oʻ is u, gʻ is g, apostrophes go', () => {
    expect(slugWords('Tuman hokimligi faoliyati toʻgʻrisidagi axborotlar roʻyxati')).toEqual(['tuman', 'hokimligi', 'faoliyati', 'tugrisidagi', 'axborotlar', 'ruyxati']);
    expect(slugWords("/ochiq_hay'at_majlislari_utkazish_rejalari")).toEqual(['ochiq', 'hayat', 'majlislari', 'utkazish', 'rejalari']);
  });

  it('finds the content page of each of the eleven topics the sample menu lists twice', () => {
    const found = topicPages(slugsWithoutContent, seedMenus);
    expect(Object.fromEntries([...found].map(([slug, id]) => [slug, titleOf(id)]))).toEqual({
      '/viloyat_hokimligi_faoliyati_tugrisidagi_axborot_ruyxati': 'Tuman hokimligi faoliyati toʻgʻrisidagi axborotlar roʻyxati',
      '/muxbirlarni_akkreditatsiya_qilish': 'Muxbirlarni akkreditatsiya qilish',
      '/viloyat_hokimligidagi_axborot_ruyxati': 'Tuman hokimligidagi axborotlar roʻyxati',
      "/viloyat_hokimligidagi_ochiq_hay'at_majlislari": 'Ochiq hayʼat majlislari',
      "/ochiq_hay'at_majlislari_utkazish_rejalari": 'Ochiq hayʼat majlislarini oʻtkazish rejalari',
      "/hokimlikning_faoliyati_tug'risidagi_axborotni_olish_surovnomasi": 'Axborot olish uchun soʻrovnoma',
      '/veb-saytga_joylashtirilgan_axborotlar_ruyxati': 'Veb-saytga joylashtirilgan axborotlar roʻyxati',
      '/xalq_deputatlari_viloyat_kengashi_azolari': 'Xalq deputatlari tuman Kengashi aʼzolari',
      '/xalq_deputatlari_viloyat_kengashi_doimiy_komissiyalari': 'Tuman Kengashining doimiy komissiyalari',
      '/bush_ish_urinlari': 'Tumandagi boʻsh ish oʻrinlari',
      '/hokimlikdagi_bush_ish_urinlari': 'Hokimlikdagi boʻsh ish oʻrinlari',
    });
  });

  it('does not depend on where the menu puts the pages', () => {
    const reversed = seedMenus.map((group) => ({ ...group, items: [...group.items].reverse() })).reverse();
    expect(topicPages(slugsWithoutContent, reversed)).toEqual(topicPages(slugsWithoutContent, seedMenus));
  });

  it('leaves a slug its own page when no content page is about the same thing, and gives each page one slug', () => {
    const menus: NavGroup[] = [
      {
        title: 'Hujjatlar',
        isTop: false,
        items: [
          { title: 'Tuman hokimligi', target: { kind: 'page', pageId: 1 } },
          { title: 'Boʻsh ish oʻrinlari', target: { kind: 'page', pageId: 2 } },
          { title: 'Muxbirlarni akkreditatsiya qilish', target: { kind: 'route', path: '/muxbirlarni_akkreditatsiya_qilish' } },
        ],
      },
    ];
    const found = topicPages(['/aholi_bandligi', '/muxbirlarni_akkreditatsiya_qilish', '/bush_ish_urinlari', '/hokimlikdagi_bush_ish_urinlari'], menus);
    // One word in common ("tuman") is not a topic; a route item is not a content page; the closer slug takes page 2.
    expect([...found]).toEqual([['/bush_ish_urinlari', 2]]);
  });
});
