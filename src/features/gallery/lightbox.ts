/**
 * Opens a photo group in GLightbox. The library and its styles are fetched on
 * the first click, never with the page (the photos are plain links to the
 * full pictures before that, and without JavaScript).
 *
 * What GLightbox 3 does itself is set through its options: no loop, the
 * drag-to-close distance, keyboard and touch navigation, the buttons' labels
 * (through `lightboxHTML`, in the page's language). What it has no option for
 * is added here, small, through its API (`nextSlide`, `goToSlide`, events):
 * a slideshow button (§9: 3000 ms a photo; it never starts by itself), a strip
 * of thumbnails when the group has at least two photos, and a message in the
 * page's language on a photo that cannot be loaded (§8) instead of a spinner
 * that never stops. The added buttons join GLightbox's own tab order
 * (`.gbtn[data-taborder]`), so focus stays inside the lightbox.
 */
import { LIGHTBOX } from '../../constants.ts';
import { format } from '../../i18n/format.ts';
import type { MessageKey } from '../../i18n/t.ts';

/** The strings the lightbox shows, written into the page by the gallery (`data-lightbox-messages`). */
export const LIGHTBOX_MESSAGES = [
  'lightbox.play',
  'lightbox.pause',
  'lightbox.thumbnails',
  'lightbox.thumbnail',
  'lightbox.notFound',
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
  factory ??= Promise.all([import('glightbox'), import('glightbox/dist/css/glightbox.min.css'), import('./lightbox.css')]).then(([m]) => (m as unknown as { default: GLightboxFactory }).default ?? m);
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

/** GLightbox's own frame, with its buttons labelled in the page's language. */
function frame(m: Messages): string {
  return `<div id="glightbox-body" class="glightbox-container" tabindex="-1" role="dialog" aria-hidden="false">
<div class="gloader visible"></div><div class="goverlay"></div><div class="gcontainer">
<div id="glightbox-slider" class="gslider"></div>
<button class="gclose gbtn" aria-label="${escapeAttr(m['person.close'])}" data-taborder="3">{closeSVG}</button>
<button class="gprev gbtn" aria-label="${escapeAttr(m['carousel.previous'])}" data-taborder="2">{prevSVG}</button>
<button class="gnext gbtn" aria-label="${escapeAttr(m['carousel.next'])}" data-taborder="1">{nextSVG}</button>
</div></div>`;
}

const icon = (name: 'play' | 'pause') => `<svg class="icon" width="20" height="20" aria-hidden="true" focusable="false"><use href="/icons.svg#${name}"></use></svg>`;

/** The slideshow button and the thumbnails, added to an open lightbox of two or more photos. */
function addControls(box: Box, group: HTMLAnchorElement[], m: Messages): () => void {
  const container = document.querySelector('.glightbox-container .gcontainer');
  if (!container || group.length < LIGHTBOX.minSlidesForThumbnails) return () => {};
  const bar = document.createElement('div');
  bar.className = 'glb-bar';

  const play = document.createElement('button');
  play.type = 'button';
  play.className = 'gbtn glb-play';
  play.dataset.taborder = '4';
  bar.append(play);

  const thumbs = document.createElement('ul');
  thumbs.className = 'glb-thumbs';
  thumbs.setAttribute('aria-label', m['lightbox.thumbnails']);
  const buttons = group.map((a, i) => {
    const li = document.createElement('li');
    const b = document.createElement('button');
    b.type = 'button';
    b.className = 'gbtn glb-thumb';
    b.dataset.taborder = String(5 + i);
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

  const mark = (index: number) => buttons.forEach((b, i) => (i === index ? b.setAttribute('aria-current', 'true') : b.removeAttribute('aria-current')));
  let timer: ReturnType<typeof setInterval> | undefined;
  play.innerHTML = icon('play');
  // Only the icon's reference changes: replacing the button's content under the pointer would leave the
  // click's target outside the lightbox, which GLightbox takes for a click outside and closes.
  const render = () => {
    play.querySelector('use')?.setAttribute('href', `/icons.svg#${timer ? 'pause' : 'play'}`);
    play.setAttribute('aria-label', timer ? m['lightbox.pause'] : m['lightbox.play']);
  };
  function stop() {
    clearInterval(timer);
    timer = undefined;
    render();
  }
  play.addEventListener('click', () => {
    if (timer) return stop();
    // The gallery does not loop (§2): a slideshow started on the last photo starts again from the first.
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
        // §9: the gallery does not wrap around; a drag of 150 px closes it.
        loop: false,
        dragToleranceY: LIGHTBOX.dragCloseDistancePx,
        touchNavigation: true,
        keyboardNavigation: true,
        lightboxHTML: frame(messages),
        openEffect: reduced ? 'none' : 'zoom',
        closeEffect: reduced ? 'none' : 'zoom',
      }) as Box;
      active = { box, messages };
      let stopSlideshow = () => {};
      box.on('open', () => {
        stopSlideshow = addControls(box, group, messages);
      });
      box.on('close', () => {
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
