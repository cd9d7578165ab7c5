/**
 * The wire format of the administration's API (docs/rules.md, The API's calls) and its mapping to
 * the domain types. This is the only file that knows the API's field names,
 * including the misspelt `berifDescription`, `fio`, `ispage` and the swapped
 * appeal fields.
 */
import * as v from 'valibot';
import type { Appeal, ContentPage, Employee, NavGroup, NavTarget, PhotoGroup, Post, PostSummary, SearchResult, Survey, Video } from './types.ts';

const id = v.pipe(v.number(), v.integer(), v.minValue(0));
const text = v.string();
/** Optional text: a missing or wrong-typed value reads as empty rather than failing the item. */
const softText = v.fallback(v.nullish(v.string(), ''), '');
const count = v.fallback(v.nullish(v.pipe(v.number(), v.integer(), v.minValue(0)), null), null);
const isoDate = v.fallback(
  v.nullish(
    v.pipe(
      v.string(),
      v.check((s) => !Number.isNaN(Date.parse(s))),
    ),
    null,
  ),
  null,
);
const relativeUrl = v.fallback(v.nullish(v.pipe(v.string(), v.nonEmpty()), null), null);

export const postSchema = v.object({
  id,
  title: text,
  berifDescription: softText,
  description: softText,
  imageUrl: relativeUrl,
  date: isoDate,
  countViews: count,
});

export const postListEnvelope = v.object({
  success: v.optional(v.boolean()),
  data: v.object({
    list: v.array(v.unknown()),
    maxPageNumber: v.pipe(v.number(), v.integer(), v.minValue(0)),
    currentPageNumber: v.pipe(v.number(), v.integer(), v.minValue(1)),
  }),
});

export const pageSchema = v.object({ text: v.string(), countViews: count });

export const surveySchema = v.object({
  id,
  title: text,
  berifDescription: softText,
  author: softText,
  likeCount: v.fallback(v.pipe(v.number(), v.integer(), v.minValue(0)), 0),
  disLikeCount: v.fallback(v.pipe(v.number(), v.integer(), v.minValue(0)), 0),
});

export const searchResultSchema = v.object({ id, title: text, ispage: v.boolean() });
export const searchErrorSchema = v.object({ errorMsg: v.string() });

const navItemSchema = v.object({
  title: text,
  page: v.union([v.string(), v.number()]),
  isPage: v.boolean(),
});
export const navGroupSchema = v.object({
  title: text,
  isTop: v.fallback(v.boolean(), false),
  items: v.array(v.unknown()),
});

export const employeeSchema = v.object({
  id,
  fio: text,
  position: softText,
  briefly: softText,
  imageUrl: relativeUrl,
  biography: softText,
  obligation: softText,
});

export const photoGroupSchema = v.object({
  id,
  title: text,
  photoDate: isoDate,
  photosCount: count,
  photos: v.array(v.unknown()),
});
const photoSchema = v.object({ imageUrl: v.pipe(v.string(), v.nonEmpty()) });

/**
 * A link rendered as it is: valibot's url() also passes javascript:, data: and vbscript:, so only
 * http(s) links pass here; another is a malformed item (skipped with a warning).
 */
const webUrl = v.pipe(
  v.string(),
  v.url(),
  v.check((s) => /^https?:$/.test(new URL(s).protocol), 'only http: and https: links'),
);

export const videoSchema = v.object({ id, title: text, urlVideo: webUrl });

export const applyAnswerSchema = v.union([v.object({ errorMsg: v.string() }), v.object({ data: v.object({ msg: v.string() }) })]);

// ---- mapping: wire → domain ----------------------------------------------

export function toPostSummary(w: v.InferOutput<typeof postSchema>): PostSummary {
  return {
    id: w.id,
    title: w.title,
    brief: w.berifDescription,
    imageUrl: w.imageUrl,
    date: w.date,
    views: w.countViews,
  };
}

export function toPost(w: v.InferOutput<typeof postSchema>): Post {
  return { ...toPostSummary(w), html: w.description };
}

export function toContentPage(pageId: number, w: v.InferOutput<typeof pageSchema>): ContentPage {
  return { id: pageId, html: w.text, views: w.countViews };
}

export function toSurvey(w: v.InferOutput<typeof surveySchema>): Survey {
  return {
    id: w.id,
    title: w.title,
    brief: w.berifDescription,
    author: w.author,
    likes: w.likeCount,
    dislikes: w.disLikeCount,
  };
}

export function toSearchResult(w: v.InferOutput<typeof searchResultSchema>): SearchResult {
  return { id: w.id, title: w.title, isPage: w.ispage };
}

/** A menu item's kind: isPage → page/{page}; a target starting with http → external; anything else → internal route. */
export function toNavTarget(page: string | number, isPage: boolean): NavTarget | null {
  const raw = String(page).trim();
  if (isPage) {
    const pageId = Number(raw);
    return Number.isInteger(pageId) && pageId >= 0 ? { kind: 'page', pageId } : null;
  }
  if (/^https?:\/\//i.test(raw)) return { kind: 'external', url: raw };
  // A path of this site: `//host` and `/\host` are other hosts to a browser, which a site-styled menu link must never lead to.
  if (/^\/(?![/\\])[^\\\s]*$/.test(raw)) return { kind: 'route', path: raw };
  return null;
}

/** Maps a menu group, dropping items that are malformed; the problem of each is reported. */
export function toNavGroup(w: v.InferOutput<typeof navGroupSchema>, onBadItem: (item: unknown, problem: string) => void): NavGroup {
  const items: NavGroup['items'] = [];
  for (const raw of w.items) {
    const parsed = v.safeParse(navItemSchema, raw);
    if (!parsed.success) {
      onBadItem(raw, describeIssues(parsed.issues));
      continue;
    }
    const target = toNavTarget(parsed.output.page, parsed.output.isPage);
    if (!target) {
      onBadItem(raw, `unusable target ${JSON.stringify(parsed.output.page)}`);
      continue;
    }
    items.push({ title: parsed.output.title, target });
  }
  return { title: w.title, isTop: w.isTop, items };
}

export function toEmployee(w: v.InferOutput<typeof employeeSchema>): Employee {
  return {
    id: w.id,
    name: w.fio,
    position: w.position,
    brief: w.briefly,
    imageUrl: w.imageUrl,
    biographyHtml: w.biography,
    dutiesHtml: w.obligation,
  };
}

export function toPhotoGroup(w: v.InferOutput<typeof photoGroupSchema>): PhotoGroup {
  const photos = w.photos.flatMap((p) => {
    const parsed = v.safeParse(photoSchema, p);
    return parsed.success ? [{ imageUrl: parsed.output.imageUrl }] : [];
  });
  return {
    id: w.id,
    title: w.title,
    date: w.photoDate,
    photoCount: w.photosCount ?? photos.length,
    photos,
  };
}

export function toVideo(w: v.InferOutput<typeof videoSchema>): Video {
  return { id: w.id, title: w.title, url: w.urlVideo };
}

/**
 * The appeal form body. The API's labels are swapped (docs/rules.md, Appeal form): `Description`
 * carries the subject line and `Title` carries the message text. The idempotency key travels as
 * one more form field, `IdempotencyKey`: a custom header would make the browser send a CORS
 * preflight first, and an API that does not know the field ignores it.
 */
export function toApplyForm(appeal: Appeal): URLSearchParams {
  const form = new URLSearchParams({
    FIO: appeal.fullName,
    Tel: appeal.phone,
    Email: appeal.email,
    Title: appeal.message,
    Description: appeal.subject,
    'h-captcha-response': appeal.captchaToken,
  });
  if (appeal.idempotencyKey) form.set('IdempotencyKey', appeal.idempotencyKey);
  return form;
}

export function describeIssues(issues: readonly v.BaseIssue<unknown>[]): string {
  return issues
    .slice(0, 3)
    .map((i) => {
      const path = i.path?.map((p) => String(p.key)).join('.') ?? '';
      return path ? `${path}: ${i.message}` : i.message;
    })
    .join('; ');
}
