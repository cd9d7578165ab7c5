/**
 * The site's routes. The menu data (docs/rules.md, Menu slugs) names pages by
 * Uzbek slugs (`/yangiliklar`) while the site's canonical routes are the
 * English-style ones of the route table (`/news`). This table maps every slug
 * to its canonical route; a slug that maps to itself has a page of its own.
 */
import type { NavTarget } from './api/types.ts';
import { LANGUAGES, localizePath, type Language } from './i18n/languages.ts';
import { contentPagePath } from './lib/paths.ts';

export const SLUG_ROUTES: Readonly<Record<string, string>> = {
  // Activity
  '/statistika_va_tahliliy_axborotlar': '/statistika_va_tahliliy_axborotlar',
  '/yangiliklar': '/news',
  '/elon_va_trenderlar': '/announcements-and-tenders',
  '/rasmiy_maruzalar': '/official-lectures',
  '/tadbirlar': '/tadbirlar',
  '/fotogalareya': '/gallery/photo',
  '/videogalareya': '/gallery/video',
  '/sayyor_qabullar': '/sayyor_qabullar',
  '/aholi_bandligi': '/aholi_bandligi',
  '/rasmiy_munosabat': '/formal-attitude',
  // Regional administration
  '/viloyat_hokimligi_rahbarlari': '/the-leadership-of-the-regional-administration',
  '/boshqaruv_apparati_tuzilmasi': '/boshqaruv_apparati_tuzilmasi',
  '/shahar_tuman_hokimlari': '/mayors-of-cities-and-districts',
  '/muvofiqlashtiruvchi_maslahat_organlari': '/muvofiqlashtiruvchi_maslahat_organlari',
  '/jamoatchilik_kengashi': '/jamoatchilik_kengashi',
  '/axborot_xizmati': '/information-service',
  '/maqom': '/maqom',
  '/manzil': '/address',
  // About the region
  '/tuman_haqida': '/information-about-the-province',
  '/ekologiya': '/ekologiya',
  '/hududiy_bulimlar': '/regionaldepartments',
  // Tourism
  '/sayyorlik_sayohati': '/sayyorlik_sayohati',
  '/ekoturizm': '/ekoturizm',
  '/madaniyat': '/madaniyat',
  '/milliy_taomlar': '/milliy_taomlar',
  '/tarixiy_shaxslar': '/tarixiy_shaxslar',
  '/sayyohlik_agentlari': '/travel-agencies',
  '/mehmonxonalar': '/hotels',
  // Deputies
  '/xalq_deputatlari_viloyat_kengashi_azolari': '/xalq_deputatlari_viloyat_kengashi_azolari',
  '/partiyalar_deputatlik_guruhlari': '/partiyalar_deputatlik_guruhlari',
  '/xalq_deputatlari_viloyat_kengashi_doimiy_komissiyalari': '/xalq_deputatlari_viloyat_kengashi_doimiy_komissiyalari',
  '/xalq_deputatlari_viloyat_kengashi_qarorlari': '/xalq_deputatlari_viloyat_kengashi_qarorlari',
  // Electronic services
  '/ishonch_va_yagona_telefon_raqamlari': '/ishonch_va_yagona_telefon_raqamlari',
  '/kup_beriladigan_savollarga_javoblar': '/answers-to-frequently-asked-questions',
  '/ijtimoiy_surovnoma': '/social-questionnaire',
  '/bush_ish_urinlari': '/bush_ish_urinlari',
  '/hokimlikdagi_bush_ish_urinlari': '/hokimlikdagi_bush_ish_urinlari',
  // Open data
  '/elektron_hukumat_tizimi': '/elektron_hukumat_tizimi',
  '/ochiq_malumotlar': '/ochiq_malumotlar',
  '/ochiq_byutjet_malumotlari': '/ochiq_byutjet_malumotlari',
  // Documents
  '/Uzbekiston_Respublikasi': '/Uzbekiston_Respublikasi',
  '/tuman_hokimligi': '/tuman_hokimligi',
  '/hududiy_hokimlik_nizomi': '/hududiy_hokimlik_nizomi',
  '/viloyat_hokimligi_faoliyati_tugrisidagi_axborot_ruyxati': '/viloyat_hokimligi_faoliyati_tugrisidagi_axborot_ruyxati',
  '/muxbirlarni_akkreditatsiya_qilish': '/muxbirlarni_akkreditatsiya_qilish',
  '/viloyat_hokimligidagi_axborot_ruyxati': '/viloyat_hokimligidagi_axborot_ruyxati',
  "/viloyat_hokimligidagi_ochiq_hay'at_majlislari": "/viloyat_hokimligidagi_ochiq_hay'at_majlislari",
  "/ochiq_hay'at_majlislari_utkazish_rejalari": "/ochiq_hay'at_majlislari_utkazish_rejalari",
  "/hokimlikning_faoliyati_tug'risidagi_axborotni_olish_surovnomasi": "/hokimlikning_faoliyati_tug'risidagi_axborotni_olish_surovnomasi",
  '/veb-saytga_joylashtirilgan_axborotlar_ruyxati': '/veb-saytga_joylashtirilgan_axborotlar_ruyxati',
  // Anti-corruption
  '/korupsiyaga_qarshi_kurashish': '/korupsiyaga_qarshi_kurashish',
};

/** The canonical route of a menu path: slugs map through the table; anything else is taken as it is. */
export function canonicalRoute(path: string): string {
  const clean = path.length > 1 ? path.replace(/\/+$/, '') : path;
  return SLUG_ROUTES[clean] ?? clean;
}

/** Where a menu item leads, in the page's language (docs/rules.md, Menu items: page/{page}, external link, or internal route). */
export function navHref(target: NavTarget, lang: Language): string {
  switch (target.kind) {
    case 'page':
      return localizePath(lang, contentPagePath(target.pageId));
    case 'external':
      return target.url;
    case 'route':
      return localizePath(lang, canonicalRoute(target.path));
  }
}

/** True when the menu item leads to the page at `path` (language-neutral), for highlighting the current item. */
export function navTargetIs(target: NavTarget, path: string): boolean {
  if (target.kind === 'external') return false;
  const here = path.length > 1 ? path.replace(/\/+$/, '') : path;
  if (target.kind === 'page') return here === contentPagePath(target.pageId);
  const route = canonicalRoute(target.path);
  return here === route || here.startsWith(`${route}/`);
}

/** The slugs that have a canonical route elsewhere (`/yangiliklar` → `/news`): each has a redirect page. */
export const MOVED_SLUGS: readonly (readonly [slug: string, route: string])[] = Object.entries(SLUG_ROUTES).filter(([slug, route]) => slug !== route);

/**
 * Every redirect page, localised path → localised target, in every language. The pages themselves are
 * written by `src/pages/[...lang]/[slug].astro`; this list keeps them out of the sitemap.
 */
export function slugRedirects(): Record<string, string> {
  return Object.fromEntries(LANGUAGES.flatMap((lang) => MOVED_SLUGS.map(([slug, route]) => [localizePath(lang, slug), localizePath(lang, route)])));
}
