/**
 * What the site makes of an editor's text besides cleaning it (src/lib/sanitize.ts), in one place:
 * the marks the sanitiser leaves for the steps after it, and what it removes, counted for the report.
 *
 * - A link into the site is published as the editor wrote it and marked EDITOR_LINK: the link check
 *   (scripts/pipeline/finish/link-check.ts) lists such a link that leads nowhere (a deleted post, an unlisted page)
 *   in the build's report instead of failing the build, so one editor's link never holds back
 *   everyone's news. Left as written, it works again the moment its page is published. Editors write a
 *   link from the site's root (`/news/5`): under a base path it is published under it (`/chust/news/5`).
 * - A video player from a known host becomes VIDEO_CARD, which src/components/ApiHtml.astro renders as
 *   the site's own card (src/features/video-embed/).
 */
import { decodeHTMLAttribute } from 'entities';
import { Parser } from 'htmlparser2';
import { embeddedVideo, telegramPostUrl, type EmbeddedVideo } from '../features/video-embed/video-hosts.ts';
import { ALLOWED_TAGS } from './html-allowlist.ts';

export const EDITOR_LINK = 'data-editor-link';
/** What the build's sanitiser marks for a link in an embed's place (src/lib/sanitize.ts). */
export const EMBED_LINK = 'embed-link';
/**
 * Sound and video on the media server, which only the build's sanitiser keeps (it joins their address to the
 * media base and sets controls and preload="none"); the browser's, for a post newer than the build, drops them.
 */
export const MEDIA_TAGS = ['video', 'audio', 'source'] as const;
export const MEDIA_ATTRIBUTES: Record<(typeof MEDIA_TAGS)[number], string[]> = {
  video: ['src', 'controls', 'preload', 'title'],
  audio: ['src', 'controls', 'preload', 'title'],
  source: ['src', 'type'],
};
export const VIDEO_CARD = 'video-card';
export const VIDEO_CARD_ATTRIBUTES = ['data-page', 'title'] as const;
/** Names the sanitiser gives an element it removes after looking at it (an embed from nowhere it can link to), with its content. */
export const DROPPED_EMBEDS = ['removed-embed'] as const;

const ALLOWED = new Set([...ALLOWED_TAGS, 'video', 'audio']);
/** Elements that hold the page together rather than the editor's words: removing them loses nothing. */
const STRUCTURE = new Set([
  'html',
  'head',
  'body',
  'div',
  'section',
  'article',
  'main',
  'header',
  'footer',
  'font',
  'center',
  'o:p',
  'tbody',
  'colgroup',
  'col',
  'meta',
  'link',
  'title',
]);

/** Whether the sanitiser keeps `name` in some form (as written, or as a card or a link); `mediaOrigin` is the media server's. */
function kept(name: string, attributes: Record<string, string>, mediaOrigin: string | null): boolean {
  if (ALLOWED.has(name) || STRUCTURE.has(name)) return true;
  if (name === 'iframe') return embeddedVideo(attributes.src ?? '') !== null || /^(?:https?:)?\/\//i.test(attributes.src ?? '');
  if (name === 'script') return telegramPostUrl(attributes['data-telegram-post'] ?? '') !== null;
  // A source on another host than the media server is dropped (a relative one is the media server's).
  if (name === 'source') {
    const src = (attributes.src ?? '').trim();
    return !/^(?:[a-z][a-z0-9+.-]*:|\/\/)/i.test(src) || (URL.canParse(src) && new URL(src).origin === mediaOrigin);
  }
  return false;
}

/**
 * The elements the sanitiser removes from `html` with what they held (a script, a form, an embed
 * from nowhere), by tag name and count; empty when it removes none. For the build's report, so that
 * nothing an editor put in goes without a trace.
 */
export function removedElements(html: string, mediaBase?: string): Record<string, number> {
  const mediaOrigin = mediaBase && URL.canParse(mediaBase) ? new URL(mediaBase).origin : null;
  const removed: Record<string, number> = {};
  // Most texts hold only allowed tags: seen by their names alone, without a parser (and without matchAll's
  // match objects, which took most of the time over 80,000 texts).
  const allowed = (start: string) => {
    const name = start.slice(1).toLowerCase();
    return ALLOWED.has(name) || STRUCTURE.has(name);
  };
  if ((html.match(/<[a-zA-Z][\w:-]*/g) ?? []).every(allowed)) return removed;
  const parser = new Parser(
    {
      onopentag(name, attributes) {
        if (!kept(name, attributes, mediaOrigin)) removed[name] = (removed[name] ?? 0) + 1;
      },
    },
    { lowerCaseTags: true, lowerCaseAttributeNames: true, decodeEntities: true },
  );
  parser.write(html);
  parser.end();
  return removed;
}

const CARD = new RegExp(`<${VIDEO_CARD}\\b([^>]*)>`, 'g');
const ATTRIBUTE = /\s([\w-]+)="([^"]*)"/g;

/**
 * Elements that may hold phrasing content only, or that must not hold a control: a card, which holds a
 * paragraph and a button, cannot stand inside them, so they are closed before it and opened again after it.
 */
const SPLIT_AROUND_CARD = new Set(['p', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'pre', 'a', 'strong', 'b', 'em', 'i', 'u', 's', 'sub', 'sup', 'small', 'mark', 'abbr', 'span', 'code']);
const VOID = new Set(['br', 'img', 'hr', 'wbr', 'source']);
/** A start or end tag of sanitised HTML, where no `>` is left inside an attribute value. */
const TAG = /<(\/?)([a-z][a-z0-9-]*)\b[^>]*>/g;
const EMPTY_SPLIT = new RegExp(`<(${[...SPLIT_AROUND_CARD].join('|')})\\b[^>]*>(?:\\s|&nbsp;)*</\\1>`, 'g');

/** The elements open at the end of `html`, given those open at its start: each name with its start tag. */
function openAfter(html: string, open: { name: string; tag: string }[]): { name: string; tag: string }[] {
  const stack = [...open];
  for (const [tag, closing, name] of html.matchAll(TAG)) {
    if (VOID.has(name!)) continue;
    if (!closing) stack.push({ name: name!, tag });
    else {
      const at = stack.findLastIndex((e) => e.name === name);
      if (at >= 0) stack.length = at;
    }
  }
  return stack;
}

/**
 * Sanitised HTML cut at its video cards: the text between them as strings, each card as the video it
 * shows (checked again against the known hosts, so a card the editor wrote by hand shows only what one
 * of them would) and its title. A card stands where flow content may: the paragraph, heading, link or
 * emphasis it was written in is closed before it and opened again after it, and one left empty goes.
 */
export function textParts(text: string): (string | { video: EmbeddedVideo; title: string })[] {
  if (!text.includes(`<${VIDEO_CARD}`)) return [text];
  // What a card's element held (an unclosed frame's, the rest of the text) follows the card.
  const html = text.replaceAll(`</${VIDEO_CARD}>`, '');
  const parts: (string | { video: EmbeddedVideo; title: string })[] = [];
  let at = 0;
  let open: { name: string; tag: string }[] = [];
  for (const m of html.matchAll(CARD)) {
    const before = html.slice(at, m.index);
    open = openAfter(before, open);
    const first = open.findIndex((_e, i) => open.slice(i).every((o) => SPLIT_AROUND_CARD.has(o.name)));
    const around = first >= 0 ? open.slice(first) : [];
    at = m.index + m[0].length;
    const attributes = Object.fromEntries([...m[1]!.matchAll(ATTRIBUTE)].map(([, name, value]) => [name!, decodeHTMLAttribute(value!)]));
    const video = embeddedVideo(attributes['data-page'] ?? '');
    if (!video) {
      parts.push(before);
      continue;
    }
    parts.push(
      before +
        around
          .map((e) => `</${e.name}>`)
          .reverse()
          .join(''),
      { video, title: attributes.title ?? '' },
      around.map((e) => e.tag).join(''),
    );
  }
  parts.push(html.slice(at));
  const joined: (string | { video: EmbeddedVideo; title: string })[] = [];
  for (const part of parts) {
    const last = joined.at(-1);
    if (typeof part === 'string' && typeof last === 'string') joined[joined.length - 1] = last + part;
    else joined.push(part);
  }
  return joined.map((part) => (typeof part === 'string' ? withoutEmptySplits(part) : part)).filter((part) => part !== '');
}

/** The text without the elements a card split that held nothing on one side of it. */
function withoutEmptySplits(html: string): string {
  let text = html;
  for (let before = ''; before !== text;) {
    before = text;
    text = text.replace(EMPTY_SPLIT, '');
  }
  return text;
}
