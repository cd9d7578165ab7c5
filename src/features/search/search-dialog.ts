/**
 * Button commands (`commandfor` / `command` on a <button>) open and close the search dialog with no script in
 * browsers that have them (Chromium 135, Firefox 144, Safari 26.2); in an older browser this does it, once
 * this module has arrived.
 */
export function commandButtonsWhereMissing(): void {
  if ('command' in HTMLButtonElement.prototype) return;
  document.addEventListener('click', (event) => {
    const button = (event.target as Element).closest<HTMLButtonElement>('button[commandfor]');
    const target = button && document.getElementById(button.getAttribute('commandfor') ?? '');
    if (!(target instanceof HTMLDialogElement)) return;
    if (button!.getAttribute('command') === 'show-modal') target.showModal();
    else if (button!.getAttribute('command') === 'close') target.close();
  });
}
