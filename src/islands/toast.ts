/**
 * Toasts: top right, closing after 2000 ms. sweetalert2 is fetched on the
 * first toast, never with the page, with the site's colours for it (`./toast.css`).
 */
import { TOAST_MS } from '../constants.ts';

export type ToastKind = 'success' | 'error' | 'warning';

export async function toast(kind: ToastKind, text: string, closeLabel: string): Promise<void> {
  // The colours come as text and go in as sweetalert2's own styles do: imported as a stylesheet,
  // they would be linked into every page with a form or a survey, in its first flight.
  const [{ default: Swal }, { default: colours }] = await Promise.all([import('sweetalert2'), import('./toast.css?inline')]);
  if (!document.querySelector('style[data-toast]')) {
    const style = document.createElement('style');
    style.dataset.toast = '';
    style.textContent = colours;
    document.head.append(style);
  }
  await Swal.fire({
    toast: true,
    position: 'top-end',
    icon: kind,
    // Text, never HTML: messages may come from the server.
    text,
    timer: TOAST_MS,
    timerProgressBar: true,
    showConfirmButton: false,
    showCloseButton: true,
    closeButtonAriaLabel: closeLabel,
  });
}
