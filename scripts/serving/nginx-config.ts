/**
 * The nginx configuration of a server that holds one district or several, made from each district's
 * settings file (the systemd EnvironmentFile its units read, deploy/site.env.example) and its identity
 * (districts/<name>/district.json): districts with the same SITE_URL host share one server block, each
 * under its BASE_PATH, and a district with a host of its own gets its own. deploy/nginx.conf is this
 * configuration for deploy/site.env.example, and `npm run server-config -- --nginx FILE <settings…>` writes
 * it for the districts a server holds (README "Running several districts").
 *
 * Root's nginx reads what this writes, and the settings files are the operator's: every value that reaches
 * the configuration (paths, host names, base paths) is checked against a strict pattern first, and a file
 * that does not pass stops the command naming it, so no setting can add a directive.
 */
import { readFileSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { readConfig, readMachineSettings } from '../../src/config.ts';
import { loadDistrict } from '../../src/district/district.ts';
import { DISTRICT_KEY_PATTERN } from '../../src/district/key.ts';
import { nginxCacheMap } from './cache-rules.ts';
import { SECURITY_HEADERS, SITE_TABLES, type Tables } from './server-config.ts';

/** One district as the server holds it. */
export interface ServedDistrict {
  name: string;
  /** The public origin's host (SITE_URL) and every name the district answers to (its server.names). */
  host: string;
  names: readonly string[];
  basePath: string;
  /** Absolute: the release folders and the `current` link nginx serves. */
  releasesDir: string;
  /** Where its webhook listens (WEBHOOK_PORT, 8790 unless set): two districts cannot share one. */
  webhookPort: string;
}

export class SettingsFileError extends Error {}

/** A path nginx may be told: absolute, of letters, digits and `._-/` only (no space, quote, `;`, `$`, `{`). */
const SAFE_PATH = /^\/[\w./-]+$/;
const SAFE_HOST = /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/;

/**
 * A settings file in systemd's EnvironmentFile form: `NAME=value` a line, `#` comments, a value in double or
 * single quotes. A line of another form is refused rather than guessed at.
 */
export function parseSettingsFile(text: string, file: string): Record<string, string> {
  const settings: Record<string, string> = {};
  for (const [n, raw] of text.split('\n').entries()) {
    const line = raw.trim();
    if (!line || line.startsWith('#')) continue;
    const m = /^([A-Z_][A-Z0-9_]*)=(.*)$/.exec(line);
    if (!m) throw new SettingsFileError(`${file}:${n + 1}: not NAME=value`);
    const value = m[2]!.trim();
    const quoted = /^"(.*)"$/.exec(value) ?? /^'(.*)'$/.exec(value);
    settings[m[1]!] = quoted ? quoted[1]! : value;
  }
  return settings;
}

/** The district a settings file describes, checked; relative folders are taken from `projectDir`, as the units' WorkingDirectory. */
export function servedDistrict(settings: Record<string, string>, file: string, projectDir: string): ServedDistrict {
  const fail = (what: string) => {
    throw new SettingsFileError(`${file}: ${what}`);
  };
  const name = settings.SITE_DISTRICT ?? fail('SITE_DISTRICT is not set: say which district this file is for');
  if (!DISTRICT_KEY_PATTERN.test(name)) fail(`SITE_DISTRICT ${JSON.stringify(name)} is no district folder name`);
  let config: ReturnType<typeof readConfig>;
  try {
    config = readConfig(settings);
  } catch (error) {
    return fail(error instanceof Error ? error.message : String(error));
  }
  const releases = readMachineSettings(settings).releasesDir;
  const releasesDir = isAbsolute(releases) ? releases : resolve(projectDir, releases);
  if (!SAFE_PATH.test(releasesDir)) fail(`RELEASES_DIR (or DATA_DIR) ${JSON.stringify(releasesDir)} holds a character nginx's configuration must not get`);
  // The identity from this checkout, which the units run from.
  let names: readonly string[] = [];
  try {
    names = loadDistrict(name, '.', settings.DISTRICTS_DIR || 'districts').server.names;
  } catch (error) {
    fail(error instanceof Error ? error.message : String(error));
  }
  const host = new URL(config.siteUrl).hostname;
  for (const h of [host, ...names]) if (!SAFE_HOST.test(h)) fail(`the host name ${JSON.stringify(h)} is not one nginx can be told`);
  return { name, host, names, basePath: config.basePath, releasesDir, webhookPort: settings.WEBHOOK_PORT || '8790' };
}

/**
 * The districts that share a host, in the order given. Refused: two at one address; one at a host's root beside
 * others under its paths, or one under another's path (`/samarqand`, `/samarqand/chust`), whose service workers'
 * scopes would overlap and so the caches a device keeps for each; two with one release folder or one webhook port.
 */
function byHost(districts: readonly ServedDistrict[]): Map<string, ServedDistrict[]> {
  const hosts = new Map<string, ServedDistrict[]>();
  const refuse = (what: string) => {
    throw new SettingsFileError(what);
  };
  for (const [i, d] of districts.entries()) {
    for (const o of districts.slice(0, i)) {
      if (o.name === d.name) refuse(`two settings files are for ${d.name}: a server holds a district once (its policy, units and sudo rule are named after it)`);
      if (o.releasesDir === d.releasesDir) refuse(`${o.name} and ${d.name} would both publish into ${d.releasesDir}: give each a DATA_DIR of its own`);
      if (o.webhookPort === d.webhookPort) refuse(`${o.name} and ${d.name} would both listen on WEBHOOK_PORT ${d.webhookPort}: give each a port of its own`);
    }
    const group = hosts.get(d.host) ?? [];
    for (const o of group) {
      if (o.basePath === d.basePath) refuse(`${o.name} and ${d.name} are both at https://${d.host}${d.basePath}/: give one of them another BASE_PATH`);
      const [outer, inner] = o.basePath.length < d.basePath.length ? [o, d] : [d, o];
      if (inner.basePath.startsWith(`${outer.basePath}/`)) {
        refuse(
          `${inner.name} (https://${d.host}${inner.basePath}/) is inside ${outer.name}'s address (https://${d.host}${outer.basePath}/): ` +
            "a device would keep one's pages in the other's offline copies; put each under a path of its own beside the other",
        );
      }
    }
    group.push(d);
    hosts.set(d.host, group);
  }
  return hosts;
}

/** Where deploy/hokimiyat-load-policy keeps a district's policy: root's folder, as that helper names it. */
export const POLICY_DIR = '/etc/hokimiyat-site/nginx/policy';
export const policySnippet = (district: string) => `${POLICY_DIR}/${district}.conf`;

const indent = (lines: string[], by = '    ') => lines.map((l) => (l ? by + l : l));

/** The headers of every answer: its caching rule and the security headers (scripts/serving/server-config.ts says why each; HSTS: `; preload` only once every subdomain has HTTPS). */
const EVERY_ANSWER = ['add_header Cache-Control $hokimiyat_cache_control always;', ...SECURITY_HEADERS.map(({ name, value }) => `add_header ${name} "${value}" always;`)];

/** A district's location: its release under its path, its headers and policy, and each language's error pages. */
function districtLocation(d: ServedDistrict, tables: Tables): string[] {
  const base = d.basePath;
  // Under a path the release's files are at its root: the path is taken off before the file is looked up.
  const rewrite = base ? [`rewrite ^${base}(/.*)$ $1 break;`] : [];
  const languages = tables.prefixes
    .filter(Boolean)
    .flatMap((p) => [
      `location ${base ? '^~ ' : ''}${base}/${p}/ {`,
      ...indent([
        ...rewrite,
        `error_page 500 502 503 504 ${base}/${p}/500/index.html;`,
        `error_page 404 ${base}/${p}/404/index.html;`,
        'try_files $uri $uri/index.html $uri.html =404;',
      ]),
      '}',
    ]);
  return [
    `# ${d.name}: ${d.releasesDir}/current at https://${d.host}${base}/`,
    `location ${base ? '^~ ' : ''}${base}/ {`,
    ...indent([
      // `npm run rebuild` swaps this symlink atomically; nginx follows it per request.
      `root ${d.releasesDir}/current;`,
      ...rewrite,
      // nginx drops the server's add_header lines in a location that has one (the policy), so they are here again.
      '# Every answer carries these, error pages too; the nested locations have no add_header of their own, so they keep them.',
      ...EVERY_ANSWER,
      '# The Content-Security-Policy of the current release: root writes it, from the policy the rebuild hands',
      '# over through POLICY_COMMAND, after checking it (deploy/hokimiyat-load-policy). Nothing the service user',
      '# can write is read here. Run a first rebuild before enabling the site: nginx refuses a missing include.',
      `include ${policySnippet(d.name)};`,
      '# Pages: /news/5 is news/5/index.html; /500 is 500.html. The error screen and the not-found page in each language.',
      'try_files $uri $uri/index.html $uri.html =404;',
      `error_page 500 502 503 504 ${base}/500.html;`,
      `error_page 404 ${base}/404.html;`,
      ...languages,
    ]),
    '}',
    ...(base ? [`location = ${base} {`, `    return 301 ${base}/$is_args$args;`, '}'] : []),
  ];
}

const TLS12_CIPHERS = [
  'ECDHE-ECDSA-AES128-GCM-SHA256',
  'ECDHE-RSA-AES128-GCM-SHA256',
  'ECDHE-ECDSA-AES256-GCM-SHA384',
  'ECDHE-RSA-AES256-GCM-SHA384',
  'ECDHE-ECDSA-CHACHA20-POLY1305',
  'ECDHE-RSA-CHACHA20-POLY1305',
].join(':');

/** The server blocks of one host: plain HTTP that only redirects, and HTTPS with its districts. */
function hostServers(host: string, districts: readonly ServedDistrict[], tables: Tables): string[] {
  // The other names (www.) of the district at the host's root; a district under a path of a shared host brings none.
  const names = [...new Set([host, ...districts.filter((d) => !d.basePath).flatMap((d) => d.names)])].join(' ');
  const atRoot = districts.some((d) => !d.basePath);
  return [
    `# ${host}: ${districts.map((d) => `${d.name} at ${d.basePath || '/'}`).join(', ')}.`,
    '# Plain HTTP only redirects to HTTPS (and would answer an ACME http-01 challenge if you add one here).',
    'server {',
    '    listen 80;',
    '    listen [::]:80;',
    `    server_name ${names};`,
    "    # To the site's own name, never to the Host a request brings (which would make this an open redirect).",
    `    return 301 https://${host}$request_uri;`,
    '}',
    '',
    'server {',
    "    # `ssl http2` on the listen line works on every nginx in use (Debian's 1.22 has no `http2 on;`,",
    '    # which 1.25.1+ prefers and for which it only warns about this form).',
    '    listen 443 ssl http2;',
    '    listen [::]:443 ssl http2;',
    `    server_name ${names};`,
    '',
    `    # Placeholders: the certificate chain and key for ${host}, e.g. from Let's Encrypt (certbot`,
    '    # writes them under /etc/letsencrypt/live/<name>/). nginx refuses to start until they exist.',
    `    ssl_certificate     /etc/ssl/hokimiyat-site/${host}/fullchain.pem;`,
    `    ssl_certificate_key /etc/ssl/hokimiyat-site/${host}/privkey.pem;`,
    '    # Mozilla\'s "intermediate" settings: TLS 1.2 with forward-secret AEAD ciphers only, 1.3 as it comes.',
    '    # Session tickets off: their key would live as long as nginx runs and undo forward secrecy.',
    '    ssl_protocols TLSv1.2 TLSv1.3;',
    `    ssl_ciphers ${TLS12_CIPHERS};`,
    '    ssl_prefer_server_ciphers off;',
    '    ssl_session_cache shared:hokimiyat_tls:10m;',
    '    ssl_session_timeout 1d;',
    '    ssl_session_tickets off;',
    '',
    '    disable_symlinks off;',
    '    brotli_static on;',
    '    gzip_static on;',
    '    gzip_vary on;',
    '    # Most pages have a .br and no .gz (scripts/pipeline/finish/precompress.ts says why): a client without',
    "    # brotli gets them gzipped as they are sent, HTML only (gzip_types' default). A cache in",
    '    # front (a CDN, which adds Via) gets them too: Vary keeps each coding apart.',
    '    gzip on;',
    '    gzip_comp_level 5;',
    '    gzip_proxied any;',
    '    charset utf-8;',
    '',
    '    # Location headers stay relative (/news/page/2), as npm run preview sends them.',
    '    absolute_redirect off;',
    "    # What the operator adds to this host (an edge's listen line, the webhook's /hooks/ behind TLS: docs/webhook.md)",
    "    # lives in root's own files there, which writing this configuration again leaves as they are.",
    `    include /etc/hokimiyat-site/nginx/${host}/*.conf;`,
    "    # Answers made outside a district's location (a redirect below, another path's 404) carry them too; the",
    '    # security headers: scripts/serving/server-config.ts says why each; HSTS: `; preload` only once every subdomain has HTTPS.',
    ...indent(EVERY_ANSWER),
    '',
    ...indent(districts.flatMap((d) => [...districtLocation(d, tables), ''])),
    ...(atRoot ? [] : ["    # The host's other paths are not this server's districts'.", '    location / {', '        return 404;', '    }']),
    '}',
  ];
}

/** The whole configuration, read inside nginx's http block (/etc/nginx/sites-available/). */
export function nginxConfig(districts: readonly ServedDistrict[], tables: Tables = SITE_TABLES): string {
  if (!districts.length) throw new SettingsFileError('no district to serve: name at least one settings file');
  const hosts = byHost(districts);
  return `${[
    "# Made by `npm run server-config` from the districts' settings files and the site's tables",
    '# (scripts/serving/nginx-config.ts); do not edit by hand: write it again. The same behaviour as',
    '# `npm run preview` (scripts/serve.ts), and tested against it by tests/e2e/nginx.spec.ts.',
    '# Put it in /etc/nginx/sites-available/ (it is read inside the http block). brotli_static needs the',
    '# ngx_brotli module (Debian: libnginx-mod-http-brotli-static).',
    '',
    '# The caching rule of each path (scripts/serving/cache-rules.ts says why): hashed assets a year; pages',
    '# revalidated by browsers on every visit, kept five minutes by an edge in front (purged by each rebuild)',
    '# and served from it for a week if this server fails; other files a day. Errors are never kept. Under a',
    "# path, $uri is the file's path in its release when the header is made, so the rules see `/_astro/…`.",
    nginxCacheMap(),
    'map $status $hokimiyat_cache_control {',
    '    200      $hokimiyat_cache_by_path;',
    '    206      $hokimiyat_cache_by_path;',
    '    304      $hokimiyat_cache_by_path;',
    '    default  "no-store";',
    '}',
    'server_tokens off;',
    '',
    ...[...hosts].flatMap(([host, group]) => [...hostServers(host, group, tables), '']),
  ]
    .join('\n')
    .replace(/\n+$/, '')}\n`;
}

/** The settings file of the example district, and the folder the units run from (deploy/*.service). */
export const EXAMPLE_SETTINGS = 'deploy/site.env.example';
export const PROJECT_DIR = '/srv/hokimiyat-site';

/** The districts of settings files, read and checked. */
export function servedDistricts(files: readonly string[], projectDir: string = PROJECT_DIR): ServedDistrict[] {
  return files.map((file) => servedDistrict(parseSettingsFile(readFileSync(file, 'utf8'), file), file, projectDir));
}

/** deploy/nginx.conf: the configuration of a server holding the example district. */
export const exampleNginxConfig = () => nginxConfig(servedDistricts([EXAMPLE_SETTINGS]));
