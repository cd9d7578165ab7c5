/**
 * The home page's six service tiles and twelve useful links (docs/rules.md, Home page).
 * A tile with no target is shown, but not as a link.
 */
import { APPEAL_PATH } from '../constants.ts';
import type { LangCode } from '../i18n/languages.ts';
import type { MessageKey } from '../i18n/t.ts';
import type { IconName } from './icons.ts';

/** An external address, or one per language where the other site has a version in the visitor's language. */
export type ExternalUrl = string | Readonly<Record<LangCode, string>>;

export type ServiceTarget = { kind: 'external'; url: ExternalUrl } | { kind: 'internal'; path: string } | { kind: 'none' };

/**
 * The national tourism portal in the page's language: it has Uzbek, Russian and English versions, and
 * Uzbek in Cyrillic reads its Uzbek one.
 */
const TOURISM_PORTAL: Readonly<Record<LangCode, string>> = {
  'uz-latn': 'https://uzbekistan.travel/uz/',
  'uz-cyrl': 'https://uzbekistan.travel/uz/',
  ru: 'https://uzbekistan.travel/ru/',
  en: 'https://uzbekistan.travel/en/',
};

/** The address an external link opens for a reader of `lang`. */
export function externalUrl(url: ExternalUrl, lang: LangCode): string {
  return typeof url === 'string' ? url : url[lang];
}

export const SERVICES: readonly { labelKey: MessageKey; icon: IconName; target: ServiceTarget }[] = [
  { labelKey: 'service.appeals', icon: 'letter', target: { kind: 'external', url: 'https://pm.gov.uz' } },
  { labelKey: 'service.suggestions', icon: 'pencil', target: { kind: 'internal', path: APPEAL_PATH } },
  { labelKey: 'service.resorts', icon: 'hotel', target: { kind: 'external', url: 'https://uzbekistan.travel' } },
  { labelKey: 'service.development', icon: 'growth', target: { kind: 'none' } },
  { labelKey: 'service.transport', icon: 'bus', target: { kind: 'none' } },
  { labelKey: 'service.tourism', icon: 'mountain', target: { kind: 'external', url: TOURISM_PORTAL } },
];

export const USEFUL_LINKS: readonly { labelKey: MessageKey; url: string }[] = [
  { labelKey: 'link.presidentReception', url: 'https://pm.gov.uz' },
  { labelKey: 'link.president', url: 'https://president.uz' },
  { labelKey: 'link.government', url: 'https://gov.uz' },
  { labelKey: 'link.regulation', url: 'https://regulation.gov.uz' },
  { labelKey: 'link.decisions', url: 'https://e-qaror.gov.uz' },
  { labelKey: 'link.openData', url: 'https://data.gov.uz' },
  { labelKey: 'link.appeals', url: 'https://murojaat.gov.uz' },
  { labelKey: 'link.openBudget', url: 'https://openbudget.uz' },
  { labelKey: 'link.publicServices', url: 'https://my.gov.uz' },
  { labelKey: 'link.procurement', url: 'https://xarid.uzex.uz' },
  { labelKey: 'link.itAcademy', url: 'https://uzbekcoders.uz' },
  { labelKey: 'link.licensing', url: 'https://license.gov.uz' },
];

/** The national portals where a citizen can also send an appeal, named on the appeal page: from the useful links. */
export const APPEAL_PORTALS = USEFUL_LINKS.filter((link) => link.labelKey === 'link.presidentReception' || link.labelKey === 'link.appeals');
