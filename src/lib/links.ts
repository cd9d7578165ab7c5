/**
 * The home page's service tiles and useful links (§2 "Home page" 3 and 7).
 * A tile with no target is shown, but not as a link.
 */
import type { MessageKey } from '../i18n/t.ts';
import type { IconName } from './icons.ts';

export type ServiceTarget = { kind: 'external'; url: string } | { kind: 'internal'; path: string } | { kind: 'none' };

export const SERVICES: readonly { labelKey: MessageKey; icon: IconName; target: ServiceTarget }[] = [
  { labelKey: 'service.appeals', icon: 'letter', target: { kind: 'external', url: 'https://pm.gov.uz' } },
  { labelKey: 'service.suggestions', icon: 'pencil', target: { kind: 'internal', path: '/murojaat_yuborish' } },
  { labelKey: 'service.resorts', icon: 'hotel', target: { kind: 'external', url: 'https://uzbekistan.travel' } },
  { labelKey: 'service.development', icon: 'growth', target: { kind: 'none' } },
  { labelKey: 'service.transport', icon: 'bus', target: { kind: 'none' } },
  { labelKey: 'service.tourism', icon: 'mountain', target: { kind: 'external', url: 'https://uzbekistan.travel/en/' } },
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
