/**
 * `<video-embed>` (./VideoEmbed.astro): a video an editor embedded from YouTube, mover.uz and the like is
 * another site's player, so nothing is asked of that site until the citizen presses Play. Until then the
 * element holds the site's own card (the video's title, the site's emblem, a note naming the host, a link
 * to the video there); the player waits, inert, in a <template>. Without JavaScript the button stays
 * hidden (its `hidden` attribute) and the link still works.
 */
class VideoEmbed extends HTMLElement {
  connectedCallback(): void {
    const button = this.querySelector<HTMLButtonElement>('[data-video-play]');
    if (!button) return;
    button.hidden = false;
    button.addEventListener('click', () => this.play(), { once: true });
  }

  /** Puts the player where the card was and gives it focus: its title says what it is. */
  private play(): void {
    const template = this.querySelector<HTMLTemplateElement>('template[data-video-frame]');
    const card = this.querySelector('[data-video-card]');
    const frame = template?.content.querySelector('iframe');
    if (!template || !card || !frame) return;
    const shown = document.importNode(frame, true);
    card.replaceWith(shown);
    template.remove();
    shown.focus();
  }
}

if (!customElements.get('video-embed')) customElements.define('video-embed', VideoEmbed);
