/**
 * `npm run dev` serves the district's pictures from its folder, as a build places them into the site
 * (scripts/pipeline/downloads/place-downloads.ts). Only the dev server uses this plugin; a build never runs it.
 */
import { createReadStream, existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Plugin } from 'vite';
import { withinSite } from '../lib/base-path.ts';
import { district, districtDir, districtPicturePath, fetchedPicturesOf } from './district.ts';

export function devDistrictPictures(): Plugin {
  return {
    name: 'hokimiyat-dev-district-pictures',
    apply: 'serve',
    configureServer(server) {
      server.middlewares.use((req, res, next) => {
        // Under BASE_PATH the request may still carry the path, whichever middleware runs first.
        const path = (req.url ?? '').split('?')[0]!;
        const within = withinSite(path) ?? path;
        const name = fetchedPicturesOf(district()).find((f) => districtPicturePath(f) === within);
        if (!name || !existsSync(join(districtDir(), name))) return next();
        res.setHeader('content-type', name.endsWith('.svg') ? 'image/svg+xml' : 'application/octet-stream');
        createReadStream(join(districtDir(), name)).pipe(res);
      });
    },
  };
}
