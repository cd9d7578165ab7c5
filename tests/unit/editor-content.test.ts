/**
 * What the site makes of what editors paste into a text: links into the site published as written and
 * reported when they lead nowhere (never a failed build), documents served from the site with their type
 * and size, videos as the site's own card, sound and video files with controls, Telegram posts as links,
 * and everything removed counted.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkLinks, linkChecker } from '../../scripts/pipeline/finish/link-check.ts';
import { contentReportLines, deadLinksByLanguage } from '../../scripts/pipeline/pull/content-report.ts';
import { documentLinkUrls, isMediaFilePath } from '../../src/content/documents/links.ts';
import { documentSitePath, documentsNamedBy } from '../../src/content/documents/map.ts';
import { removedElements, textParts } from '../../src/lib/editor-content.ts';
import { sanitize } from '../../src/lib/sanitize.ts';
import { fileSize, localDocuments } from '../../src/lib/text-documents.ts';

const MEDIA = 'https://media.example.uz/';

describe('links an editor writes', () => {
  it('joins a link to a file on the media server to the media base, as pictures are', () => {
    for (const href of ['/media/qaror-12.pdf', '/uploads/2026/jadval.xlsx', 'hujjatlar/nizom.docx', '/files/x']) expect(isMediaFilePath(href)).toBe(true);
    for (const href of [
      '/news/5',
      '/page/999',
      '/ru/news',
      '#x',
      'https://gov.uz/a.pdf',
      '//evil.example/a.pdf',
      '/news/5.html',
      '/ru/rss.xml',
      '/favicon.svg',
      '/documents/0123456789ab/qaror.pdf',
    ]) {
      expect(isMediaFilePath(href), href).toBe(false);
    }
    expect(sanitize('<a href="/media/qaror-12.pdf">qaror</a>', { mediaBase: MEDIA })).toBe(
      '<a href="https://media.example.uz/media/qaror-12.pdf" target="_blank" rel="noopener noreferrer">qaror</a>',
    );
  });

  it("keys a page by the documents its text links to, however the editor's HTML spells the tag", () => {
    const map = { 'https://media.example.uz/media/a.pdf': { type: 'PDF', path: '/documents/aaa/a.pdf', bytes: 1, sha: 'x' } };
    expect(documentsNamedBy({ html: '<A HREF="/media/a.pdf">a</A>' }, map, MEDIA)).toEqual([
      `https://media.example.uz/media/a.pdf ${JSON.stringify(map['https://media.example.uz/media/a.pdf'])}`,
    ]);
  });

  it('finds the documents a text links to, relative or absolute, and nothing on other hosts', () => {
    const html = '<a href="/media/a.pdf">a</a> <a href="https://media.example.uz/b.DOCX">b</a> <a href="https://gov.uz/c.pdf">c</a> <a href="/media/d.jpg">d</a>';
    expect(documentLinkUrls(html, MEDIA)).toEqual(['https://media.example.uz/media/a.pdf', 'https://media.example.uz/b.DOCX']);
  });

  it('gives a document a stable address of the site, named by its URL and its own file name', () => {
    const path = documentSitePath('https://media.example.uz/media/Qaror №12 (yangi).pdf');
    expect(path).toMatch(/^\/documents\/[0-9a-f]{12}\/Qaror-No12-yangi-\.pdf$/);
    expect(documentSitePath('https://media.example.uz/media/Qaror №12 (yangi).pdf')).toBe(path);
    expect(documentSitePath('https://media.example.uz/other/Qaror №12 (yangi).pdf')).not.toBe(path);
    expect(documentSitePath('https://media.example.uz/media/..%2F..%2Fetc%2Fpasswd')).toMatch(/^\/documents\/[0-9a-f]{12}\/etc-passwd$/);
  });

  it('shows a kept document from the site with its type and size, and one not kept on the media server with its type', () => {
    const html = sanitize('<p><a href="/media/a.pdf">Qaror</a> va <a href="/media/b.xlsx">jadval</a></p>', { mediaBase: MEDIA });
    const map = {
      'https://media.example.uz/media/a.pdf': { type: 'PDF', path: '/documents/aaa/a.pdf', bytes: 245_760, sha: 'x' },
      'https://media.example.uz/media/b.xlsx': { type: 'Excel', failed: 'HTTP 404' },
    };
    const size = (bytes: number) => fileSize(bytes, { kb: (s) => `${s} KB`, mb: (s) => `${s} MB` }, 'en');
    expect(localDocuments(html, map, 'https://media.example.uz', size)).toBe(
      '<p><a href="/documents/aaa/a.pdf">Qaror <span class="file-note">(PDF, 240 KB)</span></a> va ' +
        '<a href="https://media.example.uz/media/b.xlsx" target="_blank" rel="noopener noreferrer">jadval <span class="file-note">(Excel)</span></a></p>',
    );
    expect(fileSize(1_468_006, { kb: (s) => `${s} КБ`, mb: (s) => `${s} МБ` }, 'ru')).toBe('1,4 МБ');
  });
});

describe('embeds an editor pastes', () => {
  it("makes a known host's player a card, and a frame from anywhere else a link named by its title", () => {
    const out = sanitize(
      '<p><iframe src="https://www.youtube.com/embed/M7lc1UVf-VE" title="Hokim &amp; aholi" allowfullscreen>old browsers</iframe></p>' +
        '<iframe src="https://maps.example.org/w?id=1" title="Xarita"></iframe><iframe src="https://maps.example.org/x">fallback</iframe>',
      { mediaBase: MEDIA },
    );
    expect(out).toBe(
      '<p><video-card data-page="https://www.youtube.com/watch?v=M7lc1UVf-VE" title="Hokim &amp; aholi"></video-card></p>' +
        '<a href="https://maps.example.org/w?id=1" target="_blank" rel="noopener noreferrer">Xarita</a>' +
        '<a href="https://maps.example.org/x" target="_blank" rel="noopener noreferrer">maps.example.org</a>',
    );
  });

  it('loses nothing of the text around a frame: a ">" inside its attributes, a frame never closed', () => {
    const quoted = sanitize('<iframe title="a>b" src="https://youtu.be/M7lc1UVf-VE"></iframe><p>whole post</p>', { mediaBase: MEDIA });
    expect(quoted).toContain('<p>whole post</p>');
    expect(textParts(quoted)).toEqual([{ video: expect.objectContaining({ host: 'YouTube' }), title: 'a>b' }, '<p>whole post</p>']);
    const unclosed = sanitize('<p>oldin</p><iframe src="https://www.youtube.com/embed/M7lc1UVf-VE"><p>keyin</p><p>yana</p>', { mediaBase: MEDIA });
    expect(textParts(unclosed)).toEqual(['<p>oldin</p>', { video: expect.objectContaining({ host: 'YouTube' }), title: '' }, '<p>keyin</p><p>yana</p>']);
    const link = sanitize('<iframe src="https://maps.example.org/x"><p>keyin</p>', { mediaBase: MEDIA });
    expect(link).toBe('<a href="https://maps.example.org/x" target="_blank" rel="noopener noreferrer">maps.example.org</a><p>keyin</p>');
  });

  it('cuts a text at its cards, closing the paragraph a card stood in', () => {
    const parts = textParts('<p>Oldin <video-card data-page="https://youtu.be/M7lc1UVf-VE" title="V"></video-card> keyin</p><p>x</p>');
    expect(parts).toEqual(['<p>Oldin </p>', { video: expect.objectContaining({ host: 'YouTube' }), title: 'V' }, '<p> keyin</p><p>x</p>']);
    // A card written by hand shows only what a known host would.
    expect(textParts('<video-card data-page="https://evil.example/x" title="V"></video-card><p>y</p>')).toEqual(['<p>y</p>']);
  });

  it('stands a card where a page may hold it: out of the emphasis, link or heading it was written in', () => {
    const card = (page = 'https://youtu.be/M7lc1UVf-VE') => `<video-card data-page="${page}" title="V"></video-card>`;
    const video = { video: expect.objectContaining({ host: 'YouTube' }), title: 'V' };
    expect(textParts(`<p>a <strong>b ${card()} c</strong> d</p>`)).toEqual(['<p>a <strong>b </strong></p>', video, '<p><strong> c</strong> d</p>']);
    expect(textParts(`<ul><li><a href="/x" data-editor-link>${card()}</a></li></ul>`)).toEqual(['<ul><li>', video, '</li></ul>']);
    expect(textParts(`<h2 lang="ru">${card()}</h2><p>x</p>`)).toEqual([video, '<p>x</p>']);
  });

  it('plays sound and video from the media server with controls, loading nothing until pressed; from elsewhere, links', () => {
    expect(sanitize('<video src="/media/v1.mp4" autoplay loop muted></video>', { mediaBase: MEDIA })).toBe(
      '<video src="https://media.example.uz/media/v1.mp4" controls preload="none"></video>',
    );
    expect(sanitize('<audio src="https://evil.example/a.mp3"></audio>', { mediaBase: MEDIA })).toBe(
      '<a href="https://evil.example/a.mp3" target="_blank" rel="noopener noreferrer">evil.example</a>',
    );
  });

  it('links a Telegram post widget to the post, and drops any other script', () => {
    expect(sanitize('<script async src="https://telegram.org/js/telegram-widget.js?22" data-telegram-post="qorakul_hokimligi/1204"></script><script>alert(1)</script>')).toBe(
      '<a href="https://t.me/qorakul_hokimligi/1204" target="_blank" rel="noopener noreferrer">t.me/qorakul_hokimligi/1204</a>',
    );
  });

  it('counts what it removes, and nothing it keeps in some form', () => {
    expect(removedElements('<p>ok</p><div><span>x</span></div>')).toEqual({});
    expect(
      removedElements(
        '<iframe src="https://youtu.be/M7lc1UVf-VE"></iframe><script data-telegram-post="a_chan/1"></script>' +
          '<script>alert(1)</script><form><input><input></form><iframe src="javascript:x"></iframe><object></object>',
      ),
    ).toEqual({ script: 1, form: 1, input: 2, iframe: 1, object: 1 });
    // A source on another host is dropped from its player; one on the media server is kept.
    expect(removedElements('<video><source src="https://evil.example/v.mp4"><source src="https://media.example.uz/v.mp4"><source src="/media/v.webm"></video>', MEDIA)).toEqual({
      source: 1,
    });
  });
});

describe("the link check and an editor's links", () => {
  const root = mkdtempSync(join(tmpdir(), 'editor-links-'));
  afterAll(() => rm(root, { recursive: true, force: true }));
  const file = (path: string, body = '') => {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), body);
  };

  it("reports an editor's link that leads nowhere instead of failing, and still fails on the code's", async () => {
    file('news/5/index.html', '<a href="/news/5">ok</a>');
    file(
      'ru/news/7/index.html',
      '<a href="/news/5" data-editor-link>ok</a><a href="/news/99999" data-editor-link>gone</a><a href="/page/999" data-editor-link>unlisted</a>' +
        '<a href="#nowhere" data-editor-link>anchor</a><a href="/ru/missing">the code\'s</a>',
    );
    const result = await checkLinks(root);
    expect(result.broken).toEqual(['ru/news/7/index.html: /ru/missing']);
    expect(result.deadEditorLinks).toEqual([
      { page: '/ru/news/7/', link: '/news/99999' },
      { page: '/ru/news/7/', link: '/page/999' },
    ]);
  });

  it("looks an editor's link up again when it replays a page: one published since works", async () => {
    const html = '<a href="/page/999" data-editor-link>p</a>';
    const first = linkChecker(root, new Set([join(root, 'index.html')]));
    const record = first.page(join(root, 'index.html'), html);
    const later = linkChecker(root, new Set([join(root, 'index.html'), join(root, 'page/999/index.html')]));
    later.replay(join(root, 'index.html'), () => html, record.links);
    expect((await later.finish()).deadEditorLinks).toEqual([]);
  });

  it('names at most twenty of each kind in the output, and how many more the report holds', () => {
    // An archive of 10,000 posts a language with a dead link in every 28th printed 2,864 lines on every rebuild.
    const deadLinks = deadLinksByLanguage(Array.from({ length: 2864 }, (_, i) => ({ page: `/ru/news/${i}/`, link: '/news/99999' })));
    const removed = [{ item: 'post:5@ru', language: 'ru' as const, elements: { script: 1 } }];
    const lines = contentReportLines({ deadLinks, unavailableDocuments: [], removed });
    expect(lines).toHaveLength(22);
    expect(lines[0]).toBe("editor's link leads nowhere on the site (published as written): /ru/news/0/ (ru) → /news/99999");
    expect(lines[20]).toBe("… and 2,844 more editors' links that lead nowhere (a rebuild's report lists every one)");
    expect(lines[21]).toBe('removed from post:5@ru: 1 <script>');
    // One more than twenty is named, not counted as "1 more".
    expect(contentReportLines({ deadLinks: deadLinks.slice(0, 21), unavailableDocuments: [], removed: [] })).toHaveLength(21);
  });
});
