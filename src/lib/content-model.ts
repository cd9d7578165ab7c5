/**
 * Sanitised editor HTML made valid HTML. sanitize-html keeps the structure the editor's HTML had, and a
 * word processor's paste often breaks HTML's content models: a list item with no list, a table row with no
 * table, a paragraph inside bold text, a width of "100%", a link to "https://exa mple.com". Browsers repair
 * these silently, each its own way; a page must be valid HTML as built (the W3C checker runs over every
 * page), so the text is repaired here the way a reader would expect: a stray list item gets its list,
 * stray cells their row and table, inline formatting around a block gives way to the block, and an
 * attribute value HTML does not allow is left out. Nothing the editor wrote as text is lost.
 *
 * Only the element set of ./html-allowlist.ts (and the media and embed elements of ./editor-content.ts)
 * can reach here; anything else is left as it is.
 */
import render from 'dom-serializer';
import { Element, Text, type ChildNode, type ParentNode } from 'domhandler';
import { parseDocument } from 'htmlparser2';
import { ALLOWED_SCHEMES, IMG_SCHEMES, urlAllowed } from './html-allowlist.ts';

/** Elements whose content must be phrasing content (text and inline elements). */
const PHRASING_ONLY = new Set(['p', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'pre', 'span', 'strong', 'b', 'em', 'i', 'u', 's', 'sub', 'sup', 'small', 'mark', 'abbr', 'code']);
/** Elements that are phrasing content themselves: they may stand inside PHRASING_ONLY (`a` is transparent: see isFlowOnly). */
const PHRASING = new Set([...PHRASING_ONLY].filter((name) => !/^(p|h[1-6]|pre)$/.test(name)).concat(['a', 'img', 'br', 'video', 'audio', 'source']));
const TABLE_SECTIONS = new Set(['thead', 'tbody', 'tfoot']);
const CELLS = new Set(['td', 'th']);
/** What may stand directly in a table (besides whitespace). */
const TABLE_CHILDREN = new Set(['caption', 'colgroup', 'thead', 'tbody', 'tfoot', 'tr']);
const SCOPES = new Set(['row', 'col', 'rowgroup', 'colgroup']);
/** A language tag of the shape HTML's checker accepts: language, then optional script and region. */
const LANGUAGE_TAG = /^[a-z]{2,3}(?:-[a-z]{4})?(?:-(?:[a-z]{2}|\d{3}))?$/i;

const HEADING = /^h[1-6]$/;

const isElement = (node: ChildNode): node is Element => node instanceof Element;
const nestedHeadings = (el: Element): Element[] => el.children.filter(isElement).flatMap((c) => (HEADING.test(c.name) ? [c, ...nestedHeadings(c)] : nestedHeadings(c)));
const isBlank = (node: ChildNode) => node instanceof Text && !/\S/.test(node.data);
/** Whether an autonomous custom element (a hyphenated name): phrasing content, whatever it holds. */
const isCustom = (name: string) => name.includes('-');

const PARTS = new Set(['li', 'dt', 'dd', 'tr', 'td', 'th', 'thead', 'tbody', 'tfoot', 'caption']);
/** Whether `node` is inline formatting holding list items, terms or table parts directly. */
const wrapsParts = (node: ChildNode): boolean => isElement(node) && PHRASING_ONLY.has(node.name) && node.children.some((c) => isElement(c) && PARTS.has(c.name));

/** Whether `node` cannot stand where only phrasing content may: a block element, or a link holding one. */
function isFlowOnly(node: ChildNode): boolean {
  if (!isElement(node)) return false;
  if (node.name === 'a') return node.children.some(isFlowOnly);
  return !PHRASING.has(node.name) && !isCustom(node.name);
}

class Repair {
  changed = false;

  /** Repairs the children of `parent` (deepest first), then `parent`'s own children as a group. */
  node(parent: ParentNode): void {
    // Formatting wrapped round list items, terms or table parts (`<ul><b><li>`) goes first: else the parts would
    // get a list or table of their own inside it.
    for (let wrapper = parent.children.find(wrapsParts); wrapper; wrapper = parent.children.find(wrapsParts)) this.unwrap(wrapper as Element);
    for (const child of [...parent.children]) if (isElement(child)) this.element(child);
    this.group(parent);
  }

  private element(el: Element): void {
    this.attributes(el);
    // A heading inside a heading is text of the outer one, where it stands (a browser would split them); a table's
    // header cell, a term and a caption may hold no heading either.
    if (HEADING.test(el.name) || el.name === 'th' || el.name === 'dt' || el.name === 'caption') for (const inner of nestedHeadings(el)) this.unwrap(inner);
    this.node(el);
    if (!PHRASING_ONLY.has(el.name) || !el.children.some(isFlowOnly)) return;
    // A heading keeps its place in the outline: what it holds becomes its text (a heading inside it too).
    if (HEADING.test(el.name)) this.flatten(el);
    // Inline formatting around a block: the block stays, the formatting goes (a browser would split it oddly).
    else this.unwrap(el);
  }

  /** Blocks inside `el` give way to their content, a space between, until `el` holds only text and inline elements. */
  private flatten(el: Element): void {
    for (let block = el.children.find(isFlowOnly); block; block = el.children.find(isFlowOnly)) {
      if (isElement(block) && block.name === 'a') {
        this.flatten(block);
        continue;
      }
      const parent = block.parent!;
      const at = parent.children.indexOf(block);
      this.remove(block);
      const inside = (block as Element).children;
      this.insert(parent, at, inside.length ? [new Text(' '), ...inside, new Text(' ')] : []);
    }
  }

  /** The children of `parent` that HTML allows only in certain parents, each given or moved to one. */
  private group(parent: ParentNode): void {
    const name = isElement(parent as ChildNode) ? (parent as Element).name : '';
    if (name === 'ul' || name === 'ol') this.wrapRuns(parent, (n) => !(isElement(n) && n.name === 'li'), 'li');
    else this.wrapRuns(parent, (n) => isElement(n) && n.name === 'li', 'ul');
    if (name === 'dl') this.wrapRuns(parent, (n) => !(isElement(n) && (n.name === 'dt' || n.name === 'dd')), 'dd');
    else this.wrapRuns(parent, (n) => isElement(n) && (n.name === 'dt' || n.name === 'dd'), 'dl');
    if (name === 'table') this.table(parent as Element);
    else if (TABLE_SECTIONS.has(name)) this.wrapRuns(parent, (n) => isElement(n) && CELLS.has(n.name), 'tr');
    else if (name !== 'tr') {
      // Table parts with no table around them get one.
      this.wrapRuns(parent, (n) => isElement(n) && CELLS.has(n.name), 'tr');
      this.wrapRuns(parent, (n) => isElement(n) && (n.name === 'tr' || TABLE_SECTIONS.has(n.name)), 'table');
    }
    let figcaption = false;
    for (const child of parent.children) {
      if (!isElement(child)) continue;
      // A caption outside a table, or a figure's caption that is not its one caption, first or last, is a paragraph.
      if (child.name === 'caption' && name !== 'table') this.rename(child, 'p');
      if (child.name !== 'figcaption') continue;
      if (name === 'figure' && !figcaption && this.firstOrLastElement(parent, child)) figcaption = true;
      else this.rename(child, 'p');
    }
    if (name === 'tr') this.foster(parent as Element, (n) => isElement(n) && CELLS.has(n.name));
    if (TABLE_SECTIONS.has(name)) this.foster(parent as Element, (n) => isElement(n) && n.name === 'tr');
  }

  /** A table: cells get a row, one caption leads, and anything else goes before the table, as a browser puts it. */
  private table(table: Element): void {
    this.wrapRuns(table, (n) => isElement(n) && CELLS.has(n.name), 'tr');
    const captions = table.children.filter((n): n is Element => isElement(n) && n.name === 'caption');
    for (const extra of captions.slice(1)) {
      captions[0]!.children.push(new Text(' '), ...extra.children);
      this.remove(extra);
    }
    if (captions[0] && table.children.find(isElement) !== captions[0]) {
      this.remove(captions[0]);
      this.insert(table, 0, [captions[0]]);
    }
    this.foster(table, (n) => isElement(n) && TABLE_CHILDREN.has(n.name));
    this.columns(table);
  }

  /**
   * A ragged table made rectangular, as HTML's table model wants: short rows get empty cells at their end,
   * and a column in which no cell begins (only spanned by a wider cell) is taken out of that cell's span.
   */
  private columns(table: Element): void {
    const groups: Element[][] = [];
    let loose: Element[] = [];
    for (const child of table.children.filter(isElement)) {
      if (child.name === 'tr') loose.push(child);
      else if (TABLE_SECTIONS.has(child.name)) {
        if (loose.length) groups.push(loose);
        loose = [];
        groups.push(child.children.filter((n): n is Element => isElement(n) && n.name === 'tr'));
      }
    }
    if (loose.length) groups.push(loose);
    const span = (cell: Element, name: 'colspan' | 'rowspan') => Number(cell.attribs[name] ?? 1);
    /** Where each cell begins and how wide each row is, rowspans counted within their row group. */
    const layout = () => {
      const starts: { cell: Element; col: number }[] = [];
      const widths = new Map<Element, number>();
      for (const rows of groups) {
        const taken: number[] = [];
        rows.forEach((row, r) => {
          let col = 0;
          for (const cell of row.children.filter((n): n is Element => isElement(n) && CELLS.has(n.name))) {
            while ((taken[col] ?? -1) >= r) col++;
            starts.push({ cell, col });
            // A cell reaching past its row group ends with it.
            if (span(cell, 'rowspan') > rows.length - r) this.setSpan(cell, 'rowspan', rows.length - r);
            const down = span(cell, 'rowspan') === 0 ? rows.length : span(cell, 'rowspan');
            for (let c = col; c < col + span(cell, 'colspan'); c++) taken[c] = Math.max(taken[c] ?? -1, r + down - 1);
            col += span(cell, 'colspan');
          }
          widths.set(
            row,
            taken.reduce((w, last, c) => (last >= r ? c + 1 : w), 0),
          );
        });
      }
      return { starts, widths };
    };
    for (;;) {
      const { starts, widths } = layout();
      const width = Math.max(0, ...widths.values());
      const begun = new Set(starts.map((s) => s.col));
      const unbegun = [...Array(width).keys()].find((c) => !begun.has(c));
      if (unbegun === undefined) {
        for (const [row, w] of widths)
          if (w < width)
            this.append(
              row,
              Array.from({ length: width - w }, () => new Element('td', {}, [])),
            );
        return;
      }
      for (const { cell, col } of starts) {
        if (col < unbegun && col + span(cell, 'colspan') > unbegun) {
          this.setSpan(cell, 'colspan', span(cell, 'colspan') - 1);
        }
      }
    }
  }

  /** Children of a table part that `allowed` refuses (text included) move before the table that holds it. */
  private foster(part: Element, allowed: (node: ChildNode) => boolean): void {
    const strays = part.children.filter((n) => !allowed(n) && !isBlank(n));
    if (!strays.length) return;
    let table: Element = part;
    while (table.name !== 'table' && table.parent && isElement(table.parent as ChildNode)) table = table.parent as Element;
    const host = table.parent;
    for (const stray of strays) this.remove(stray);
    // A table part with no table (cannot happen after group()) keeps nothing it cannot hold: its strays go before it.
    if (host) this.insert(host, host.children.indexOf(table), strays);
  }

  /** Wraps each run of consecutive children that `inRun` takes (blank text between them included) in a new `name`. */
  private wrapRuns(parent: ParentNode, inRun: (node: ChildNode) => boolean, name: string): void {
    for (const wrapper of this.wrapped(parent, inRun, name)) if (name === 'table') this.table(wrapper);
  }

  private wrapped(parent: ParentNode, inRun: (node: ChildNode) => boolean, name: string): Element[] {
    const made: Element[] = [];
    const children = parent.children;
    for (let i = 0; i < children.length; i++) {
      if (!inRun(children[i]!) || isBlank(children[i]!)) continue;
      let end = i + 1;
      while (end < children.length && (inRun(children[end]!) || isBlank(children[end]!))) end++;
      while (end > i + 1 && isBlank(children[end - 1]!)) end--;
      const run = children.slice(i, end);
      const wrapper = new Element(name, {}, []);
      for (const node of run) this.remove(node);
      this.insert(parent, i, [wrapper]);
      this.append(wrapper, run);
      made.push(wrapper);
    }
    return made;
  }

  private firstOrLastElement(parent: ParentNode, child: Element): boolean {
    const elements = parent.children.filter(isElement);
    return elements[0] === child || elements.at(-1) === child;
  }

  /** Attribute values HTML does not allow are left out; addresses with spaces are written as a browser sends them. */
  private attributes(el: Element): void {
    const a = el.attribs;
    const drop = (name: string) => {
      delete a[name];
      this.changed = true;
    };
    const digits = (name: string, min: number, max: number) => {
      if (a[name] !== undefined && !(/^\d+$/.test(a[name]!) && Number(a[name]) >= min && Number(a[name]) <= max)) drop(name);
    };
    if (el.name === 'img') {
      digits('width', 0, 100_000);
      digits('height', 0, 100_000);
    }
    if (CELLS.has(el.name)) {
      digits('colspan', 1, 1000);
      digits('rowspan', 0, 65534);
    }
    if (el.name === 'ol' && a.start !== undefined && !/^-?\d+$/.test(a.start)) drop('start');
    if (el.name === 'th' && a.scope !== undefined && !SCOPES.has(a.scope)) drop('scope');
    if (a.lang !== undefined && a.lang !== '' && !LANGUAGE_TAG.test(a.lang)) drop('lang');
    for (const name of ['href', 'src'] as const) {
      const value = a[name];
      if (value === undefined) continue;
      // Only the spaces a browser itself ignores or escapes: a no-break space or another Unicode space before
      // "javascript:" is what let the address past the sanitiser's scheme check, and must stay in front of it.
      // eslint-disable-next-line no-control-regex -- the control characters are what this removes
      const spaced = value.replace(/^[\x00-\x20]+|[\x00-\x20]+$/g, '').replace(/[\t\n\f\r ]/g, '%20');
      if (spaced !== value) {
        a[name] = spaced;
        this.changed = true;
      }
      // Checked again as the sanitiser checks it, now that it is final; and a web address with no host, or one no
      // browser can read: the link is kept as text, the picture goes.
      const refused = !urlAllowed(spaced, el.name === 'a' ? ALLOWED_SCHEMES : IMG_SCHEMES) || (/^https?:/i.test(spaced) && !(URL.canParse(spaced) && new URL(spaced).host));
      if (refused) {
        if (el.name === 'a') for (const gone of ['href', 'target', 'rel']) drop(gone);
        else this.remove(el);
      }
    }
  }

  private setSpan(cell: Element, name: 'colspan' | 'rowspan', value: number): void {
    if (value > 1) cell.attribs[name] = String(value);
    else delete cell.attribs[name];
    this.changed = true;
  }

  private unwrap(el: Element): void {
    const parent = el.parent!;
    const at = parent.children.indexOf(el);
    this.remove(el);
    this.insert(parent, at, el.children);
  }

  private rename(el: Element, name: string): void {
    el.name = name;
    this.changed = true;
  }

  private remove(node: ChildNode): void {
    const parent = node.parent;
    if (!parent) return;
    parent.children.splice(parent.children.indexOf(node), 1);
    node.parent = node.prev = node.next = null;
    relink(parent);
    this.changed = true;
  }

  private insert(parent: ParentNode, at: number, nodes: ChildNode[]): void {
    parent.children.splice(at, 0, ...nodes);
    for (const node of nodes) node.parent = parent;
    relink(parent);
    this.changed = true;
  }

  private append(parent: ParentNode, nodes: ChildNode[]): void {
    this.insert(parent, parent.children.length, nodes);
  }
}

function relink(parent: ParentNode): void {
  parent.children.forEach((node, i, all) => {
    node.prev = all[i - 1] ?? null;
    node.next = all[i + 1] ?? null;
  });
}

/**
 * `html` (sanitised) with HTML's content models kept; the very same string when it already keeps them.
 * Written as sanitize-html writes (`<br />`, `alt=""`), so that sanitising the result again changes nothing but
 * the spelling of an empty attribute (`data-editor-link=""` for `data-editor-link`).
 */
export function keepContentModel(html: string): string {
  if (!html.includes('<')) return html;
  const doc = parseDocument(html, { decodeEntities: false });
  const repair = new Repair();
  repair.node(doc);
  return repair.changed ? render(doc, { decodeEntities: false, encodeEntities: false, emptyAttrs: true, selfClosingTags: true }) : html;
}
