/**
 * Opens a photo group in GLightbox. The library and its styles are fetched on
 * the first click, never with the page (the photos are plain links to the
 * full pictures before that, and without JavaScript).
 *
 * What GLightbox 3 does itself is set through its options: no loop, the
 * drag-to-close distance, touch navigation, the buttons' labels (through
 * `lightboxHTML`, in the page's language). What it has no option for is added
 * here, small, through its API (`nextSlide`, `goToSlide`, events): a slideshow
 * button (3000 ms a photo; it never starts by itself), a strip of
 * thumbnails and a counter ("2 of 3") when the group has at least two photos, and a message in the
 * page's language on a photo that cannot be loaded (docs/rules.md, Lightbox) instead of a spinner
 * that never stops.
 *
 * It is a modal dialog: named by the photo it shows ("Photo 3 of 12: …"),
 * focus moves to its close button when it opens and back to the photo link
 * when it closes. The keyboard is handled here rather than by GLightbox, whose
 * Tab went forward only and into buttons placed off the screen: Tab and
 * Shift+Tab go round the buttons that can be seen and used, the arrows turn
 * the photos, Escape closes.
 */
import { LIGHTBOX } from '../../constants.ts';
import { format } from '../../i18n/format.ts';
import { iconHref } from '../../lib/icons.ts';
import type { MessageKey } from '../../i18n/t.ts';

/** The strings the lightbox shows, written into the page by the gallery (`data-lightbox-messages`). */
export const LIGHTBOX_MESSAGES = [
  'lightbox.play',
  'lightbox.pause',
  'lightbox.thumbnails',
  'lightbox.thumbnail',
  'lightbox.notFound',
  'lightbox.name',
  'lightbox.counter',
  'person.close',
  'carousel.previous',
  'carousel.next',
] as const satisfies readonly MessageKey[];
type Messages = Record<(typeof LIGHTBOX_MESSAGES)[number], string>;

type GLightboxFactory = typeof import('glightbox');
type Box = ReturnType<GLightboxFactory> & { index: number };
let factory: Promise<GLightboxFactory> | undefined;
let active: { box: Box; messages: Messages } | undefined;

function load(): Promise<GLightboxFactory> {
  factory ??= Promise.all([import('glightbox'), import('glightbox/dist/css/glightbox.min.css'), import('./lightbox.scss')]).then(
    ([m]) => (m as unknown as { default: GLightboxFactory }).default ?? m,
  );
  return factory;
}

function readMessages(): Messages {
  const raw = document.querySelector<HTMLElement>('[data-lightbox-messages]')?.dataset.lightboxMessages;
  return JSON.parse(raw ?? '{}') as Messages;
}

const escapeAttr = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

/**
 * A photo group's title as GLightbox's caption: GLightbox writes a title with innerHTML, and the title is
 * the API's text, so it goes in as text (an editor's "<a …>" shows as written, and is never a link).
 */
export const captionHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** GLightbox's own frame, a modal dialog with its buttons labelled in the page's language. */
function frame(m: Messages): string {
  return `<div id="glightbox-body" class="glightbox-container" tabindex="-1" role="dialog" aria-modal="true" aria-hidden="false">
<div class="gloader visible"></div><div class="goverlay"></div><div class="gcontainer">
<div id="glightbox-slider" class="gslider"></div>
<button type="button" class="gclose gbtn" aria-label="${escapeAttr(m['person.close'])}">{closeSVG}</button>
<button type="button" class="gprev gbtn" aria-label="${escapeAttr(m['carousel.previous'])}">{prevSVG}</button>
<button type="button" class="gnext gbtn" aria-label="${escapeAttr(m['carousel.next'])}">{nextSVG}</button>
</div></div>`;
}

const icon = (name: 'play' | 'pause') => `<svg class="icon" width="20" height="20" aria-hidden="true" focusable="false"><use href="${iconHref(name)}"></use></svg>`;

/** The slideshow button and the thumbnails, added to an open lightbox of two or more photos. */
function addControls(box: Box, group: HTMLAnchorElement[], m: Messages): () => void {
  const container = document.querySelector('.glightbox-container .gcontainer');
  if (!container || group.length < LIGHTBOX.minSlidesForThumbnails) return () => {};
  const bar = document.createElement('div');
  bar.className = 'glb-bar';

  const play = document.createElement('button');
  play.type = 'button';
  play.className = 'gbtn glb-play';
  bar.append(play);

  const thumbs = document.createElement('ul');
  thumbs.className = 'glb-thumbs';
  thumbs.setAttribute('aria-label', m['lightbox.thumbnails']);
  const buttons = group.map((a, i) => {
    const li = document.createElement('li');
    const b = document.createElement('button');
    b.type = 'button';
    b.className = 'gbtn glb-thumb';
    b.setAttribute('aria-label', format(m['lightbox.thumbnail'], { n: i + 1 }));
    const source = a.querySelector('img');
    const img = document.createElement('img');
    img.alt = '';
    img.src = source?.currentSrc || source?.src || a.href;
    b.append(img);
    b.addEventListener('click', () => {
      stop();
      box.goToSlide(i);
    });
    li.append(b);
    thumbs.append(li);
    return b;
  });
  bar.append(thumbs);
  // A click in the bar is never a click outside the photo that closes the lightbox.
  bar.addEventListener('click', (e) => e.stopPropagation());
  container.append(bar);

  // Which photo of how many, in sight: the dialog's name says it to a screen reader, so this is hidden from one.
  const counter = document.createElement('p');
  counter.className = 'glb-counter';
  counter.setAttribute('aria-hidden', 'true');
  container.append(counter);

  const mark = (index: number) => {
    buttons.forEach((b, i) => (i === index ? b.setAttribute('aria-current', 'true') : b.removeAttribute('aria-current')));
    counter.textContent = format(m['lightbox.counter'], { n: index + 1, total: group.length });
  };
  let timer: ReturnType<typeof setInterval> | undefined;
  play.innerHTML = icon('play');
  // Only the icon's reference changes: replacing the button's content under the pointer would leave the
  // click's target outside the lightbox, which GLightbox takes for a click outside and closes.
  const render = () => {
    play.querySelector('use')?.setAttribute('href', iconHref(timer ? 'pause' : 'play'));
    play.setAttribute('aria-label', timer ? m['lightbox.pause'] : m['lightbox.play']);
  };
  function stop() {
    clearInterval(timer);
    timer = undefined;
    render();
  }
  play.addEventListener('click', () => {
    if (timer) return stop();
    // The gallery does not loop (docs/rules.md, Lightbox): a slideshow started on the last photo starts again from the first.
    if (box.index >= group.length - 1) box.goToSlide(0);
    timer = setInterval(() => (box.index >= group.length - 1 ? stop() : box.nextSlide()), LIGHTBOX.slideshowDelayMs);
    render();
  });
  box.on('slide_changed', (({ current }: { current: { index: number } }) => mark(current.index)) as () => void);
  render();
  mark(box.index);
  return stop;
}

/** A photo that cannot be loaded: a message in the page's language instead of a spinner that never stops. */
function onImageError(event: Event): void {
  const img = event.target;
  if (!(img instanceof HTMLImageElement) || !active) return;
  const slide = img.closest('.gslide');
  const media = img.closest('.gslide-media');
  if (!slide || !media) return;
  const note = document.createElement('p');
  note.className = 'glb-error';
  note.setAttribute('role', 'alert');
  note.textContent = active.messages['lightbox.notFound'];
  img.replaceWith(note);
  const slides = [...(slide.parentElement?.children ?? [])];
  if (slides.indexOf(slide) === active.box.index) {
    document.querySelector('.glightbox-container .gloader')?.classList.remove('visible');
    (document.querySelector('.glightbox-container .gloader') as HTMLElement | null)?.style.setProperty('display', 'none');
    // GLightbox shows a slide only once its picture has loaded; show this one with its message.
    (active.box as unknown as { slideAnimateIn?(node: Element, first: boolean): void }).slideAnimateIn?.(slide, true);
  }
}

/**
 * A control Tab may stop at: shown, usable (not GLightbox's 'previous' on the first photo), and not
 * placed above or below the screen. (Sideways it may be: a thumbnail scrolled out of its strip comes
 * into sight when it takes focus.)
 */
function usable(el: HTMLElement): boolean {
  if (el.matches(':disabled, .disabled, [aria-disabled="true"]')) return false;
  // Not hidden by a style on the way up (Safari before 17.4 has no checkVisibility: the size below decides there).
  if (typeof el.checkVisibility === 'function' && !el.checkVisibility({ visibilityProperty: true })) return false;
  const r = el.getBoundingClientRect();
  return r.width > 0 && r.height > 0 && r.bottom > 0 && r.top < innerHeight;
}

/** Tab and Shift+Tab go round the dialog's usable controls, in the order they stand in, and never leave it. */
function cycleFocus(dialog: HTMLElement, backwards: boolean): void {
  const items = [...dialog.querySelectorAll<HTMLElement>('button, a[href], [tabindex="0"]')].filter(usable);
  const at = document.activeElement;
  const follows = (el: HTMLElement) => !!at && at !== el && Boolean(at.compareDocumentPosition(el) & Node.DOCUMENT_POSITION_FOLLOWING);
  const target = backwards ? ([...items].reverse().find((el) => el !== at && !follows(el)) ?? items[items.length - 1]) : (items.find(follows) ?? items[0]);
  (target ?? dialog).focus();
}

/**
 * The dialog's name says which photo it shows ("Photo 3 of 12: <the album's title>"), and 'previous' and
 * 'next' say when there is none, as GLightbox shows it (no loop).
 */
function describe(dialog: HTMLElement, index: number, group: HTMLAnchorElement[], m: Messages): void {
  const title = group[index]?.dataset.caption?.trim() ?? '';
  const name = format(m['lightbox.name'], { n: index + 1, total: group.length, title });
  dialog.setAttribute('aria-label', title ? name : name.replace(/[:\s]+$/, ''));
  dialog.querySelector('.gprev')?.setAttribute('aria-disabled', String(index === 0));
  dialog.querySelector('.gnext')?.setAttribute('aria-disabled', String(index === group.length - 1));
}

export function enhanceGalleries(root: ParentNode = document): void {
  // Errors of <img> do not bubble: listen in the capture phase.
  document.addEventListener('error', onImageError, true);
  root.addEventListener('click', (event) => {
    const link = (event.target as Element | null)?.closest<HTMLAnchorElement>('a[data-lightbox]');
    if (!link || event.defaultPrevented || (event as MouseEvent).ctrlKey || (event as MouseEvent).metaKey) return;
    event.preventDefault();
    const group = [...document.querySelectorAll<HTMLAnchorElement>(`a[data-lightbox="${CSS.escape(link.dataset.lightbox ?? '')}"]`)];
    const messages = readMessages();
    const reduced = matchMedia('(prefers-reduced-motion: reduce)').matches;
    void load().then((GLightbox) => {
      const box = GLightbox({
        // The package's typings declare `elements` as an empty tuple; the runtime takes slide objects.
        elements: group.map((a) => ({ href: a.href, type: 'image', title: captionHtml(a.dataset.caption ?? '') })) as unknown as [],
        startAt: group.indexOf(link),
        // The gallery does not wrap around (docs/rules.md, Lightbox); a drag of 150 px closes it.
        loop: false,
        dragToleranceY: LIGHTBOX.dragCloseDistancePx,
        touchNavigation: true,
        // The keys are handled below (see the top of this file).
        keyboardNavigation: false,
        lightboxHTML: frame(messages),
        openEffect: reduced ? 'none' : 'zoom',
        closeEffect: reduced ? 'none' : 'zoom',
      }) as Box;
      active = { box, messages };
      let stopSlideshow = () => {};
      const dialog = () => document.querySelector<HTMLElement>('.glightbox-container');
      // In the capture phase, and kept from the page behind: while the dialog is open, its keys are its own.
      const onKey = (e: KeyboardEvent) => {
        const open = dialog();
        if (!open || e.altKey || e.ctrlKey || e.metaKey) return;
        if (e.key === 'Tab') cycleFocus(open, e.shiftKey);
        else if (e.key === 'Escape') box.close();
        else if (e.key === 'ArrowRight') box.nextSlide();
        else if (e.key === 'ArrowLeft') box.prevSlide();
        else return;
        e.preventDefault();
        e.stopPropagation();
      };
      box.on('open', () => {
        stopSlideshow = addControls(box, group, messages);
        const open = dialog();
        if (open) {
          describe(open, box.index, group, messages);
          open.querySelector<HTMLElement>('.gclose')?.focus();
        }
        document.addEventListener('keydown', onKey, true);
      });
      box.on('slide_before_change', (({ current }: { current: { index: number } }) => {
        const open = dialog();
        if (open) describe(open, current.index, group, messages);
      }) as () => void);
      box.on('close', () => {
        document.removeEventListener('keydown', onKey, true);
        stopSlideshow();
        active = undefined;
        link.focus();
        // Each opening builds its own instance: destroy it once closed.
        setTimeout(() => box.destroy(), 0);
      });
      box.open();
    });
  });
}
