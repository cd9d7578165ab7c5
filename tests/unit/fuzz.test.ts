/**
 * Random and malformed input against the response validators and the
 * sanitiser: they never throw an uncaught error, and nothing that runs script
 * survives sanitising.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createApiClient } from '../../src/api/client.ts';
import { sanitize } from '../../src/lib/sanitize.ts';

/** A client whose server answers with whatever body the property gives. */
function clientAnswering(body: unknown) {
  return createApiClient({
    baseUrl: 'http://api.test',
    retries: 0,
    onWarning: () => {},
    fetch: async () => new Response(typeof body === 'string' ? body : JSON.stringify(body), { status: 200 }),
  });
}

const anyJson = fc.jsonValue({ maxDepth: 4 });
const postLike = fc.record(
  {
    id: fc.oneof(fc.integer(), fc.string(), fc.constant(null)),
    title: fc.oneof(fc.string(), fc.integer(), fc.constant(undefined)),
    berifDescription: fc.oneof(fc.string(), fc.constant(null)),
    description: fc.oneof(fc.string(), fc.integer()),
    imageUrl: fc.oneof(fc.string(), fc.constant(null)),
    date: fc.oneof(
      fc.string(),
      fc.date().map((d) => (Number.isNaN(d.getTime()) ? 'x' : d.toISOString())),
    ),
    countViews: fc.oneof(fc.integer(), fc.string(), fc.double()),
  },
  { requiredKeys: [] },
);

describe('validators never throw anything but the client error', () => {
  it('lists, details, menus and search take any JSON', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          anyJson,
          fc.record({ success: fc.boolean(), data: fc.record({ list: fc.array(postLike), maxPageNumber: fc.integer(), currentPageNumber: fc.integer() }) }),
          fc.record({ data: fc.array(postLike) }),
          fc.record({ data: postLike }),
        ),
        async (body) => {
          const client = clientAnswering(body);
          for (const call of [
            () => client.postList(1, 1),
            () => client.post(1, 1),
            () => client.menus(2),
            () => client.surveys(3),
            () => client.search('q', 4),
            () => client.photoGroups(1),
            () => client.employees(1, 1),
          ]) {
            try {
              const result = await call();
              // Whatever was accepted has the domain's shape.
              if (Array.isArray(result)) for (const item of result) expect(item).toBeTypeOf('object');
            } catch (err) {
              expect((err as Error).name).toBe('ApiError');
            }
          }
        },
      ),
      { numRuns: 150 },
    );
  });

  it('unreadable bodies are client errors, not crashes', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string(), async (text) => {
        await clientAnswering(text)
          .videos(1)
          .then(
            (v) => expect(Array.isArray(v)).toBe(true),
            (err: Error) => expect(err.name).toBe('ApiError'),
          );
      }),
      { numRuns: 200 },
    );
  });
});

/** Pieces of hostile markup, shuffled together with ordinary text and tags. */
const hostilePiece = fc.constantFrom(
  '<script>alert(1)</script>',
  '<img src=x onerror=alert(2)>',
  '<a href="javascript:alert(3)">x</a>',
  '<a href="jav&#x09;ascript:alert(3)">x</a>',
  '<svg onload=alert(4)>',
  '<iframe src="//evil">',
  '<p style="x" onclick="alert(5)">',
  '<div onmouseover=alert(6)>',
  '<scr<script>ipt>alert(7)</script>',
  '<a href="data:text/html,<script>alert(8)</script>">',
  '<math><mi xlink:href="javascript:alert(9)">',
  '<object data=x>',
  '<<script>script>',
  '"><script>',
  '<img src="x" srcset="javascript:alert(10)">',
);
const ordinary = fc.constantFrom('<p>', '</p>', '<b>', 'matn', ' ', '<table><tr><td>1</td></tr></table>', '<a href="/news/1">', '</a>', '&amp;', 'Қоракўл');

describe('sanitiser', () => {
  it('lets nothing that runs through, whatever the mix', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(hostilePiece, ordinary, fc.string()), { maxLength: 30 }), (pieces) => {
        const once = sanitize(pieces.join(''));
        // Also after a second pass: output re-parsed by a browser must not become hostile either.
        for (const out of [once, sanitize(once)]) {
          expect(out).not.toMatch(/<(script|iframe|object|embed|svg|math|style|form)\b/i);
          expect(out).not.toMatch(/\son[a-z]+\s*=/i);
          expect(out).not.toMatch(/(href|src|srcset)\s*=\s*"\s*(javascript|data|vbscript):/i);
        }
      }),
      { numRuns: 500 },
    );
  });
});

/** Headings of any level, opened and closed in any order, among text and other tags. */
const headingPiece = fc.oneof(
  fc.integer({ min: 1, max: 6 }).map((n) => `<h${n}>`),
  fc.integer({ min: 1, max: 6 }).map((n) => `</h${n}>`),
  fc.constantFrom('Sarlavha', 'Заголовок', ' ', '&nbsp;', '<br>', '<p>', '</p>', '<strong>', '</strong>', '<span>', '</span>', '<pre>', '</pre>'),
);

describe('headings after sanitising', () => {
  it('start at the given level, never skip one, never nest and are never empty, whatever the editor wrote', () => {
    fc.assert(
      fc.property(fc.array(headingPiece, { maxLength: 40 }), fc.integer({ min: 2, max: 4 }), (pieces, top) => {
        const out = sanitize(pieces.join(''), { topHeading: top });
        const tags = [...out.matchAll(/<(\/?)h([1-6])\b[^>]*>/g)];
        let previous = top - 1;
        let depth = 0;
        for (const [, closing, n] of tags) {
          if (closing) {
            depth--;
            continue;
          }
          const level = Number(n);
          expect(depth).toBe(0);
          expect(level).toBeGreaterThanOrEqual(top);
          expect(level).toBeLessThanOrEqual(Math.min(6, previous + 1));
          previous = level;
          depth++;
        }
        expect(out).not.toMatch(/<h[1-6][^>]*>(\s|&nbsp;|<br \/>)*<\/h[1-6]>/);
        expect(sanitize(out, { topHeading: top })).toBe(out);
      }),
      { numRuns: 500 },
    );
  });
});
