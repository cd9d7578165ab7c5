/**
 * Serves a built site the way production does (see deploy/nginx.conf):
 * precompressed files by Accept-Encoding, a one-year immutable cache for
 * hashed assets and revalidation for HTML, the right content types, each
 * language's not-found page for unknown paths (an old `?pageNumber=N` list
 * link is the list itself, whose first page reads it). `npm run preview` and
 * `npm start` serve with it, and the end-to-end tests. A site built under a
 * base path (BASE_PATH) is served under it, and several sites can share one
 * origin, each under its own path, as districts under one national domain do.
 */
import { DOCUMENT_TYPES } from '../../src/content/documents/links.ts';
import { open, readFile, stat } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { pipeline } from 'node:stream';
import { createGzip } from 'node:zlib';
import { splitLocalizedPath } from '../../src/i18n/languages.ts';
import { CSP_FILE } from '../pipeline/finish/csp.ts';
import { COMPRESSIBLE } from '../pipeline/finish/precompress.ts';
import { SECURITY_HEADERS } from './server-config.ts';
import { cacheControl, ERROR_CACHE_CONTROL } from './cache-rules.ts';

/** nginx's `gzip_comp_level` in deploy/nginx.conf: a page is some 9 KB at 5, made in under a millisecond. */
const GZIP_ON_THE_FLY_LEVEL = 5;

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.xml': 'application/xml; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.webmanifest': 'application/manifest+json',
  // The documents editors link to, kept by the site (src/content/documents/).
  ...Object.fromEntries(Object.entries(DOCUMENT_TYPES).map(([extension, { mime }]) => [`.${extension}`, mime])),
};

async function fileAt(path: string): Promise<{ file: string; size: number; mtime: number } | null> {
  try {
    const s = await stat(path);
    if (s.isFile()) return { file: path, size: s.size, mtime: s.mtimeMs };
    if (s.isDirectory()) return fileAt(join(path, 'index.html'));
  } catch {
    // Astro writes a few pages as `name.html` (404, 500): `/500` finds `500.html`.
    if (!path.endsWith('.html')) return fileAt(`${path.replace(/\/+$/, '')}.html`);
  }
  return null;
}

/**
 * The content codings an Accept-Encoding header allows, with their q-values (RFC 9110, section 12.5.3):
 * `br;q=0` refuses brotli, `*` stands for any coding not named.
 */
export function acceptedEncodings(header: string): (coding: string) => boolean {
  const q = new Map<string, number>();
  for (const part of header.split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    if (!name) continue;
    const qParam = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const value = qParam ? Number(qParam.slice(2)) : 1;
    q.set(name.trim(), Number.isFinite(value) ? value : 0);
  }
  return (coding) => (q.get(coding) ?? q.get('*') ?? 0) > 0;
}

/** The precompressed sibling to send, if the client accepts it and it exists. */
async function encoded(accepts: (coding: string) => boolean, file: string) {
  for (const [token, ext] of [
    ['br', 'br'],
    ['gzip', 'gz'],
  ] as const) {
    if (accepts(token)) {
      const found = await fileAt(`${file}.${ext}`);
      if (found) return { ...found, encoding: token };
    }
  }
  return null;
}

/** Inside `root` by path segments: `/..%2fdist-secret` resolves beside it, not inside. */
const inside = (root: string, target: string) => {
  const rel = relative(root, target);
  return rel === '' || (!isAbsolute(rel) && rel !== '..' && !rel.startsWith(`..${sep}`));
};

type Found = NonNullable<Awaited<ReturnType<typeof fileAt>>>;

/** The file a GET asks for: the page, or its language's not-found page with 404; null when there is none. */
async function lookUp(root: string, pathname: string): Promise<{ found: Found; status: number } | null> {
  const target = resolve(root, `.${pathname.startsWith('/') ? '' : '/'}${pathname}`);
  const found = inside(root, target) ? await fileAt(target) : null;
  if (found) return { found, status: 200 };
  // Each language has its own not-found page: /ru/… gets ru/404/index.html.
  const { prefix } = splitLocalizedPath(pathname).lang;
  const notFound = (prefix && (await fileAt(join(root, prefix, '404')))) || (await fileAt(join(root, '404.html')));
  return notFound ? { found: notFound, status: 404 } : null;
}

/** The answer's headers: type, caching, coding, ETag and, on pages, the policy and the security headers. */
function headersOf(pathname: string, status: number, found: Found, sent: { size: number; mtime: number }, coding: { encoding?: string; gzipNow: boolean }, csp: string | null) {
  const etag = `${coding.gzipNow ? 'W/' : ''}"${sent.size.toString(36)}-${Math.floor(sent.mtime).toString(36)}"`;
  const headers: Record<string, string | number> = {
    'content-type': TYPES[extname(found.file)] ?? 'application/octet-stream',
    'cache-control': status === 200 ? cacheControl(pathname, found.file) : ERROR_CACHE_CONTROL,
    vary: 'Accept-Encoding',
    etag,
  };
  if (coding.encoding) headers['content-encoding'] = coding.encoding;
  if (coding.gzipNow) headers['content-encoding'] = 'gzip';
  else headers['content-length'] = sent.size;
  // nosniff on every answer; the others on pages, beside their policy (plain HTTP: no HSTS).
  const pagePolicy = csp && found.file.endsWith('.html') ? csp : null;
  for (const { name, value, httpsOnly } of SECURITY_HEADERS) {
    if (name === 'X-Content-Type-Options' || (pagePolicy && !httpsOnly)) headers[name.toLowerCase()] = value;
  }
  if (pagePolicy) headers['content-security-policy'] = pagePolicy;
  return { headers, etag };
}

/** A built site and the path of the origin it is served under ('' for the root). */
export interface ServedSite {
  root: string;
  basePath: string;
}

interface LoadedSite extends ServedSite {
  csp: string | null;
}

/** The site a pathname belongs to, and the pathname within it; the longest base path first, so `/a/b` wins over `/a`. */
function siteOf(sites: readonly LoadedSite[], pathname: string): { site: LoadedSite; within: string } | null {
  for (const site of sites) {
    if (!site.basePath) return { site, within: pathname };
    if (pathname === site.basePath || pathname.startsWith(`${site.basePath}/`)) return { site, within: pathname.slice(site.basePath.length) || '/' };
  }
  return null;
}

async function respond(sites: readonly LoadedSite[], req: IncomingMessage, res: ServerResponse): Promise<void> {
  if (req.method !== 'GET' && req.method !== 'HEAD') return void res.writeHead(405, { allow: 'GET, HEAD' }).end();
  let address: string;
  let url: URL;
  try {
    url = new URL(req.url ?? '/', 'http://x');
    address = decodeURIComponent(url.pathname);
  } catch {
    return void res.writeHead(400).end();
  }
  const served = siteOf(sites, address);
  if (!served) return void res.writeHead(404, { 'cache-control': 'no-store', 'content-type': 'text/plain; charset=utf-8' }).end('Not found');
  const { site, within: pathname } = served;
  const { root, csp } = site;
  const looked = await lookUp(root, pathname);
  if (!looked) return void res.writeHead(404).end('Not found');
  const { found, status } = looked;
  const accepts = acceptedEncodings(String(req.headers['accept-encoding'] ?? ''));
  const compressed = COMPRESSIBLE.test(found.file) ? await encoded(accepts, found.file) : null;
  // Most pages have a `.br` only (precompress.ts): one is gzipped while it is sent to a client
  // without brotli, as nginx's `gzip on` does, with a weak ETag (the bytes are not the file's).
  const gzipNow = !compressed && found.file.endsWith('.html') && accepts('gzip');
  const chosen = compressed ?? found;
  // Opened before anything is sent: a file removed since it was found is a 404, not a crash, and
  // once open its bytes stay readable even if a rebuild removes it meanwhile.
  const handle = await open(chosen.file).catch(() => null);
  if (!handle) return void res.writeHead(404, { 'cache-control': 'no-store' }).end('Not found');
  const opened = await handle.stat().catch(() => null);
  if (!opened) {
    await handle.close();
    return void res.writeHead(500, { 'cache-control': 'no-store' }).end();
  }
  const { headers, etag } = headersOf(pathname, status, found, { size: opened.size, mtime: opened.mtimeMs }, { encoding: compressed?.encoding, gzipNow }, csp);
  const notModified = status === 200 && req.headers['if-none-match'] === etag;
  if (notModified || req.method === 'HEAD') await handle.close();
  if (notModified) return void res.writeHead(304, { etag, vary: 'Accept-Encoding' }).end();
  res.writeHead(status, headers);
  if (req.method === 'HEAD') return void res.end();
  // pipeline ends the read when the download is aborted and never lets a read error escape; the file
  // is closed here, once, however it ended. A client already gone makes pipeline throw at once.
  const done = () => void handle.close().catch(() => undefined);
  try {
    const read = handle.createReadStream({ autoClose: false });
    if (gzipNow) pipeline(read, createGzip({ level: GZIP_ON_THE_FLY_LEVEL }), res, done);
    else pipeline(read, res, done);
  } catch {
    done();
  }
}

/** Serves one built site (`root`, under `basePath`), or several on one origin (`sites`). */
export async function serveDist(
  options: { root?: string; basePath?: string; sites?: readonly ServedSite[]; host?: string; port?: number } = {},
): Promise<{ url: string; server: Server }> {
  const wanted = options.sites ?? [{ root: options.root ?? 'dist', basePath: options.basePath ?? '' }];
  const sites: LoadedSite[] = await Promise.all(
    wanted.map(async ({ root, basePath }) => ({
      root: resolve(root),
      basePath,
      // The policy the build computed for this release, sent with every page as the production server does.
      csp: await readFile(join(resolve(root), CSP_FILE), 'utf8').then(
        (s) => s.trim(),
        () => null,
      ),
    })),
  );
  sites.sort((a, b) => b.basePath.length - a.basePath.length);
  const server = createServer(
    {
      // A visitor's browser sends its headers at once; anything slower is holding a connection.
      headersTimeout: 10_000,
      requestTimeout: 30_000,
      keepAliveTimeout: 5_000,
      connectionsCheckingInterval: 1_000,
    },
    (req, res) =>
      void respond(sites, req, res).catch(() => {
        // Whatever failed (a file system error), the server keeps serving.
        if (!res.headersSent) res.writeHead(500, { 'cache-control': 'no-store' }).end();
        else res.destroy();
      }),
  );
  // A connection that goes quiet mid-download is closed rather than held open.
  server.timeout = 30_000;
  await new Promise<void>((ok, fail) => {
    server.once('error', fail);
    server.listen(options.port ?? 4321, options.host ?? '127.0.0.1', ok);
  });
  const { address, port } = server.address() as AddressInfo;
  return { url: `http://${address}:${port}`, server };
}
