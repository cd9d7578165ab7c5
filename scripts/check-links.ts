/**
 * `npm run check:links [-- DIR]`: walks the built site (dist/ by default) and
 * fails on any internal link, image, script, stylesheet or frame that does not
 * resolve to a file, and on any #fragment that names no element, in every
 * language.
 */
import { readFile } from 'node:fs/promises';
import { join, relative, resolve } from 'node:path';
import { FILE_CONCURRENCY, listFiles, mapLimit } from './lib/files.ts';

const ATTR = /\s(?:href|src|srcset|poster|action)\s*=\s*("([^"]*)"|'([^']*)')/gi;

/** The file a site path is served from, as the production server finds it. */
function target(files: Set<string>, root: string, pathname: string): string | null {
  const base = join(root, pathname);
  for (const candidate of [base, join(base, 'index.html'), `${base.replace(/\/+$/, '')}.html`]) if (files.has(candidate)) return candidate;
  return null;
}

/** The URLs a page refers to, from its attributes (srcset gives several). */
export function referencedUrls(html: string): string[] {
  const urls: string[] = [];
  for (const m of html.matchAll(ATTR)) {
    const raw = (m[2] ?? m[3] ?? '').replaceAll('&amp;', '&').replaceAll('&#39;', "'");
    if (/srcset/i.test(m[0])) urls.push(...raw.split(',').map((s) => s.trim().split(/\s+/)[0] ?? '').filter(Boolean));
    else urls.push(raw);
  }
  return urls;
}

export async function checkLinks(root: string): Promise<{ pages: number; checked: number; broken: string[] }> {
  root = resolve(root);
  const broken: string[] = [];
  const ids = new Map<string, Set<string>>();
  const idsOf = async (file: string) => {
    if (!ids.has(file)) ids.set(file, new Set([...(await readFile(file, 'utf8')).matchAll(/\sid="([^"]+)"/g)].map((m) => m[1]!)));
    return ids.get(file)!;
  };
  let checked = 0;
  // The tree is listed once: a site of 10,000 pages refers to a million URLs, too many to look up on disk one by one.
  const files = new Set(await listFiles(root));
  const pages = [...files].filter((f) => f.endsWith('.html'));
  await mapLimit(pages, FILE_CONCURRENCY, async (file) => {
    const html = await readFile(file, 'utf8');
    const pagePath = `/${relative(root, file).replace(/(^|\/)index\.html$/, '$1').replace(/\.html$/, '')}`;
    for (const url of referencedUrls(html)) {
      if (!url || /^(?:[a-z][a-z0-9+.-]*:|\/\/)/i.test(url)) continue; // external, mailto:, tel:, data:
      checked++;
      const resolved = new URL(url, `http://site${pagePath.endsWith('/') ? pagePath : `${pagePath}/`}`);
      let pathname: string;
      try {
        pathname = decodeURIComponent(resolved.pathname);
      } catch {
        broken.push(`${relative(root, file)}: ${url} (bad encoding)`);
        continue;
      }
      const found = target(files, root, pathname);
      if (!found) broken.push(`${relative(root, file)}: ${url}`);
      else if (resolved.hash.length > 1 && found.endsWith('.html') && !(await idsOf(found)).has(decodeURIComponent(resolved.hash.slice(1)))) {
        broken.push(`${relative(root, file)}: ${url} (no element with that id)`);
      }
    }
  });
  return { pages: pages.length, checked, broken: broken.sort() };
}

if (import.meta.main) {
  const root = process.argv[2] ?? process.env.OUT_DIR ?? 'dist';
  const { pages, checked, broken } = await checkLinks(root);
  for (const b of broken.slice(0, 50)) console.error(`broken: ${b}`);
  if (broken.length > 50) console.error(`… and ${broken.length - 50} more`);
  console.log(`${pages} pages, ${checked} internal references, ${broken.length} broken`);
  if (broken.length) process.exitCode = 1;
}
