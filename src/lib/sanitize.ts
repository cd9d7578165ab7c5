/**
 * The one sanitiser for HTML from the API (descriptions, page text,
 * biographies). Runs at build time. An explicit allowlist (`./html-allowlist.ts`, shared with the
 * browser's DOMPurify for posts newer than the build): structure, lists,
 * tables, links, images and emphasis; no scripts, styles, event handlers,
 * `javascript:` or `data:` URLs. External links open in a new tab without
 * handing the opener to the other site. Headings are renumbered under the
 * page's own (`./heading-outline.ts`).
 */
import { pictureUrl } from '../content/pictures/map.ts';
import { decodeHTML, decodeHTMLAttribute } from 'entities';
import sanitizeHtml from 'sanitize-html';
import { embeddedVideo, telegramPostUrl } from '../features/video-embed/video-hosts.ts';
import { ALLOWED_ATTRIBUTES, ALLOWED_SCHEMES, ALLOWED_TAGS, DROPPED_WITH_CONTENT, IMG_SCHEMES, TABLE_WRAPPER } from './html-allowlist.ts';
import { editorLinkUrl } from '../content/documents/links.ts';
import { DROPPED_EMBEDS, EDITOR_LINK, EMBED_LINK, MEDIA_ATTRIBUTES, MEDIA_TAGS, VIDEO_CARD, VIDEO_CARD_ATTRIBUTES } from './editor-content.ts';
import { headingOutline, TEXT_TOP_HEADING } from './heading-outline.ts';
import { keepContentModel } from './content-model.ts';
import { editorSiteLink } from './base-path.ts';

const OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: [...ALLOWED_TAGS],
  allowedAttributes: Object.fromEntries(Object.entries(ALLOWED_ATTRIBUTES).map(([tag, attrs]) => [tag, [...attrs]])),
  allowedSchemes: [...ALLOWED_SCHEMES],
  allowedSchemesByTag: { img: [...IMG_SCHEMES], video: [...IMG_SCHEMES], audio: [...IMG_SCHEMES], source: [...IMG_SCHEMES] },
  allowProtocolRelative: false,
  // Text inside dropped tags like <script> and <style> is dropped with them.
  nonTextTags: [...DROPPED_WITH_CONTENT, ...DROPPED_EMBEDS],
};

/**
 * Cleans `html` from the API. Images with a relative address are, like every
 * `imageUrl` of the API, relative to the media base. `topHeading` is the level
 * of the text's highest heading: one below the heading the text sits under
 * (h2 under the page's h1, the default).
 */
export function sanitize(html: string, options: { mediaBase?: string; topHeading?: number } = {}): string {
  const base = options.mediaBase?.replace(/\/+$/, '');
  const mediaOrigin = base && URL.canParse(base) ? new URL(base).origin : null;
  /** A media file's address as the browser must ask for it: joined to the media base when relative. */
  const mediaUrl = (src: string) => (base && src ? pictureUrl(src, base) : src);
  const onMediaServer = (url: string) => mediaOrigin !== null && URL.canParse(url) && new URL(url).origin === mediaOrigin;
  // A frame's plain fallback text is for browsers without frames: the card or link made in its place names it instead.
  const framesEmptied = /<iframe/i.test(html) ? html.replace(FRAME_WITH_FALLBACK_TEXT, '$1</iframe>') : html;
  const clean = sanitizeHtml(framesEmptied, {
    ...OPTIONS,
    allowedTags: [...ALLOWED_TAGS, ...MEDIA_TAGS, VIDEO_CARD, EMBED_LINK],
    allowedAttributes: {
      ...OPTIONS.allowedAttributes,
      ...MEDIA_ATTRIBUTES,
      a: [...ALLOWED_ATTRIBUTES.a!, EDITOR_LINK],
      [VIDEO_CARD]: [...VIDEO_CARD_ATTRIBUTES],
      [EMBED_LINK]: ['href', 'title'],
    },
    transformTags: {
      a: (tagName, attribs) => {
        const href = base ? editorLinkUrl(attribs.href ?? '', base) : (attribs.href ?? '');
        const { target: _target, rel: _rel, ...rest } = attribs;
        if (/^https?:\/\//i.test(href)) return { tagName, attribs: { ...rest, href, target: '_blank', rel: 'noopener noreferrer' } };
        // A link into the site is the editor's: the link check reports it when it leads nowhere, and never fails the build for it.
        return { tagName, attribs: href && !/^[a-z][a-z0-9+.-]*:/i.test(href) ? { ...rest, href: editorSiteLink(href), [EDITOR_LINK]: '' } : rest };
      },
      img: (tagName, attribs) => {
        // Joined as the picture map joins them, so a text's pictures are found under the same URLs.
        const absolute = mediaUrl(attribs.src ?? '');
        // An image the editor gave no text is announced as nothing rather than by its file name.
        return { tagName, attribs: { alt: '', ...attribs, src: absolute, loading: 'lazy', decoding: 'async' } };
      },
      // A video player from a known host becomes the site's own card (src/features/video-embed/), any other frame a link to it.
      iframe: (_tagName, attribs) => {
        const src = attribs.src ?? '';
        const video = embeddedVideo(src);
        if (video) return { tagName: VIDEO_CARD, attribs: { 'data-page': video.page, title: attribs.title ?? '' } };
        return linkInstead(src, attribs.title);
      },
      // A Telegram post widget is a script naming the post: a link to the post.
      script: (_tagName, attribs): sanitizeHtml.Tag => {
        const post = telegramPostUrl(attribs['data-telegram-post'] ?? '');
        return post
          ? { tagName: 'a', attribs: { href: post, target: '_blank', rel: 'noopener noreferrer' }, text: post.replace(/^https:\/\//, '') }
          : { tagName: 'script', attribs: {} };
      },
      // Sound and video files on the media server play in the page, fetched only when pressed; from anywhere else, a link.
      video: (tagName, attribs) => mediaElement(tagName, attribs),
      audio: (tagName, attribs) => mediaElement(tagName, attribs),
      source: (tagName, attribs) => {
        const src = mediaUrl(attribs.src ?? '');
        return onMediaServer(src) ? { tagName, attribs: { src, ...(attribs.type ? { type: attribs.type } : {}) } } : { tagName: DROPPED_EMBEDS[0], attribs: {} };
      },
    },
  });
  function mediaElement(tagName: string, attribs: sanitizeHtml.Attributes): sanitizeHtml.Tag {
    const src = attribs.src ? mediaUrl(attribs.src) : '';
    if (src && !onMediaServer(src)) return linkInstead(src, attribs.title);
    return { tagName, attribs: { ...(src ? { src } : {}), controls: '', preload: 'none', ...(attribs.title ? { title: attribs.title } : {}) } };
  }
  // A wide table scrolls inside its own box on a phone; keyboard users can reach and scroll it.
  // Content models first: a heading inside another becomes its text there, and the outline then numbers what is left.
  return outlineHeadings(keepContentModel(linksForEmbeds(clean)), options.topHeading ?? TEXT_TOP_HEADING)
    .replace(/<table/g, `<div class="${TABLE_WRAPPER.className}" tabindex="${TABLE_WRAPPER.tabindex}"><table`)
    .replace(/<\/table>/g, '</table></div>');
}

/** An iframe whose content is only text (its fallback for browsers without frames), its start tag read as a browser reads it. */
const FRAME_WITH_FALLBACK_TEXT = /(<iframe\b(?:[^>"']|"[^"]*"|'[^']*')*>)[^<]*<\/iframe\s*>/gi;

/**
 * An element the site does not embed (a frame from an unknown host, sound or video from another host) marked
 * for a link to it (linksForEmbeds), or dropped when its address is no web page. What it held stays where it was.
 */
function linkInstead(src: string, title: string | undefined): sanitizeHtml.Tag {
  const href = src.trim().replace(/^\/\//, 'https://');
  if (!/^https?:\/\//i.test(href) || !URL.canParse(href)) return { tagName: DROPPED_EMBEDS[0], attribs: {} };
  return { tagName: EMBED_LINK, attribs: { href, ...(title?.trim() ? { title: title.trim() } : {}) } };
}

const EMBED_LINK_START = new RegExp(`<${EMBED_LINK} href="([^"]*)"(?: title="([^"]*)")?>`, 'g');
const escapeText = (s: string) => s.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');

/** Each marked embed as a link named by its title or its host, opening in a new tab; what the element held follows it. */
function linksForEmbeds(html: string): string {
  if (!html.includes(`<${EMBED_LINK}`)) return html;
  return html
    .replace(EMBED_LINK_START, (_tag, href: string, title: string | undefined) => {
      const words = title ?? escapeText(new URL(decodeHTMLAttribute(href)).host);
      return `<a href="${href}" target="_blank" rel="noopener noreferrer">${words}</a>`;
    })
    .replaceAll(`</${EMBED_LINK}>`, '');
}

/** A heading tag of sanitised HTML, where every `<` and `>` of text and attribute values is escaped. */
const HEADING_TAG = /<(\/?)h([1-6])((?:\s[^>]*)?)>/g;
/** A heading with nothing to read in it: it would only add a blank stop to a screen reader's list of headings. */
const EMPTY_HEADING = /<h([1-6])\b[^>]*>(?:\s|&nbsp;|&#160;|<br \/>|<\/?(?:span|strong|b|em|i|u|s|small|mark|sub|sup)\b[^>]*>)*<\/h\1>/g;

/**
 * Renumbers the headings of sanitised HTML under the page's own (`headingOutline`). Empty headings go;
 * a heading inside another (sanitize-html keeps `<h2>a<h3>b</h3></h2>` as written, which a browser would
 * split into an empty h2 and an h3) loses its tags and stays as text of the outer one.
 */
function outlineHeadings(html: string, top: number): string {
  let text = html;
  for (let before = ''; before !== text;) {
    before = text;
    text = text.replace(EMPTY_HEADING, '');
  }
  const levelOf = headingOutline(top);
  // The levels given to the headings open at this point; null for a nested one whose tags are dropped.
  const open: (number | null)[] = [];
  return text.replace(HEADING_TAG, (_tag, closing: string, level: string, attributes: string) => {
    if (closing) {
      const given = open.pop();
      return given ? `</h${given}>` : '';
    }
    if (open.length) {
      open.push(null);
      return '';
    }
    const given = levelOf(Number(level));
    open.push(given);
    return `<h${given}${attributes}>`;
  });
}

/**
 * The visible text of HTML from the API, for meta and Open Graph descriptions:
 * sanitised first (so the text of `<script>`, `<style>` and the like is gone
 * with them), then tags stripped, entities decoded and whitespace collapsed.
 * The caller truncates.
 */
export function textOf(html: string): string {
  return decodeHTML(sanitizeHtml(html, { ...OPTIONS, allowedAttributes: {} }).replace(/<[^>]*>/g, ' '))
    .replace(/\s+/g, ' ')
    .trim();
}
