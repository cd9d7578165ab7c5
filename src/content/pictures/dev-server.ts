/**
 * `npm run dev` serves the drawn pictures from the picture store, as a build
 * links them into the site (scripts/lib/place-pictures.ts). Only the dev
 * server uses this plugin; a build never runs it.
 */
import { createReadStream, existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Plugin } from 'vite';
import { drawnDir } from './draw.ts';
import { PICTURE_SITE_DIR } from './settings.ts';

export function devPictures(storeDir: string): Plugin {
  return {
    name: 'hokimiyat-dev-pictures',
    apply: 'serve',
    configureServer(server) {
      const prefix = `/${PICTURE_SITE_DIR}/`;
      server.middlewares.use((req, res, next) => {
        const name = req.url?.startsWith(prefix) ? req.url.slice(prefix.length).split('?')[0]! : '';
        const file = join(resolve(drawnDir(storeDir)), name);
        if (!/^[\w-]+\.webp$/.test(name) || !existsSync(file)) return next();
        res.setHeader('content-type', 'image/webp');
        createReadStream(file).pipe(res);
      });
    },
  };
}
