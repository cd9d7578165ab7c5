/**
 * `npm run preview`: serves the built dist/ on a local port, the way the
 * production web server does (directory indexes, the 404 page).
 */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { splitLocalizedPath } from '../src/i18n/languages.ts';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
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
};

async function fileAt(path: string): Promise<string | null> {
  try {
    const s = await stat(path);
    if (s.isFile()) return path;
    if (s.isDirectory()) return fileAt(join(path, 'index.html'));
  } catch {
    // Astro writes a few pages as `name.html` (404, 500): `/500` finds `500.html`.
    if (!path.endsWith('.html')) return fileAt(`${path}.html`);
  }
  return null;
}

export async function serveDist(options: { root?: string; host?: string; port?: number } = {}): Promise<{ url: string; server: Server }> {
  const root = resolve(options.root ?? 'dist');
  const server = createServer(async (req, res) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return void res.writeHead(405, { allow: 'GET, HEAD' }).end();
    let pathname: string;
    try {
      pathname = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    } catch {
      return void res.writeHead(400).end();
    }
    const target = normalize(join(root, pathname));
    let file = target.startsWith(root) ? await fileAt(target) : null;
    let status = 200;
    if (!file) {
      // Each language has its own not-found page: /ru/… gets ru/404/index.html.
      const { prefix } = splitLocalizedPath(pathname).lang;
      file = (prefix && (await fileAt(join(root, prefix, '404')))) || (await fileAt(join(root, '404.html')));
      status = 404;
      if (!file) return void res.writeHead(404).end('Not found');
    }
    res.writeHead(status, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' });
    if (req.method === 'HEAD') return void res.end();
    createReadStream(file).pipe(res);
  });
  await new Promise<void>((ok, fail) => {
    server.once('error', fail);
    server.listen(options.port ?? 4321, options.host ?? '127.0.0.1', ok);
  });
  const { address, port } = server.address() as AddressInfo;
  return { url: `http://${address}:${port}`, server };
}

if (import.meta.main) {
  const { values } = parseArgs({ options: { port: { type: 'string', default: '4321' }, host: { type: 'string', default: '127.0.0.1' } } });
  const { url } = await serveDist({ port: Number(values.port), host: values.host });
  console.log(`Serving dist/ on ${url}/`);
}
