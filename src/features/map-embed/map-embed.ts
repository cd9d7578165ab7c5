/**
 * `<map-embed>` (src/components/MapEmbed.astro): the district map is another site's page, so nothing is asked
 * of OpenStreetMap until the citizen presses "Show the map". Until then the element holds the site's own
 * placeholder (the address, a note that the map comes from OpenStreetMap, and a link to it there); the
 * frame waits, inert, in a <template>. Without JavaScript the button stays hidden and the link still works.
 */
class MapEmbed extends HTMLElement {
  connectedCallback(): void {
    const button = this.querySelector<HTMLButtonElement>('[data-map-show]');
    if (!button) return;
    button.disabled = false;
    button.addEventListener('click', () => this.show(), { once: true });
  }

  /** Puts the frame where the placeholder was and gives it focus: its title says what it is. */
  private show(): void {
    const template = this.querySelector<HTMLTemplateElement>('template[data-map-frame]');
    const placeholder = this.querySelector('[data-map-placeholder]');
    const frame = template?.content.querySelector('iframe');
    if (!template || !placeholder || !frame) return;
    const shown = document.importNode(frame, true);
    placeholder.replaceWith(shown);
    template.remove();
    shown.focus();
  }
}

if (!customElements.get('map-embed')) customElements.define('map-embed', MapEmbed);
