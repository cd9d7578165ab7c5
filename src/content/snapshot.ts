/** The shape of the build-time content snapshot that pages read (one per language). */
import type {
  ContentPage,
  Employee,
  EmployeeCategory,
  NavGroup,
  PhotoGroup,
  Post,
  PostTypeName,
  Survey,
  Video,
} from '../api/types.ts';
import type { LangCode, LangNumber } from '../i18n/languages.ts';

/** The file, inside CONTENT_DIR, that the pull writes and the pages read. */
export const SNAPSHOT_FILE = 'snapshot.json';

export interface LanguageContent {
  lang: LangNumber;
  menus: NavGroup[];
  /** Post ids of each category, page by page as the API paginates them. */
  lists: Record<PostTypeName, number[][]>;
  posts: Record<number, Post>;
  /** Content pages that the menu references. */
  pages: Record<number, ContentPage>;
  employees: Record<EmployeeCategory, Employee[]>;
  photoGroups: PhotoGroup[];
  videos: Video[];
  surveys: Survey[];
}

export interface Snapshot {
  pulledAt: string;
  apiBase: string;
  languages: Record<LangCode, LanguageContent>;
}
