/**
 * Loaded by the not-found page only (NotFoundView.astro). A detail address the build does not have may
 * be an item published since the last build (the webhook's rebuild has not landed yet), or a content
 * page only search knows. Ask the API; if it has the item, show it here, sanitised in the browser and
 * marked as just published. Any failure, a 404 or no answer within JUST_PUBLISHED_TIMEOUT_MS leaves
 * the not-found page as it is.
 */
import { createApiClient } from '../../api/client.ts';
import { JUST_PUBLISHED_TIMEOUT_MS } from '../../constants.ts';
import { languageByNumber } from '../../i18n/languages.ts';
import { detailShape } from './detail-shape.ts';
import { sanitizeInBrowser } from './sanitize-browser.ts';
import { formatDate, isoDay } from '../../lib/text.ts';

interface Shown {
  title: string;
  date: string | null;
  brief: string;
  html: string;
}

function el<K extends keyof HTMLElementTagNameMap>(tag: K, className: string, text?: string): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

async function main(): Promise<void> {
  const screen = document.querySelector<HTMLElement>('[data-just-published]');
  const shape = detailShape(location.pathname);
  if (!screen || !shape) return;
  const { lang: langNumber = '', api = '', media = '', note = '', siteName = '' } = screen.dataset;
  const lang = languageByNumber(Number(langNumber));
  if (!lang || !api) return;
  // One attempt: a retry would keep the citizen looking at "not found" while we wait.
  const client = createApiClient({ baseUrl: api, retries: 0, timeoutMs: JUST_PUBLISHED_TIMEOUT_MS });
  let shown: Shown | null = null;
  try {
    if (shape.kind === 'post') {
      const post = await client.post(shape.id, lang.number);
      if (post) shown = { title: post.title, date: post.date, brief: post.brief, html: post.html };
    } else {
      const page = await client.page(shape.id, lang.number);
      if (page) shown = { title: '', date: null, brief: '', html: page.html };
    }
  } catch {
    // Not in the API (404), no connection or no answer in time: the not-found page stays.
    return;
  }
  if (!shown) return;

  const body = el('div', 'prose');
  body.append(sanitizeInBrowser(shown.html, { mediaBase: media }));
  // The API gives a content page no title: its first heading names it, else the site does.
  const title = shown.title || body.querySelector('h2, h3')?.textContent?.trim() || siteName;

  const article = el('article', 'container just-published');
  article.append(el('p', 'just-published__note', note));
  article.append(el('h1', 'just-published__title', title));
  const dateText = formatDate(shown.date, lang);
  if (dateText) {
    const time = el('time', '', dateText);
    time.dateTime = isoDay(shown.date) ?? '';
    const meta = el('p', 'just-published__meta');
    meta.append(time);
    article.append(meta);
  }
  if (shown.brief) article.append(el('p', 'just-published__brief', shown.brief));
  article.append(body);
  screen.replaceWith(article);
  document.title = `${title} | ${siteName}`;
}

void main();
