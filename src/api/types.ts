/**
 * Domain types: what the rest of the site sees of the administration's API.
 * Field names here are ours; the wire names (berifDescription, fio, ispage …)
 * stay inside src/api/wire.ts.
 */
import type { LangNumber } from '../i18n/languages.ts';

/** Post categories: the number is the wire's postTypeId (docs/rules.md, The API's calls). */
export const POST_TYPES = {
  news: 1,
  announcements: 2,
  lectures: 4,
  visitingReceptions: 6,
  historicalPersons: 7,
} as const;
export type PostTypeName = keyof typeof POST_TYPES;
export type PostTypeId = (typeof POST_TYPES)[PostTypeName];

/** Employee categories, the number of `api/employee/{n}`: 1 mayors, 2 regional leadership, 3 information service. */
export const EMPLOYEE_CATEGORIES = { mayors: 1, leadership: 2, informationService: 3 } as const;
export type EmployeeCategory = (typeof EMPLOYEE_CATEGORIES)[keyof typeof EMPLOYEE_CATEGORIES];

export interface PostSummary {
  id: number;
  title: string;
  brief: string;
  /** Relative to the media base, as the API gives it; null when the post has none. */
  imageUrl: string | null;
  /** ISO 8601; null when missing or unreadable (the page shows a placeholder). */
  date: string | null;
  views: number | null;
}

export interface Post extends PostSummary {
  /** Rich HTML as the API sends it: never shown without sanitising. */
  html: string;
}

export interface PostListPage {
  items: PostSummary[];
  page: number;
  pageCount: number;
}

export interface ContentPage {
  id: number;
  html: string;
  views: number | null;
}

export interface Survey {
  id: number;
  title: string;
  brief: string;
  author: string;
  likes: number;
  dislikes: number;
}

export interface SearchResult {
  id: number;
  title: string;
  isPage: boolean;
}

export type SearchOutcome = { kind: 'results'; results: SearchResult[] } | { kind: 'message'; message: string };

/** A menu item is one of three kinds: a content page, an external link or a route (docs/rules.md, Menu items). */
export type NavTarget = { kind: 'page'; pageId: number } | { kind: 'external'; url: string } | { kind: 'route'; path: string };

export interface NavItem {
  title: string;
  target: NavTarget;
}

export interface NavGroup {
  title: string;
  isTop: boolean;
  items: NavItem[];
}

export interface Employee {
  id: number;
  name: string;
  position: string;
  brief: string;
  imageUrl: string | null;
  biographyHtml: string;
  dutiesHtml: string;
}

export interface PhotoGroup {
  id: number;
  title: string;
  date: string | null;
  photoCount: number;
  photos: { imageUrl: string }[];
}

export interface Video {
  id: number;
  title: string;
  url: string;
}

export interface Appeal {
  fullName: string;
  phone: string;
  email: string;
  subject: string;
  message: string;
  captchaToken: string;
  /**
   * A random id kept with the draft, so that a resend after an answer that never arrived
   * is recognised by the API as the same appeal and not filed twice.
   */
  idempotencyKey?: string;
}

export type AppealOutcome =
  | { kind: 'sent'; message: string }
  | { kind: 'rejected'; message: string }
  /** The server's 400: some field is under the minimum length of 10 (a warning toast, docs/rules.md, Appeal form). */
  | { kind: 'too-short' };

/** A problem with one item that was skipped rather than failing the whole call. */
export interface ApiWarning {
  endpoint: string;
  lang: LangNumber;
  id: unknown;
  problem: string;
}
