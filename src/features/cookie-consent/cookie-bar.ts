/** The cookie bar's behaviour (src/components/CookieConsent.astro): shown until consent is given, by its button or by scrolling. */
import { giveConsent, hasConsent, scrolledEnough } from './cookie-consent.ts';
import { siteStorage } from '../../lib/storage.ts';
const bar = document.querySelector<HTMLElement>('[data-cookie-bar]');
if (bar && !hasConsent(siteStorage, Date.now())) {
  bar.hidden = false;
  const accept = () => {
    giveConsent(siteStorage, Date.now());
    bar.hidden = true;
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
