/**
 * What a citizen on any screen must be able to do, checked inside the page: every control can be brought into
 * view and is then not under something else, nothing scrolls sideways, focus never lands where it cannot be
 * seen, and text and focus rings keep their contrast. Each function runs in the browser (page.evaluate) and
 * returns the problems it found as sentences, so a failing test says what a visitor would meet.
 */
import type { Page } from '@playwright/test';

/** Everything a visitor can press or type into. */
const CONTROLS = 'a[href], button, input:not([type="hidden"]), select, textarea, summary, [tabindex]:not([tabindex="-1"]), [role="button"]';

/** Helpers defined in the page once; the audits below call them through `window.__audit`. */
function installHelpers() {
  const w = window as unknown as { __audit?: unknown };
  if (w.__audit) return;
  const name = (el: Element | null): string => {
    if (!el) return 'nothing';
    const h = el as HTMLElement;
    const label = (h.getAttribute('aria-label') ?? h.innerText ?? h.textContent ?? '').replace(/\s+/g, ' ').trim().slice(0, 40);
    const cls = typeof h.className === 'string' && h.className ? `.${h.className.trim().split(/\s+/)[0]}` : '';
    return `<${el.tagName.toLowerCase()}${h.id ? `#${h.id}` : ''}${cls}>${label ? ` "${label}"` : ''}`;
  };
  const parse = (c: string): [number, number, number, number] | null => {
    const m = /rgba?\(([\d.]+)[ ,]+([\d.]+)[ ,]+([\d.]+)(?:[ ,/]+([\d.]+%?))?\)/.exec(c);
    if (!m) return null;
    const a = m[4] === undefined ? 1 : m[4].endsWith('%') ? parseFloat(m[4]) / 100 : parseFloat(m[4]);
    return [+m[1]!, +m[2]!, +m[3]!, a];
  };
  const over = (top: number[], under: number[]) => [0, 1, 2].map((i) => top[i]! * top[3]! + under[i]! * (1 - top[3]!));
  const luminance = (rgb: number[]) => {
    const [r, g, b] = rgb.map((v) => {
      const s = v / 255;
      return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
  };
  const contrast = (a: number[], b: number[]) => {
    const [x, y] = [luminance(a), luminance(b)].sort((p, q) => q - p);
    return (x! + 0.05) / (y! + 0.05);
  };
  /** The opaque colour behind an element, from its own background up; null over a picture or gradient. */
  const background = (start: Element | null): number[] | null => {
    const layers: number[][] = [];
    for (let el = start; el; el = el.parentElement) {
      const style = getComputedStyle(el);
      if (style.backgroundImage !== 'none') return null;
      const c = parse(style.backgroundColor);
      if (c && c[3] > 0) {
        layers.push(c);
        if (c[3] >= 0.99) break;
      }
    }
    let rgb = [255, 255, 255];
    for (const layer of layers.reverse()) rgb = over(layer, rgb);
    return rgb;
  };
  const opacity = (el: Element | null) => {
    let o = 1;
    for (; el; el = el.parentElement) o *= parseFloat(getComputedStyle(el).opacity);
    return o;
  };
  const shown = (el: Element) => {
    const r = el.getBoundingClientRect();
    return r.width * r.height > 4 && el.checkVisibility({ opacityProperty: true, visibilityProperty: true }) && !el.closest('[inert], [aria-hidden="true"]');
  };
  /**
   * The part of a box that can be seen: cut by every ancestor that clips its overflow (a title cut to three
   * lines shows only those lines, and the browser scrolls just those into view).
   */
  const clipped = (el: Element, box: DOMRect) => {
    let { left, top, right, bottom } = box;
    for (let e = el.parentElement; e && e !== document.body && e !== document.documentElement; e = e.parentElement) {
      const s = getComputedStyle(e);
      const c = e.getBoundingClientRect();
      if (s.overflowX !== 'visible') [left, right] = [Math.max(left, c.left), Math.min(right, c.right)];
      if (s.overflowY !== 'visible') [top, bottom] = [Math.max(top, c.top), Math.min(bottom, c.bottom)];
      if (s.position === 'fixed') break;
    }
    return { left, top, right, bottom, width: Math.max(0, right - left), height: Math.max(0, bottom - top) };
  };
  const seen = (el: Element) => clipped(el, el.getBoundingClientRect());
  /** What lies over the element's centre, or null when the element (or a label of it) is there. */
  const coveredBy = (el: Element): Element | null => {
    // A link that wraps onto two lines is tapped on its words: the middle of its first line, not of its box.
    const r = clipped(el, el.getClientRects()[0] ?? el.getBoundingClientRect());
    const x = Math.min(Math.max(r.left + r.width / 2, 0), innerWidth - 1);
    const y = Math.min(Math.max(r.top + r.height / 2, 0), innerHeight - 1);
    const at = document.elementFromPoint(x, y);
    if (!at || el === at || el.contains(at)) return null;
    const labels = (el as HTMLInputElement).labels;
    if (labels && [...labels].some((l) => l.contains(at))) return null;
    return at;
  };
  const outside = (el: Element) => {
    const r = seen(el);
    const cy = r.top + r.height / 2;
    return (
      r.width * r.height < 1 ||
      r.left < -1 ||
      r.right > innerWidth + 1 ||
      cy < 0 ||
      cy > innerHeight ||
      // Whole when it fits with room to spare (the sticky bar takes the top); a taller one, its middle.
      (r.height <= 0.8 * innerHeight && (r.top < -1 || r.bottom > innerHeight + 1))
    );
  };
  // Focus may scroll the page smoothly, and the page answers a scroll (the menu bar sticks) in the frame after
  // it: look once the focused element and the page have stood still for a frame, as a visitor sees them.
  const atRest = async () => {
    for (let last = -1, frames = 0; frames < 60; frames++) {
      await new Promise((done) => requestAnimationFrame(done));
      const at = scrollY + scrollX * 1e6 + (document.activeElement?.getBoundingClientRect().top ?? 0);
      if (at === last) break;
      last = at;
    }
  };
  w.__audit = { name, parse, over, contrast, background, opacity, shown, coveredBy, outside, seen, atRest };
}

type Helpers = {
  name(el: Element | null): string;
  parse(c: string): [number, number, number, number] | null;
  over(top: number[], under: number[]): number[];
  contrast(a: number[], b: number[]): number;
  background(el: Element | null): number[] | null;
  opacity(el: Element | null): number;
  shown(el: Element): boolean;
  coveredBy(el: Element): Element | null;
  outside(el: Element): boolean;
  seen(el: Element): { left: number; top: number; width: number; height: number };
  atRest(): Promise<void>;
};

/**
 * Every control inside `root` (the whole page when null), each scrolled to the middle of the screen (a
 * control in a fixed layer is looked at where it is): it must lie inside the screen and be what a tap at its
 * centre reaches. A control that is hidden until it is focused (the skip link) is focused and looked at.
 * And the page must not scroll sideways.
 */
export async function controlProblems(page: Page, root: string | null): Promise<string[]> {
  await page.evaluate(installHelpers);
  return page.evaluate(
    ({ root, selector }) => {
      const a = (window as unknown as { __audit: Helpers }).__audit;
      const problems: string[] = [];
      const sideways = document.documentElement.scrollWidth - document.documentElement.clientWidth;
      if (sideways > 1) problems.push(`the page scrolls sideways by ${sideways} px`);
      const scope = root ? document.querySelector(root) : document;
      if (!scope) return [`${root} is not on the page`];
      const startX = scrollX;
      const startY = scrollY;
      for (const el of scope.querySelectorAll<HTMLElement>(selector)) {
        if (!a.shown(el)) continue;
        el.scrollIntoView({ block: 'center', inline: 'nearest', behavior: 'instant' });
        if (a.outside(el) && el.matches(':not(:focus)')) {
          // Shown only while focused, like the skip link: then it must come into view.
          el.focus({ preventScroll: false });
          const inView = !a.outside(el);
          el.blur();
          if (inView) continue;
        }
        if (a.outside(el)) {
          const r = a.seen(el);
          problems.push(`${a.name(el)} lies outside the screen (${Math.round(r.left)},${Math.round(r.top)} ${Math.round(r.width)}×${Math.round(r.height)})`);
          continue;
        }
        const cover = a.coveredBy(el);
        if (cover) problems.push(`${a.name(el)} is under ${a.name(cover)}`);
      }
      scrollTo({ left: startX, top: startY, behavior: 'instant' });
      return problems;
    },
    { root, selector: CONTROLS },
  );
}

/**
 * The focused element after a Tab: it must be in view and not under anything (WCAG 2.4.11), and drawn with a
 * focus indicator of at least 3:1 against what is behind it. Returns the problem, or null; `done` when focus
 * has left the page or come back round to where the walk began.
 */
export async function focusProblem(page: Page): Promise<{ done: boolean; problem: string | null }> {
  await page.evaluate(installHelpers);
  return page.evaluate(async () => {
    const a = (window as unknown as { __audit: Helpers; __walk?: WeakSet<Element> }).__audit;
    await a.atRest();
    const w = window as unknown as { __walk?: WeakSet<Element> };
    let el = document.activeElement;
    while (el?.shadowRoot?.activeElement) el = el.shadowRoot.activeElement;
    if (!el || el === document.body || el === document.documentElement) return { done: true, problem: null };
    w.__walk ??= new WeakSet();
    if (w.__walk.has(el)) return { done: true, problem: null };
    w.__walk.add(el);
    if (el.tagName === 'IFRAME') return { done: false, problem: null };
    if (!a.shown(el)) return { done: false, problem: `focus is on ${a.name(el)}, which cannot be seen` };
    if (a.outside(el)) return { done: false, problem: `focus is on ${a.name(el)}, outside the screen` };
    const cover = a.coveredBy(el);
    if (cover) return { done: false, problem: `focus is on ${a.name(el)}, under ${a.name(cover)}` };
    // The indicator is whatever focus changed: the element's outline, shadow, border or background, or that of
    // a pseudo-element or a close ancestor (a card ringed while its link has focus). Read focused, then not.
    const targets: [Element, string | null][] = [];
    for (let e: Element | null = el, depth = 0; e && depth < 4; e = e.parentElement, depth++) {
      for (const pseudo of [null, '::before', '::after']) targets.push([e, pseudo]);
    }
    const read = () =>
      targets.map(([e, pseudo]) => {
        const s = getComputedStyle(e, pseudo);
        return {
          outline: s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) >= 1 ? s.outlineColor : '',
          shadow: s.boxShadow,
          border: s.borderStyle !== 'none' && parseFloat(s.borderWidth) >= 1 ? s.borderColor : '',
          background: s.backgroundColor,
          decoration: `${s.textDecorationLine} ${s.textDecorationColor}`,
          colour: s.color,
        };
      });
    // Unfocused for a moment with its focus events held back: the page's own handlers (a form that checks a
    // field when it is left) must not see the look, or the walk would change what it walks.
    const hush = (event: Event) => event.stopImmediatePropagation();
    const events = ['blur', 'focusout', 'focus', 'focusin'];
    for (const type of events) window.addEventListener(type, hush, true);
    const focused = read();
    (el as HTMLElement).blur();
    const plain = read();
    (el as HTMLElement).focus({ preventScroll: true });
    for (const type of events) window.removeEventListener(type, hush, true);
    const colours: { colour: number[]; against: Element | null }[] = [];
    focused.forEach((f, i) => {
      const p = plain[i]!;
      const [e] = targets[i]!;
      const add = (c: string) => {
        const rgb = a.parse(c);
        if (rgb && rgb[3] > 0) colours.push({ colour: rgb, against: e.parentElement });
      };
      if (f.outline && f.outline !== p.outline) add(f.outline);
      if (f.shadow !== p.shadow) for (const m of f.shadow.matchAll(/rgba?\([^)]*\)/g)) add(m[0]);
      if (f.border && f.border !== p.border) for (const m of f.border.matchAll(/rgba?\([^)]*\)/g)) add(m[0]);
      if (f.background !== p.background) add(f.background);
    });
    // An underline or colour change alone is not an indicator that stands out; a ring, edge or fill is.
    if (!colours.length) return { done: false, problem: `${a.name(el)} shows no focus indicator` };
    const ratios = colours.map(({ colour, against }) => {
      const behind = a.background(against);
      return behind ? a.contrast(a.over(colour, behind), behind) : Infinity;
    });
    const best = Math.max(...ratios);
    if (best < 3) return { done: false, problem: `${a.name(el)}'s focus indicator is ${best.toFixed(2)}:1 against what is behind it` };
    return { done: false, problem: null };
  });
}

/**
 * The focused control against the site's two bars, more strictly than focusProblem (which looks at its centre):
 * what hides it, or null when it is in sight. The cookie bar or the stuck menu bar over any part of it, or the
 * edges of the screen, hide it; a control taller than the room between the two bars (less the scroll padding
 * beside each) is in sight when it fills that room, and a control inside either bar is in sight.
 */
export async function focusUnderBars(page: Page): Promise<string | null> {
  await page.evaluate(installHelpers);
  return page.evaluate(async () => {
    const a = (window as unknown as { __audit: Helpers }).__audit;
    await a.atRest();
    const el = document.activeElement as HTMLElement | null;
    if (!el || el === document.body || el.tagName === 'MAIN') return null;
    // What of it can be seen at all: a title cut after some lines is clipped by its heading.
    const r = a.seen(el);
    if (!el.getBoundingClientRect().width || r.height <= 0) return null;
    const bar = document.querySelector<HTMLElement>('[data-cookie-bar]')!;
    const nav = document.querySelector<HTMLElement>('[data-nav-bar]')!;
    if (bar.contains(el) || nav.contains(el)) return null;
    const top = nav.classList.contains('is-stuck') ? nav.getBoundingClientRect().bottom : 0;
    const bottom = bar.checkVisibility() ? bar.getBoundingClientRect().top : innerHeight;
    const bottomOfEl = r.top + r.height;
    const shown = Math.min(bottomOfEl, bottom) - Math.max(r.top, top);
    // The scroll padding leaves --space-2 (8 px) beside each bar.
    if (shown >= Math.min(r.height, bottom - top - 16) - 1) return null;
    const where = shown <= 0 ? 'hidden' : r.top < top ? 'under the sticky bar' : bottomOfEl > bottom ? 'under the cookie bar' : 'cut';
    return `${a.name(el)}: ${where} (${Math.round(Math.max(0, shown))} of ${Math.round(r.height)} px shown)`;
  });
}

/** Resets the walk's memory, so the next Tab walk starts afresh. */
export const startWalk = (page: Page) => page.evaluate(() => delete (window as unknown as { __walk?: unknown }).__walk);

/**
 * Tab (or Shift+Tab) through the page from where focus is, at most `limit` stops, and every stop where focus
 * cannot be seen or has no indicator that stands out. Walk forward on a freshly loaded page: the other audits
 * move the browser's starting point for Tab.
 */
export async function tabWalk(page: Page, key: 'Tab' | 'Shift+Tab', limit: number): Promise<string[]> {
  await startWalk(page);
  const problems: string[] = [];
  for (let stop = 1; stop <= limit; stop++) {
    await page.keyboard.press(key);
    const { done, problem } = await focusProblem(page);
    if (done) break;
    if (problem) problems.push(`${key} ${stop}: ${problem}`);
  }
  return problems;
}

/**
 * The focus problems of each shown element `selector` matches, each reached by keyboard in turn (Shift+Tab
 * and Tab from it): for controls a short walk may not reach.
 */
export async function focusProblemsOn(page: Page, selector: string): Promise<string[]> {
  const problems: string[] = [];
  for (const element of await page.locator(selector).all()) {
    if (!(await element.isVisible())) continue;
    await element.focus();
    await page.keyboard.press('Shift+Tab');
    await startWalk(page);
    await page.keyboard.press('Tab');
    const { problem } = await focusProblem(page);
    if (problem) problems.push(problem);
  }
  return problems;
}

/**
 * Text inside `root` (the page when null) that falls below 4.5:1 against the colour behind it (3:1 for large
 * text), after the colour's own transparency and the element's opacity. Text over a picture or gradient is
 * left to the eye. Reports the first few, and how many there are.
 */
export async function contrastProblems(page: Page, root: string | null): Promise<string[]> {
  await page.evaluate(installHelpers);
  return page.evaluate((root) => {
    const a = (window as unknown as { __audit: Helpers }).__audit;
    const scope = root ? document.querySelector(root) : document.body;
    if (!scope) return [`${root} is not on the page`];
    const problems: string[] = [];
    const walker = document.createTreeWalker(scope, NodeFilter.SHOW_TEXT);
    const seen = new Set<Element>();
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const el = node.parentElement;
      if (!el || seen.has(el) || !node.textContent?.trim()) continue;
      seen.add(el);
      if (el.closest('svg, script, style, noscript, template, iframe') || !a.shown(el)) continue;
      // A control that cannot be used yet (disabled, or waiting for its script) has no contrast requirement (WCAG 1.4.3).
      if (el.closest(':disabled, [aria-disabled="true"]')) continue;
      const r = el.getBoundingClientRect();
      if (r.width <= 1 || r.height <= 1) continue;
      const style = getComputedStyle(el);
      const fg = a.parse(style.color);
      const bg = a.background(el);
      if (!fg || !bg) continue;
      const alpha = fg[3] * a.opacity(el);
      const shownColour = a.over([fg[0], fg[1], fg[2], alpha], bg);
      const size = parseFloat(style.fontSize);
      const large = size >= 24 || (size >= 18.66 && parseInt(style.fontWeight, 10) >= 700);
      const ratio = a.contrast(shownColour, bg);
      if (ratio < (large ? 3 : 4.5) - 0.01) problems.push(`${a.name(el)}: text at ${ratio.toFixed(2)}:1 (${style.color} on rgb(${bg.map(Math.round).join(',')}))`);
    }
    return problems.length > 5 ? [...problems.slice(0, 5), `… and ${problems.length - 5} more`] : problems;
  }, root);
}

/**
 * Words that break across lines inside `selector`'s elements, and elements whose text runs past their box. A word may
 * end a line after its own hyphen or dash ("Qoʻllab-" / "quvvatlamayman", "10–" / "12"), never inside a part: without hyphenation
 * dictionaries for Uzbek, a break inside a word shows no hyphen and reads as two words.
 */
export async function splitWords(page: Page, selector: string): Promise<string[]> {
  return page.locator(selector).evaluateAll((elements) => {
    const broken: string[] = [];
    for (const element of elements) {
      if (!element.checkVisibility()) continue;
      const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        for (const m of node.textContent!.matchAll(/[^\s\-–—]+[-–—]?/g)) {
          const range = document.createRange();
          range.setStart(node, m.index);
          range.setEnd(node, m.index + m[0].length);
          const tops = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
          if (tops.size > 1) broken.push(m[0]);
        }
      }
      if (element.scrollWidth > element.clientWidth + 1) broken.push(`overflow: ${element.textContent?.trim()}`);
    }
    return broken;
  });
}

/** Visible text set smaller than `minPx` (WCAG sets no minimum; 16 px is what a phone user reads without zooming). */
export async function smallText(page: Page, minPx: number): Promise<string[]> {
  return page.evaluate((minPx) => {
    const small = new Set<string>();
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const el = node.parentElement;
      if (!el || !node.textContent?.trim() || el.closest('svg, script, style, noscript, template, .visually-hidden') || !el.checkVisibility()) continue;
      const size = parseFloat(getComputedStyle(el).fontSize);
      if (size < minPx - 0.01) small.add(`${el.tagName.toLowerCase()}.${[...el.classList].join('.')} "${node.textContent.trim().slice(0, 30)}" at ${size} px`);
    }
    return [...small].slice(0, 8);
  }, minPx);
}
