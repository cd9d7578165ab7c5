/**
 * `npm run dev` serves the drawn pictures from the picture store, as a build
 * links them into the site (scripts/pipeline/finish/finish-step.ts, `stored`). Only the dev
 * server uses this plugin; a build never runs it.
 */
import { createReadStream, existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Plugin } from 'vite';
import { drawnDir } from './draw-pictures.ts';
import { withinSite } from '../../../src/lib/base-path.ts';
import { PICTURE_SITE_DIR } from '../../../src/content/pictures/settings.ts';

export function devPictures(storeDir: string): Plugin {
  return {
    name: 'hokimiyat-dev-pictures',
    apply: 'serve',
    configureServer(server) {
      const prefix = `/${PICTURE_SITE_DIR}/`;
      server.middlewares.use((req, res, next) => {
        // Under BASE_PATH the request may still carry the path, whichever middleware runs first.
        const path = (req.url ?? '').split('?')[0]!;
        const within = withinSite(path) ?? path;
        const name = within.startsWith(prefix) ? within.slice(prefix.length) : '';
        const file = join(resolve(drawnDir(storeDir)), name);
        if (!/^[\w-]+\.webp$/.test(name) || !existsSync(file)) return next();
        res.setHeader('content-type', 'image/webp');
        createReadStream(file).pipe(res);
      });
    },
  };
}
