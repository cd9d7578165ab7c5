/**
 * Opens a photo group in GLightbox. The library and its styles are fetched on
 * the first click, never with the page (the photos are plain links to the
 * full pictures before that, and without JavaScript).
 */
import { LIGHTBOX } from '../constants.ts';

type GLightboxFactory = typeof import('glightbox');
let factory: Promise<GLightboxFactory> | undefined;

function load(): Promise<GLightboxFactory> {
  factory ??= Promise.all([import('glightbox'), import('glightbox/dist/css/glightbox.min.css'), import('../styles/lightbox.css')]).then(([m]) => (m as unknown as { default: GLightboxFactory }).default ?? m);
  return factory;
}

export function enhanceGalleries(root: ParentNode = document): void {
  root.addEventListener('click', (event) => {
    const link = (event.target as Element | null)?.closest<HTMLAnchorElement>('a[data-lightbox]');
    if (!link || event.defaultPrevented || (event as MouseEvent).ctrlKey || (event as MouseEvent).metaKey) return;
    event.preventDefault();
    const group = [...document.querySelectorAll<HTMLAnchorElement>(`a[data-lightbox="${CSS.escape(link.dataset.lightbox ?? '')}"]`)];
    void load().then((GLightbox) => {
      const box = GLightbox({
        // The package's typings declare `elements` as an empty tuple; the runtime takes slide objects.
        elements: group.map((a) => ({ href: a.href, type: 'image', title: a.dataset.caption ?? '' })) as unknown as [],
        startAt: group.indexOf(link),
        // §9: the gallery does not wrap around; a drag of 150 px closes it.
        loop: false,
        dragToleranceY: LIGHTBOX.dragCloseDistancePx,
        touchNavigation: true,
        keyboardNavigation: true,
        openEffect: matchMedia('(prefers-reduced-motion: reduce)').matches ? 'none' : 'zoom',
        closeEffect: matchMedia('(prefers-reduced-motion: reduce)').matches ? 'none' : 'zoom',
      });
      box.on('close', () => {
        link.focus();
        // Each opening builds its own instance: destroy it once closed.
        setTimeout(() => box.destroy(), 0);
      });
      box.open();
    });
  });
}
