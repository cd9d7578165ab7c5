/**
 * `fetch` that never sends a request to a host the caller did not name. The build machine runs where a
 * cloud metadata address or an internal service may answer: an API, a media server or an edge that redirects
 * elsewhere (by mistake, or taken over) must not make it ask there. Each hop of a redirect is looked at before
 * it is followed, and followed only on the origin first asked. In the browser a redirect is refused outright
 * (`redirect: 'error'`): the page's own policy (connect-src) names the hosts, and an answer from another
 * would be filed as the API's. It imports nothing of the site's, so every layer may use it.
 */

export class RedirectRefused extends Error {}

const MAX_REDIRECTS = 3;
const inBrowser = typeof document !== 'undefined';

export async function fetchSameOrigin(input: string | URL, init: RequestInit = {}): Promise<Response> {
  if (inBrowser) return fetch(input, { ...init, redirect: 'error' });
  const origin = new URL(input).origin;
  let target = String(input);
  for (let hop = 0; ; hop++) {
    const res = await fetch(target, { ...init, redirect: 'manual' });
    if (res.status < 300 || res.status >= 400 || res.status === 304) return res;
    await res.body?.cancel();
    // A form sent again elsewhere, or turned into a GET, is not what the caller asked for.
    if (init.method && init.method !== 'GET' && init.method !== 'HEAD') throw new RedirectRefused(`${init.method} redirected; refused`);
    const location = res.headers.get('location');
    const next = location ? URL.parse(location, target) : null;
    if (!next || next.origin !== origin) throw new RedirectRefused(`redirected to another host (${next?.origin ?? 'no location'}); refused`);
    if (hop >= MAX_REDIRECTS) throw new RedirectRefused(`more than ${MAX_REDIRECTS} redirects`);
    target = next.href;
  }
}
