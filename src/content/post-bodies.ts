/**
 * Posts beside the snapshot, not in it. A post's body (its HTML) is most of the snapshot's bytes (two
 * thirds at 10,000 news per language: 39 of 59 MB), yet a rebuild after one change needs only the changed posts' bodies:
 * their pages and their search documents. Kept in the snapshot, every rebuild wrote them all (the pull) and read
 * them all three times (the pull, the build, the search index's thread). The posts without their bodies are read
 * whole by every build (the lists need them all), but were most of what was left (14 of 16 MB): each pull wrote
 * them all again, a third of a second of one core, for the one group a change touches. So a group's posts are in a
 * file of their own too, beside its bodies' (`postsFileOf`).
 *
 * A language's bodies are kept in groups of `IDS_PER_FILE` post ids, one file a group in `BODIES_FOLDER`, named by
 * the ids and the digests (snapshot.ts `postDigests`) of the posts it holds: a name says what the file holds, so a
 * pull writes only the groups whose posts changed, a full pull writes the same names as the pulls told what
 * changed, and no pull rewrites a file that a snapshot names. The snapshot names each group's file (`postBodies`);
 * once a new snapshot is in place, the files neither it nor the one before it names are removed.
 *
 * A page reads a post's body as it always has, `post.html`: the group's file is read the first time one of its
 * posts' body is asked for, once in each process.
 */
import { createHash } from 'node:crypto';
import { closeSync, fstatSync, openSync, readdirSync, readSync, rmSync, statSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Post } from '../api/types.ts';
import { readTextSync } from './read-text.ts';

/** The folder, inside CONTENT_DIR, of the posts' bodies. */
export const BODIES_FOLDER = 'post-bodies';

/** The file of a group's posts without their bodies, beside its bodies' file `name`, read whole by every build. */
export const postsFileOf = (name: string) => name.replace(/\.json$/, '.posts.json');

/** Post ids a file holds: at 10,000 news per language some 100 files a language of 130 KB; a new post rewrites one. */
const IDS_PER_FILE = 128;

/** The file of each group of a language's post ids, by group number (`groupOf`). */
export type BodyFiles = Record<number, string>;

const groupOf = (id: number) => Math.floor(id / IDS_PER_FILE);

/** Each group's bodies as read from its file, by the file's path: a name says what it holds, so a group is read once a process. */
const READ = Symbol.for('hokimiyat.post-bodies');
const process_ = globalThis as typeof globalThis & { [READ]?: Map<string, Record<string, string>> };
const readGroups = (process_[READ] ??= new Map());

function readGroup(file: string): Record<string, string> {
  let bodies = readGroups.get(file);
  if (!bodies) {
    try {
      bodies = JSON.parse(readTextSync(file)) as Record<string, string>;
    } catch (error) {
      throw new Error(`The posts' bodies at ${file}, which the content snapshot names, cannot be read: run "npm run pull" again. ${String(error)}`, { cause: error });
    }
    readGroups.set(file, bodies);
  }
  return bodies;
}

/**
 * Gives each post of a snapshot read from `contentDir` its body, read from its group's file when first asked for.
 * A language without `postBodies` is an earlier version's, whose posts carry their bodies.
 */
export function attachBodies(content: { posts: Record<number, Post>; postBodies?: BodyFiles }, contentDir: string): void {
  const files = content.postBodies;
  if (!files) return;
  const folder = join(contentDir, BODIES_FOLDER);
  const paths: Record<number, string> = Object.fromEntries(Object.entries(files).map(([group, name]) => [group, join(folder, name)]));
  // One getter for the language's posts (it finds the post as `this`), not one a post: 40,000 getters of their
  // own cost two to three times the snapshot's parse at 10,000 news per language, one shared 20 ms.
  const body: PropertyDescriptor = {
    configurable: true,
    enumerable: true,
    get(this: Post) {
      const file = paths[groupOf(this.id)];
      const html = file === undefined ? undefined : readGroup(file)[this.id];
      if (typeof html !== 'string')
        throw new Error(`The body of post ${this.id} is not in ${file ?? `a file of ${folder}`}, as the content snapshot says: run "npm run pull" again.`);
      return html;
    },
    set: setBody,
  };
  for (const post of Object.values(content.posts)) Object.defineProperty(post, 'html', body);
}

/** The name of the error that says a group's posts cannot be read: it says what to do, and is told as it is. */
export const POSTS_UNREADABLE = 'PostsUnreadable';

/**
 * A language's posts, without their bodies, from the files of its groups (`files`, the snapshot's `postBodies`).
 * A group whose file cannot be read fails the read, unless `missing` is 'leave out': the pull, which reads that
 * group's posts again from the API, leaves them out of the snapshot it reuses.
 */
export function readPosts(files: BodyFiles, contentDir: string, missing: 'fail' | 'leave out'): Record<number, Post> {
  const folder = join(contentDir, BODIES_FOLDER);
  const posts: Record<number, Post> = {};
  for (const name of Object.values(files)) {
    const file = join(folder, postsFileOf(name));
    let group: Record<number, Post>;
    try {
      group = JSON.parse(readTextSync(file)) as Record<number, Post>;
    } catch (error) {
      if (missing === 'leave out') continue;
      throw Object.assign(new Error(`The posts at ${file}, which the content snapshot names, cannot be read: run "npm run pull" again. ${String(error)}`, { cause: error }), {
        name: POSTS_UNREADABLE,
      });
    }
    Object.assign(posts, group);
  }
  return posts;
}

/** A body set after the read (a test's, a pull's) replaces the one on disk. */
function setBody(this: Post, html: string) {
  Object.defineProperty(this, 'html', { value: html, writable: true, enumerable: true, configurable: true });
}

/**
 * The size of a group's file when it is there and whole, else undefined. Whole: of the size the snapshot recorded
 * (`bytes`), or, for a snapshot of an earlier version that recorded none, ending as a JSON object ends. A file cut
 * short (a power lost before the disk had it: these are written as a cache is, without waiting for the disk) is
 * written again; by its last byte alone, one cut just after a post's `}` would pass.
 */
function wholeSize(file: string, bytes: number | undefined): number | undefined {
  if (bytes !== undefined) return statSync(file, { throwIfNoEntry: false })?.size === bytes ? bytes : undefined;
  let fd: number | undefined;
  try {
    fd = openSync(file, 'r');
    const { size } = fstatSync(fd);
    const last = Buffer.alloc(1);
    return size > 1 && readSync(fd, last, 0, 1, size - 1) === 1 && last[0] === 0x7d ? size : undefined;
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** The sizes of a group's two files, its bodies' and its posts', by group number, as the pull wrote them. */
export type GroupBytes = Record<number, [bodies: number, posts: number]>;

/** What a snapshot's language says of its groups' files. */
type GroupFiles = { postBodies?: BodyFiles; postGroupBytes?: GroupBytes };

/** The groups of a language whose bodies' file named by the snapshot is gone or cut short: a pull reads their posts again. */
export function missingBodyGroups(content: GroupFiles | undefined, contentDir: string): (id: number) => boolean {
  const files = content?.postBodies;
  if (!files) return () => false;
  const folder = join(contentDir, BODIES_FOLDER);
  const missing = new Set(
    Object.entries(files).flatMap(([group, name]) => (wholeSize(join(folder, name), content.postGroupBytes?.[Number(group)]?.[0]) === undefined ? [Number(group)] : [])),
  );
  return (id) => missing.has(groupOf(id));
}

/** A post as the snapshot's file holds it, without its body: its own fields but `html`, no getter called. */
export function withoutBody(post: Post): Omit<Post, 'html'> {
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(post)) if (key !== 'html') copy[key] = post[key as keyof Post];
  return copy as Omit<Post, 'html'>;
}

/**
 * Writes the files of a language's groups that are not there whole yet (its bodies', its posts'), and names each
 * group's bodies' file, with the sizes of both. `digests` has every post's (snapshot.ts `postDigests`): a post's
 * digest covers all of it, its body too. `before`: the previous snapshot's language, whose recorded sizes say
 * whether a file of the same name is whole.
 */
export async function writePostGroups(
  contentDir: string,
  posts: Record<number, Post>,
  digests: Record<number, string>,
  write: (file: string, text: string) => Promise<void>,
  before?: GroupFiles,
): Promise<{ files: BodyFiles; bytes: GroupBytes }> {
  const folder = join(contentDir, BODIES_FOLDER);
  await mkdir(folder, { recursive: true });
  const recorded = new Map(Object.entries(before?.postBodies ?? {}).map(([group, name]) => [name, before?.postGroupBytes?.[Number(group)]]));
  const groups = new Map<number, number[]>();
  for (const id of Object.keys(posts).map(Number)) {
    const group = groups.get(groupOf(id));
    if (group) group.push(id);
    else groups.set(groupOf(id), [id]);
  }
  const files: BodyFiles = {};
  const bytes: GroupBytes = {};
  /** Writes `text()` to `file` unless it is there whole; its size. */
  const keep = async (file: string, size: number | undefined, text: () => string) => {
    const kept = wholeSize(file, size);
    if (kept !== undefined) return kept;
    const body = text();
    await write(file, body);
    return Buffer.byteLength(body);
  };
  for (const [group, ids] of [...groups].sort(([a], [b]) => a - b)) {
    ids.sort((a, b) => a - b);
    const missing = ids.find((id) => typeof digests[id] !== 'string');
    // Without its digest a post's body could change under the same name.
    if (missing !== undefined) throw new Error(`post ${missing} has no digest: its body cannot be kept`);
    const name = `${createHash('sha256')
      .update(JSON.stringify(ids.map((id) => [id, digests[id]])))
      .digest('base64url')
      .slice(0, 24)}.json`;
    files[group] = name;
    const sizes = recorded.get(name);
    bytes[group] = [
      await keep(join(folder, name), sizes?.[0], () => JSON.stringify(Object.fromEntries(ids.map((id) => [id, posts[id]!.html])))),
      await keep(join(folder, postsFileOf(name)), sizes?.[1], () => JSON.stringify(Object.fromEntries(ids.map((id) => [id, withoutBody(posts[id]!)])))),
    ];
  }
  return { files, bytes };
}

/**
 * Removes the files of the bodies' folder that `kept` does not name and that were there before `since` (ms): groups
 * no snapshot names any more, and a crashed write's leftovers. `kept` names the previous snapshot's too, which a
 * build started before this pull may still be reading; a file written since `since` is another pull's, running.
 */
export function removeBodiesExcept(contentDir: string, kept: ReadonlySet<string>, since: number): void {
  const folder = join(contentDir, BODIES_FOLDER);
  let names: string[];
  try {
    names = readdirSync(folder);
  } catch {
    return;
  }
  for (const name of names) {
    if (kept.has(name)) continue;
    const file = join(folder, name);
    if ((statSync(file, { throwIfNoEntry: false })?.mtimeMs ?? Infinity) < since) rmSync(file, { force: true });
  }
}
