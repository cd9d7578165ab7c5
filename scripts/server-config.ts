/**
 * `npm run server-config`: writes the parts of the web server's configuration
 * that follow from the language and list tables (scripts/lib/server-config.ts):
 * `public/_redirects` and the generated blocks of `deploy/nginx.conf`. Run it
 * after adding a language or a paginated list; a unit test says when it is due.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { redirectsFile, withNginxBlocks } from './lib/server-config.ts';

writeFileSync('public/_redirects', redirectsFile());
writeFileSync('deploy/nginx.conf', withNginxBlocks(readFileSync('deploy/nginx.conf', 'utf8')));
console.log('public/_redirects and deploy/nginx.conf follow the tables now');
