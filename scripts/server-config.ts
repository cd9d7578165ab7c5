/**
 * `npm run server-config`: writes the parts of the web server's configuration that follow from the site's
 * tables and the example district's settings (scripts/serving/server-config.ts, scripts/serving/nginx-config.ts):
 * `public/_redirects`, `deploy/nginx.conf` and the generated blocks of `deploy/varnish.vcl` and
 * `public/_headers`. Run it after adding a language or a paginated list; a unit test says when it is due.
 *
 * `npm run server-config -- --nginx FILE [--varnish FILE] [--project DIR] SETTINGS…`: the nginx configuration
 * (and the edge's) of a server that holds the districts of those settings files (README "Running several districts").
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { parseArgs } from 'node:util';
import { exampleNginxConfig, nginxConfig, PROJECT_DIR, servedDistricts, SettingsFileError } from './serving/nginx-config.ts';
import { GENERATED_FILES, redirectsFile, SITE_TABLES, varnishBlocks, withBlocks } from './serving/server-config.ts';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { nginx: { type: 'string' }, varnish: { type: 'string' }, project: { type: 'string', default: PROJECT_DIR } },
});

try {
  if (values.nginx || values.varnish || positionals.length) {
    if (!values.nginx || !positionals.length) throw new SettingsFileError('usage: npm run server-config -- --nginx FILE [--varnish FILE] [--project DIR] SETTINGS…');
    const districts = servedDistricts(positionals, values.project);
    mkdirSync(dirname(values.nginx), { recursive: true });
    writeFileSync(values.nginx, nginxConfig(districts));
    if (values.varnish) {
      // deploy/varnish.vcl keys its copies by path alone, and its probe asks the origin without a host name.
      const hosts = new Set(districts.map((d) => d.host));
      if (hosts.size > 1)
        throw new SettingsFileError(`--varnish serves the districts of one host; these have ${[...hosts].join(', ')}: one edge (and one --varnish file) per host`);
      const vcl = 'deploy/varnish.vcl';
      // The edge asks the origin for a file every district has; under paths, the first district's.
      const probe = districts.find((d) => !d.basePath) ?? districts[0]!;
      const edge = withBlocks(
        vcl,
        readFileSync(vcl, 'utf8'),
        varnishBlocks(
          SITE_TABLES,
          districts.map((d) => d.basePath),
        ),
      );
      writeFileSync(values.varnish, edge.replace('.url = "/robots.txt";', `.url = "${probe.basePath}/robots.txt";`));
    }
    console.log(`${[values.nginx, values.varnish].filter(Boolean).join(' and ')} serve ${districts.map((d) => `${d.name} at https://${d.host}${d.basePath}/`).join(', ')}`);
  } else {
    writeFileSync('public/_redirects', redirectsFile());
    writeFileSync('deploy/nginx.conf', exampleNginxConfig());
    for (const { file, blocks } of GENERATED_FILES) writeFileSync(file, withBlocks(file, readFileSync(file, 'utf8'), blocks()));
    console.log(`public/_redirects, deploy/nginx.conf, ${GENERATED_FILES.map((g) => g.file).join(', ')} follow the tables now`);
  }
} catch (error) {
  if (!(error instanceof SettingsFileError)) throw error;
  console.error(error.message);
  process.exit(2);
}
