/** The cookie bar's behaviour (src/components/CookieConsent.astro): shown until consent is given, by its button or by scrolling. */
import { giveConsent, hasConsent, scrolledEnough } from './cookie-consent.ts';
import { siteStorage } from '../../lib/storage.ts';
const bar = document.querySelector<HTMLElement>('[data-cookie-bar]');
if (bar && !hasConsent(siteStorage, Date.now())) {
  bar.hidden = false;
  // The page keeps the bar's height free at its bottom: a control that takes focus is scrolled above the
  // bar, never behind it (html's scroll-padding, global.scss).
  const root = document.documentElement;
  const reserve = () => root.style.setProperty('--cookie-bar-block-size', bar.hidden ? '0px' : `${bar.offsetHeight}px`);
  const watch = new ResizeObserver(reserve);
  watch.observe(bar);
  const accept = () => {
    giveConsent(siteStorage, Date.now());
    bar.hidden = true;
    watch.disconnect();
    reserve();
    removeEventListener('scroll', onScroll);
  };
  // §9: scrolling a quarter of the page is consent too, as with the button.
  const onScroll = () => {
    const root = document.documentElement;
    if (scrolledEnough(scrollY, root.scrollHeight, innerHeight)) accept();
  };
  bar.querySelector('[data-cookie-accept]')?.addEventListener('click', accept);
  addEventListener('scroll', onScroll, { passive: true });
}
