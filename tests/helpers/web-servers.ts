/**
 * The production web servers run for real in tests, on loopback and free ports, each in a folder of its
 * own: nginx with deploy/nginx.conf (the HTTPS server as plain HTTP, no certificate in a test) and Varnish
 * with deploy/varnish.vcl in front of it. Only ports and folders are changed from the committed files.
 * Debian: nginx libnginx-mod-http-brotli-static varnish (.ci/run installs them).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { POLICY_DIR } from '../../scripts/serving/nginx-config.ts';

const NGINX = process.env.NGINX_PATH ?? '/usr/sbin/nginx';
const BROTLI_MODULE = '/usr/lib/nginx/modules/ngx_http_brotli_static_module.so';
const VARNISHD = process.env.VARNISHD_PATH ?? '/usr/sbin/varnishd';

async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await new Promise((ok) => server.once('listening', ok));
  const { port } = server.address() as AddressInfo;
  await new Promise((ok) => server.close(ok));
  return port;
}

async function waitFor(what: string, check: () => Promise<boolean>, ms = 15_000): Promise<void> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (await check().catch(() => false)) return;
    await new Promise((ok) => setTimeout(ok, 100));
  }
  throw new Error(`${what} did not start within ${ms / 1000} s`);
}

/**
 * Writes nginx's main configuration around `site` (a configuration read inside the http block) into `folder`,
 * as one process of the current user writing only there, and has `nginx -t` check it; returns the arguments
 * that run it. Throws with what nginx said when it refuses.
 */
export function checkedNginxConfig(folder: string, site: string, accessLog = join(folder, 'access.log')): string[] {
  if (!existsSync(NGINX) || !existsSync(BROTLI_MODULE)) {
    throw new Error('This test runs nginx: install it with `apt-get install nginx libnginx-mod-http-brotli-static` (or set NGINX_PATH).');
  }
  const temp = (name: string) => `${name}_temp_path ${join(folder, name)};`;
  writeFileSync(
    join(folder, 'nginx.conf'),
    [
      `load_module ${BROTLI_MODULE};`,
      // One process as the current user, in the foreground, writing only into the test's folder.
      'master_process off;',
      'daemon off;',
      `pid ${join(folder, 'nginx.pid')};`,
      `error_log ${join(folder, 'error.log')} warn;`,
      'events { worker_connections 64; }',
      'http {',
      'include /etc/nginx/mime.types;',
      'default_type application/octet-stream;',
      "log_format requests '$status $request_uri';",
      `access_log ${accessLog} requests;`,
      ...['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map(temp),
      site,
      '}',
    ].join('\n'),
  );
  const args = ['-p', folder, '-e', join(folder, 'error.log'), '-c', join(folder, 'nginx.conf')];
  const check = spawnSync(NGINX, ['-t', ...args], { encoding: 'utf8' });
  if (check.status !== 0) throw new Error(`nginx -t:\n${check.stderr}`);
  return args;
}

export interface Nginx {
  /** The site (the configuration's HTTPS server). */
  base: string;
  /** The configuration's port-80 server, which only redirects. */
  plainBase: string;
  /** One line per request the site answered: `<status> <uri>`. */
  requests(): string[];
  stop(): Promise<void>;
  start(): Promise<void>;
  close(): Promise<void>;
}

/**
 * deploy/nginx.conf serving `root` (a release folder or the `current` link), or `config`, a configuration of
 * one host made by scripts/serving/nginx-config.ts for folders of the test's own; with the policy snippets root's
 * helper wrote into `policyDir` (tests/helpers/load-policy.ts) in place of its folder in /etc. `edit` may
 * change the site's configuration further (a test's shorter cache time).
 */
export async function startNginx(options: ({ root: string } | { config: string }) & { policyDir: string; edit?: (site: string) => string }): Promise<Nginx> {
  if (!existsSync(NGINX) || !existsSync(BROTLI_MODULE)) {
    throw new Error('This test runs deploy/nginx.conf in nginx: install it with `apt-get install nginx libnginx-mod-http-brotli-static` (or set NGINX_PATH).');
  }
  const folder = mkdtempSync(join(tmpdir(), 'nginx-'));
  const port = await freePort();
  const redirectPort = await freePort();
  let site = ('config' in options ? options.config : readFileSync('deploy/nginx.conf', 'utf8'))
    .replace('listen [::]:80;', '')
    .replace('listen 80;', `listen 127.0.0.1:${redirectPort};`)
    .replace('listen [::]:443 ssl http2;', '')
    .replace('listen 443 ssl http2;', `listen 127.0.0.1:${port};`)
    .replace(/^\s*ssl_\w+ .*$/gm, '');
  if (!('config' in options)) site = site.replaceAll('/srv/hokimiyat-site/.releases/current', resolve(options.root));
  site = site.replaceAll(`${POLICY_DIR}/`, `${resolve(options.policyDir)}/`);
  if (site.includes('/srv/') || site.includes(POLICY_DIR)) throw new Error('a production path of the nginx configuration was not replaced');
  if (options.edit) site = options.edit(site);
  const accessLog = join(folder, 'access.log');
  const args = checkedNginxConfig(folder, site, accessLog);
  const base = `http://127.0.0.1:${port}`;
  let child: ChildProcess | undefined;
  const start = async () => {
    child = spawn(NGINX, args, { stdio: 'ignore' });
    // Ready when nginx itself answers (not some other server that took the port first).
    await waitFor('nginx', async () => (await fetch(`${base}/`, { method: 'HEAD' })).headers.get('server') === 'nginx');
  };
  const stop = async () => {
    if (!child || child.exitCode !== null) return;
    const exited = new Promise((ok) => child!.once('exit', ok));
    child.kill('SIGTERM');
    await exited;
  };
  await start();
  return {
    base,
    plainBase: `http://127.0.0.1:${redirectPort}`,
    requests: () => (existsSync(accessLog) ? readFileSync(accessLog, 'utf8').split('\n').filter(Boolean) : []),
    start,
    stop,
    close: async () => {
      await stop();
      rmSync(folder, { recursive: true, force: true });
    },
  };
}

export interface Edge {
  base: string;
  /** The file with the purge key the edge was started with, for PURGE_KEY_FILE. */
  purgeKeyFile: string;
  close(): Promise<void>;
}

/** deploy/varnish.vcl in front of `origin` (a base URL on loopback), with the flags its header names. */
export async function startVarnish(origin: string): Promise<Edge> {
  if (!existsSync(VARNISHD)) throw new Error('This test runs deploy/varnish.vcl: install Varnish with `apt-get install varnish` (or set VARNISHD_PATH).');
  const folder = mkdtempSync(join(tmpdir(), 'varnish-'));
  const { hostname, port: originPort } = new URL(origin);
  const purgeKeyFile = join(folder, 'purge-key');
  writeFileSync(purgeKeyFile, `${randomBytes(24).toString('hex')}\n`, { mode: 0o600 });
  const vcl = readFileSync('deploy/varnish.vcl', 'utf8')
    .replace('.host = "127.0.0.1";', `.host = "${hostname}";`)
    .replace('.port = "8080";', `.port = "${originPort}";`)
    .replace('"/etc/varnish/hokimiyat-purge-key"', JSON.stringify(purgeKeyFile));
  if (!vcl.includes(`.port = "${originPort}"`) || !vcl.includes(purgeKeyFile)) throw new Error('deploy/varnish.vcl: the origin port or the purge key file was not replaced');
  writeFileSync(join(folder, 'site.vcl'), vcl);
  const port = await freePort();
  // -j none: no privilege separation (the test runs as whoever runs it); -T none: no management port.
  const child = spawn(
    VARNISHD,
    ['-F', '-j', 'none', '-T', 'none', '-n', join(folder, 'work'), '-a', `127.0.0.1:${port}`, '-f', join(folder, 'site.vcl'), '-s', 'malloc,128m', '-p', 'http_gzip_support=off'],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const base = `http://127.0.0.1:${port}`;
  await waitFor('varnishd', async () => {
    if (child.exitCode !== null) throw new Error(`varnishd exited: ${stderr}`);
    return (await fetch(`${base}/`, { method: 'HEAD' })).headers.has('x-edge');
  }).catch((error: unknown) => {
    child.kill('SIGKILL');
    throw new Error(`${error instanceof Error ? error.message : String(error)}\n${stderr}`);
  });
  return {
    base,
    purgeKeyFile,
    close: async () => {
      if (child.exitCode === null) {
        const exited = new Promise((ok) => child.once('exit', ok));
        child.kill('SIGTERM');
        await exited;
      }
      rmSync(folder, { recursive: true, force: true });
    },
  };
}
