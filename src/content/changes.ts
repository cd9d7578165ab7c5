/**
 * What changed in the API's content, as the webhook's body, `rebuild
 * --changed` and the pull speak of it: a whole kind of content (`{type}`) or
 * one item of it (`{type, id}`), or everything (`'all'`).
 */
const CONTENT_TYPES = ['post', 'page', 'menu', 'employee', 'gallery', 'survey'] as const;
export type ContentType = (typeof CONTENT_TYPES)[number];

/** One changed thing; `id` missing means every item of that type. */
export interface ContentChange {
  type: ContentType;
  id?: number;
}

/**
 * The key of one item of a language's snapshot, as the pull's change list names it (`post:12@ru`,
 * `employee:leaders/3@en`, `menu@uz-latn`): a content type, or one of the snapshot's own parts
 * (`video`, and `lists`: the list pages' order), with the item's id where there is one.
 */
export type SnapshotItemKind = ContentType | 'video' | 'lists';
export const itemKey = (kind: SnapshotItemKind, langCode: string, id?: string | number) => (id === undefined ? `${kind}@${langCode}` : `${kind}:${id}@${langCode}`);

/** An item key's parts (`itemKey`'s arguments, the id as written); undefined for a key `itemKey` does not make. */
export function parseItemKey(key: string): { kind: string; langCode: string; id?: string } | undefined {
  const at = key.lastIndexOf('@');
  if (at < 1) return undefined;
  const [head, langCode] = [key.slice(0, at), key.slice(at + 1)];
  const colon = head.indexOf(':');
  return colon < 0 ? { kind: head, langCode } : { kind: head.slice(0, colon), langCode, id: head.slice(colon + 1) };
}

/** What a pull or rebuild is asked to refresh: a list of changes, or `'all'`. */
export type ContentChanges = ContentChange[] | 'all';

/** A change from untrusted input (a webhook body, a command line); throws saying what is wrong. */
export function contentChange(type: unknown, id: unknown): ContentChange {
  if (typeof type !== 'string' || !(CONTENT_TYPES as readonly string[]).includes(type)) {
    throw new Error(`"type" must be one of ${CONTENT_TYPES.join(', ')}`);
  }
  if (id === undefined) return { type: type as ContentType };
  if (typeof id !== 'number' || !Number.isSafeInteger(id) || id < 0) throw new Error('"id" must be a non-negative integer');
  return { type: type as ContentType, id };
}

/** Union of two sets of changes: 'all' wins; identical changes are kept once, in arrival order. */
export function mergeChanges(a: ContentChanges | null, b: ContentChanges): ContentChanges {
  if (a === 'all' || b === 'all') return 'all';
  const out = a ? [...a] : [];
  for (const change of b) {
    if (!out.some((c) => c.type === change.type && c.id === change.id)) out.push(change);
  }
  return out;
}

export const describeChanges = (changes: ContentChanges) => (changes === 'all' ? 'all' : changes.map((c) => (c.id === undefined ? c.type : `${c.type}#${c.id}`)).join(', '));
