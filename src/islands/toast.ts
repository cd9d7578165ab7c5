/**
 * Toasts (§8): top right, closing after 2000 ms. sweetalert2 is fetched on the
 * first toast, never with the page.
 */
import { TOAST_MS } from '../constants.ts';

export type ToastKind = 'success' | 'error' | 'warning';

export async function toast(kind: ToastKind, text: string, closeLabel: string): Promise<void> {
  const { default: Swal } = await import('sweetalert2');
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
