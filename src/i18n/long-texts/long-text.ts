import type { LangCode } from '../languages.ts';

/**
 * A page of running text, written per language: a lead paragraph and sections, each a heading with
 * paragraphs and an optional bulleted list. Placeholders in braces are filled from the district's
 * folder: {siteName} {helpline} {email} {address}.
 */
export interface LongText {
  title: string;
  lead: string;
  sections: { heading: string; paragraphs: string[]; list?: string[] }[];
}

export type LongTexts = Record<LangCode, LongText>;
