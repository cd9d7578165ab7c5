/**
 * The information and directory routes (docs/rules.md, Information pages) that are not post lists: each
 * path, its title (used when the menu has no item that names it) and what it
 * shows. One route file renders them all by kind.
 */
import { EMPLOYEE_CATEGORIES, type EmployeeCategory } from '../api/types.ts';
import type { MessageKey } from '../i18n/t.ts';

export type InfoContent =
  | { kind: 'placeholder'; noteKey?: MessageKey }
  | { kind: 'title-only' }
  | { kind: 'province' }
  | { kind: 'ecology' }
  | { kind: 'departments' }
  | { kind: 'documents'; documents: readonly MessageKey[] }
  | { kind: 'trust-phone' }
  | { kind: 'questionnaire' }
  | { kind: 'faq' }
  | { kind: 'anti-corruption' }
  | { kind: 'party-groups' }
  | { kind: 'tourism' }
  | { kind: 'dishes' }
  | { kind: 'travel-agencies' }
  | { kind: 'hotels' }
  | { kind: 'staff-structure' }
  | { kind: 'address' }
  | { kind: 'formal-attitude' }
  | { kind: 'directory'; category: EmployeeCategory };

export type InfoPage = { path: string; titleKey: MessageKey } & InfoContent;

const LAWS = ['docs.law', 'docs.decree', 'docs.resolution'] as const;
const OWN = ['docs.regulation', 'docs.plan', 'docs.report'] as const;

/** Pages with no content of their own: when the menu offers a content page for the topic, the slug leads there. */
export const hasOwnContent = (page: InfoPage) => page.kind !== 'placeholder' && page.kind !== 'title-only';

export const INFO_PAGES: readonly InfoPage[] = [
  { path: '/aholi_bandligi', titleKey: 'info.employment', kind: 'placeholder' },
  { path: '/information-about-the-province', titleKey: 'info.province', kind: 'province' },
  { path: '/ekologiya', titleKey: 'info.ecology', kind: 'ecology' },
  { path: '/regionaldepartments', titleKey: 'info.departments', kind: 'departments' },
  { path: '/statistika_va_tahliliy_axborotlar', titleKey: 'info.statistics', kind: 'documents', documents: ['docs.report', 'docs.plan'] },
  { path: '/muvofiqlashtiruvchi_maslahat_organlari', titleKey: 'info.coordinatingBodies', kind: 'documents', documents: OWN },
  { path: '/maqom', titleKey: 'info.status', kind: 'documents', documents: ['docs.regulation', 'docs.law'] },
  { path: '/Uzbekiston_Respublikasi', titleKey: 'info.legislation', kind: 'documents', documents: LAWS },
  { path: '/tuman_hokimligi', titleKey: 'info.districtDocuments', kind: 'documents', documents: OWN },
  { path: '/elektron_hukumat_tizimi', titleKey: 'info.egov', kind: 'documents', documents: ['docs.decree', 'docs.resolution'] },
  { path: '/hududiy_hokimlik_nizomi', titleKey: 'info.regulations', kind: 'documents', documents: ['docs.regulation'] },
  // The open data section rests on decree PF-6247: the page cites it.
  { path: '/ochiq_malumotlar', titleKey: 'info.openData', kind: 'placeholder', noteKey: 'openData.basis' },
  { path: '/ochiq_byutjet_malumotlari', titleKey: 'info.openBudget', kind: 'title-only' },
  { path: '/ishonch_va_yagona_telefon_raqamlari', titleKey: 'info.trustPhone', kind: 'trust-phone' },
  { path: '/social-questionnaire', titleKey: 'info.questionnaire', kind: 'questionnaire' },
  { path: '/answers-to-frequently-asked-questions', titleKey: 'info.faq', kind: 'faq' },
  { path: '/korupsiyaga_qarshi_kurashish', titleKey: 'info.antiCorruption', kind: 'anti-corruption' },
  { path: '/xalq_deputatlari_viloyat_kengashi_qarorlari', titleKey: 'info.councilDecisions', kind: 'title-only' },
  { path: '/partiyalar_deputatlik_guruhlari', titleKey: 'info.partyGroups', kind: 'party-groups' },
  { path: '/ekoturizm', titleKey: 'info.ecotourism', kind: 'tourism' },
  { path: '/sayyorlik_sayohati', titleKey: 'info.touristTrips', kind: 'tourism' },
  { path: '/madaniyat', titleKey: 'info.culture', kind: 'placeholder', noteKey: 'culture.note' },
  { path: '/milliy_taomlar', titleKey: 'info.dishes', kind: 'dishes' },
  { path: '/travel-agencies', titleKey: 'info.travelAgencies', kind: 'travel-agencies' },
  { path: '/hotels', titleKey: 'info.hotels', kind: 'hotels' },
  { path: '/boshqaruv_apparati_tuzilmasi', titleKey: 'info.staffStructure', kind: 'staff-structure' },
  { path: '/address', titleKey: 'info.address', kind: 'address' },
  { path: '/tadbirlar', titleKey: 'info.events', kind: 'title-only' },
  { path: '/formal-attitude', titleKey: 'formalAttitude.title', kind: 'formal-attitude' },
  { path: '/mayors-of-cities-and-districts', titleKey: 'mayors.title', kind: 'directory', category: EMPLOYEE_CATEGORIES.mayors },
  { path: '/the-leadership-of-the-regional-administration', titleKey: 'leadership.title', kind: 'directory', category: EMPLOYEE_CATEGORIES.leadership },
  { path: '/information-service', titleKey: 'infoService.title', kind: 'directory', category: EMPLOYEE_CATEGORIES.informationService },
  // The API has no employee category for the public council: its members are not the leadership, so until the
  // menu offers a content page for it (src/lib/topic-pages.ts), the page says they will be published here.
  { path: '/jamoatchilik_kengashi', titleKey: 'publicCouncil.title', kind: 'placeholder', noteKey: 'publicCouncil.note' },
  // Slugs that the menu data lists as content pages: when a menu names them as routes, they have a page too.
  { path: '/viloyat_hokimligi_faoliyati_tugrisidagi_axborot_ruyxati', titleKey: 'info.activityInfo', kind: 'placeholder' },
  { path: '/muxbirlarni_akkreditatsiya_qilish', titleKey: 'info.accreditation', kind: 'placeholder' },
  { path: '/viloyat_hokimligidagi_axborot_ruyxati', titleKey: 'info.heldInfo', kind: 'placeholder' },
  { path: "/viloyat_hokimligidagi_ochiq_hay'at_majlislari", titleKey: 'info.openSessions', kind: 'placeholder' },
  { path: "/ochiq_hay'at_majlislari_utkazish_rejalari", titleKey: 'info.sessionPlans', kind: 'placeholder' },
  { path: "/hokimlikning_faoliyati_tug'risidagi_axborotni_olish_surovnomasi", titleKey: 'info.informationRequest', kind: 'placeholder' },
  { path: '/veb-saytga_joylashtirilgan_axborotlar_ruyxati', titleKey: 'info.publishedInfo', kind: 'placeholder' },
  { path: '/xalq_deputatlari_viloyat_kengashi_azolari', titleKey: 'info.councilMembers', kind: 'placeholder' },
  { path: '/xalq_deputatlari_viloyat_kengashi_doimiy_komissiyalari', titleKey: 'info.councilCommissions', kind: 'placeholder' },
  { path: '/bush_ish_urinlari', titleKey: 'info.vacancies', kind: 'placeholder' },
  { path: '/hokimlikdagi_bush_ish_urinlari', titleKey: 'info.adminVacancies', kind: 'placeholder' },
];

/** The kinds that several pages share: a page of one of them is told apart by its path, or a directory by its category. */
type SharedKind = 'placeholder' | 'title-only' | 'documents' | 'tourism' | 'directory';

/**
 * The path of the one page of a kind (`'faq'`), or of the employee directory of a category. A link finds its page
 * by what the page shows, not by its title key, which is wording and may be renamed or reused; when a kind stops
 * being one page's, this throws, so the build fails instead of linking to the wrong page.
 */
export function infoPagePath(kind: Exclude<InfoPage['kind'], SharedKind>): string;
export function infoPagePath(kind: 'directory', category: EmployeeCategory): string;
export function infoPagePath(kind: InfoPage['kind'], category?: EmployeeCategory): string {
  const found = INFO_PAGES.filter((page) => page.kind === kind && (page.kind !== 'directory' || page.category === category));
  if (found.length !== 1) throw new Error(`${found.length} information pages of kind ${kind}${category === undefined ? '' : ` and category ${category}`}, not one`);
  return found[0]!.path;
}
