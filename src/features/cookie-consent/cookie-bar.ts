/** The cookie bar's behaviour (src/features/cookie-consent/CookieConsent.astro): shown until consent is given, by its button or by scrolling. */
import { giveConsent, hasConsent, scrolledEnough } from './cookie-consent.ts';
import { siteStorage } from '../../lib/storage.ts';
// The bar's stylesheet, as a file of its own: a plain or dynamic import would make it one of every page's
// render-blocking stylesheets (scripts/pipeline/finish/budgets.ts), and the bar shows with a script only.
import stylesheet from './cookie-bar.scss?url';

const bar = document.querySelector<HTMLElement>('[data-cookie-bar]');
// The bar shows once its stylesheet has arrived; neither scroll nor resize is watched before. Not arrived
// (offline and never cached): the bar stays hidden, and shows on a later page.
if (bar && !hasConsent(siteStorage, Date.now())) {
  const link = Object.assign(document.createElement('link'), { rel: 'stylesheet', href: stylesheet });
  link.addEventListener('load', () => show(bar), { once: true });
  document.head.append(link);
}

function show(bar: HTMLElement): void {
  if (hasConsent(siteStorage, Date.now())) return;
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
  // Scrolling a quarter of the page is consent too, as with the button.
  const onScroll = () => {
    const root = document.documentElement;
    if (scrolledEnough(scrollY, root.scrollHeight, innerHeight)) accept();
  };
  bar.querySelector('[data-cookie-accept]')?.addEventListener('click', accept);
  addEventListener('scroll', onScroll, { passive: true });
}
