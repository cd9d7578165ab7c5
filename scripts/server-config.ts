/**
 * `npm run server-config`: writes the parts of the web server's configuration
 * that follow from the site's tables (scripts/lib/server-config.ts):
 * `public/_redirects` and the generated blocks of `deploy/nginx.conf`,
 * `deploy/varnish.vcl` and `public/_headers`. Run it after adding a language
 * or a paginated list; a unit test says when it is due.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { GENERATED_FILES, redirectsFile, withBlocks } from './lib/server-config.ts';

writeFileSync('public/_redirects', redirectsFile());
for (const { file, blocks } of GENERATED_FILES) writeFileSync(file, withBlocks(file, readFileSync(file, 'utf8'), blocks()));
console.log(`public/_redirects, ${GENERATED_FILES.map((g) => g.file).join(', ')} follow the tables now`);
