/**
 * Another site's frame that loads only when the citizen asks: `<map-embed>` (OpenStreetMap, on "Show the
 * map": src/features/frame-on-request/MapEmbed.astro) and `<video-embed>` (a video host's player, on "Play":
 * src/features/video-embed/VideoEmbed.astro). Until the button is pressed the element holds the site's own
 * placeholder (`[data-frame-placeholder]`) and nothing is asked of the other site; the frame waits, inert,
 * in `<template data-frame>`. The button (`[data-frame-show]`) starts disabled or hidden, so that without
 * JavaScript only the placeholder's link to the other site is offered.
 */
class FrameOnRequest extends HTMLElement {
  connectedCallback(): void {
    const button = this.querySelector<HTMLButtonElement>('[data-frame-show]');
    if (!button) return;
    button.disabled = false;
    button.hidden = false;
    button.addEventListener('click', () => this.show(), { once: true });
  }

  /** Puts the frame where the placeholder was and gives it focus: its title says what it is. */
  private show(): void {
    const template = this.querySelector<HTMLTemplateElement>('template[data-frame]');
    const placeholder = this.querySelector('[data-frame-placeholder]');
    const frame = template?.content.querySelector('iframe');
    if (!template || !placeholder || !frame) return;
    const shown = document.importNode(frame, true);
    placeholder.replaceWith(shown);
    template.remove();
    shown.focus();
  }
}

for (const name of ['map-embed', 'video-embed']) if (!customElements.get(name)) customElements.define(name, class extends FrameOnRequest {});
