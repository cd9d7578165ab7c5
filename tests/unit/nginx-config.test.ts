/**
 * The nginx configuration of a server that holds several districts, made from their settings files
 * (scripts/serving/nginx-config.ts): one server block per host, each district under its path, and nothing a
 * settings file holds can add a directive to what root's nginx reads.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { nginxConfig, parseSettingsFile, POLICY_DIR, servedDistricts, SettingsFileError } from '../../scripts/serving/nginx-config.ts';
import { checkedNginxConfig } from '../helpers/web-servers.ts';

const folder = mkdtempSync(join(tmpdir(), 'settings-'));
/** A settings file of the given lines; returns its path. */
function settingsFile(name: string, lines: string[]): string {
  const file = join(folder, `${name}.env`);
  writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
}
const CHUST = ['SITE_DISTRICT=chust', 'DISTRICTS_DIR=tests/fixtures/districts'];
/** A third district, Chust's folder under another name. */
cpSync('tests/fixtures/districts/chust', join(folder, 'districts/kosonsoy'), { recursive: true });
const KOSONSOY = ['SITE_DISTRICT=kosonsoy', `DISTRICTS_DIR=${join(folder, 'districts')}`];

describe('several districts on one server', () => {
  it('reads a settings file as systemd does: comments, quotes, NAME=value', () => {
    expect(parseSettingsFile('# a comment\n\nA=1\nB="two words"\nC=\'x\'\n', 'f')).toEqual({ A: '1', B: 'two words', C: 'x' });
    expect(() => parseSettingsFile('export A=1\n', 'site.env')).toThrow(/site\.env:1: not NAME=value/);
  });

  it('puts districts of one host under their paths in one server block, and a district with its own name in another', () => {
    const districts = servedDistricts(
      [
        settingsFile('qorakul', ['SITE_DISTRICT=qorakul', 'SITE_URL=https://gov.example', 'BASE_PATH=/qorakul', 'DATA_DIR=/srv/hokimiyat-site/sites/qorakul']),
        settingsFile('chust', [...CHUST, 'SITE_URL="https://gov.example/chust"', 'BASE_PATH=/chust', 'RELEASES_DIR=sites/chust/releases', 'WEBHOOK_PORT=8791']),
        settingsFile('kosonsoy', [...KOSONSOY, 'SITE_URL=https://chust.example', 'RELEASES_DIR=/srv/chust/releases', 'WEBHOOK_PORT=8792']),
      ],
      '/srv/hokimiyat-site',
    );
    expect(districts.map((d) => [d.name, d.host, d.basePath, d.releasesDir])).toEqual([
      ['qorakul', 'gov.example', '/qorakul', '/srv/hokimiyat-site/sites/qorakul/.releases'],
      ['chust', 'gov.example', '/chust', '/srv/hokimiyat-site/sites/chust/releases'],
      ['kosonsoy', 'chust.example', '', '/srv/chust/releases'],
    ]);
    const config = nginxConfig(districts);
    expect(config.match(/^server \{/gm)).toHaveLength(4);
    expect(config).toContain('    location ^~ /chust/ {\n        root /srv/hokimiyat-site/sites/chust/releases/current;\n        rewrite ^/chust(/.*)$ $1 break;');
    // Each district's policy is root's file, named after it (deploy/hokimiyat-load-policy writes it).
    expect(config).toContain('        include /etc/hokimiyat-site/nginx/policy/qorakul.conf;');
    expect(config).toContain('        include /etc/hokimiyat-site/nginx/policy/kosonsoy.conf;');
    expect(config).toContain('        error_page 404 /chust/ru/404/index.html;');
    expect(config).toContain('    location = /qorakul {\n        return 301 /qorakul/$is_args$args;');
    // An old list link is the list itself: no redirect names a page number.
    expect(config).not.toContain('pageNumber');
    // The shared domain's root is not the districts': only the host a district has alone serves it there.
    expect(config.split('# chust.example:')[0]).toContain('    location / {\n        return 404;');
    expect(config.split('# chust.example:')[1]).toContain('    location / {\n        root /srv/chust/releases/current;');
    expect(config.match(/server_name .*;/g)).toEqual(['server_name gov.example;', 'server_name gov.example;', 'server_name chust.example;', 'server_name chust.example;']);
  });

  it("a district's own configuration has nothing of another district's", () => {
    const config = nginxConfig(servedDistricts([settingsFile('alone', [...CHUST, 'SITE_URL=https://chust.example', 'DATA_DIR=/srv/hokimiyat-site/sites/chust'])]));
    expect(config).not.toMatch(/qorakul|qorakoʻl/i);
    expect(config).toContain('root /srv/hokimiyat-site/sites/chust/.releases/current;');
  });

  it("refuses a settings file that would write into root's configuration, naming the file", () => {
    const hostile = [
      [
        ['SITE_DISTRICT=qorakul', 'SITE_URL=https://qorakul.uz', 'RELEASES_DIR=/srv/x; access_log /etc/ld.so.preload combined'],
        /RELEASES_DIR \(or DATA_DIR\) .* holds a character/,
      ],
      [['SITE_DISTRICT=qorakul', 'SITE_URL=https://qorakul.uz', 'DATA_DIR=/srv/x{'], /holds a character/],
      [['SITE_DISTRICT=qorakul', 'SITE_URL=https://qorakul.uz', 'BASE_PATH=/a;b'], /BASE_PATH "\/a;b" is not a path/],
      [['SITE_DISTRICT=../etc', 'SITE_URL=https://qorakul.uz'], /is no district folder name/],
      [['SITE_URL=https://qorakul.uz'], /SITE_DISTRICT is not set/],
      [['SITE_DISTRICT=qorakul', 'SITE_URL=javascript:alert(1)'], /is not an http\(s\) address/],
    ] as const;
    for (const [lines, message] of hostile) {
      const file = settingsFile('hostile', [...lines]);
      expect(() => servedDistricts([file]), lines.join(' ')).toThrow(SettingsFileError);
      expect(() => servedDistricts([file]), lines.join(' ')).toThrow(message);
      expect(() => servedDistricts([file])).toThrow(file);
    }
  });

  it('refuses districts whose addresses, release folders or webhook ports would overlap', () => {
    const qorakul = (...lines: string[]) => settingsFile('a', ['SITE_DISTRICT=qorakul', 'SITE_URL=https://gov.example', 'DATA_DIR=/srv/a', ...lines]);
    const chust = (...lines: string[]) => settingsFile('b', [...CHUST, 'SITE_URL=https://gov.example', 'DATA_DIR=/srv/b', 'WEBHOOK_PORT=8791', ...lines]);
    const refused = (a: string, b: string) => () => nginxConfig(servedDistricts([a, b]));
    expect(refused(qorakul('BASE_PATH=/x'), chust('BASE_PATH=/x/'))).toThrow('qorakul and chust are both at https://gov.example/x/: give one of them another BASE_PATH');
    // A district at the host's root beside one under its path, or one path inside another: their workers' scopes would overlap.
    expect(refused(qorakul(), chust('BASE_PATH=/chust'))).toThrow("chust (https://gov.example/chust/) is inside qorakul's address (https://gov.example/)");
    expect(refused(qorakul('BASE_PATH=/samarqand'), chust('BASE_PATH=/samarqand/chust'))).toThrow(/chust .* is inside qorakul's address/);
    expect(refused(qorakul('BASE_PATH=/a'), chust('BASE_PATH=/b', 'DATA_DIR=/srv/a'))).toThrow(
      'qorakul and chust would both publish into /srv/a/.releases: give each a DATA_DIR of its own',
    );
    expect(refused(qorakul('BASE_PATH=/a', 'WEBHOOK_PORT=8791'), chust('BASE_PATH=/b'))).toThrow('qorakul and chust would both listen on WEBHOOK_PORT 8791');
    const again = settingsFile('chust-again', [...CHUST, 'SITE_URL=https://chust.example', 'DATA_DIR=/srv/b', 'WEBHOOK_PORT=8795']);
    expect(refused(chust('BASE_PATH=/b'), again)).toThrow('two settings files are for chust: a server holds a district once');
    expect(nginxConfig(servedDistricts([qorakul('BASE_PATH=/samarqand'), chust('BASE_PATH=/samarqand-chust')]))).toContain('location ^~ /samarqand-chust/ {');
  });

  it('names the settings file of a district whose folder is invalid', () => {
    const file = settingsFile('nowhere', ['SITE_DISTRICT=nowhere', 'SITE_URL=https://gov.example']);
    expect(() => servedDistricts([file])).toThrow(new RegExp(`${file}: .*districts/nowhere/district\\.json does not exist`));
  });
});

describe('TLS as the configuration sets it', () => {
  it('offers TLS 1.2 only with forward-secret AEAD ciphers, keeps no session tickets, and nginx takes it with a certificate', () => {
    const config = readFileSync('deploy/nginx.conf', 'utf8');
    expect(config).toMatch(/^\s*ssl_protocols TLSv1\.2 TLSv1\.3;$/m);
    expect(config).toMatch(/^\s*ssl_session_tickets off;$/m);
    const ciphers = /^\s*ssl_ciphers ([^;]+);$/m.exec(config)?.[1]?.split(':') ?? [];
    expect(ciphers.length).toBeGreaterThan(0);
    for (const cipher of ciphers) expect(cipher).toMatch(/^ECDHE-(ECDSA|RSA)-(AES(128|256)-GCM-SHA(256|384)|CHACHA20-POLY1305)$/);

    // nginx itself, with a throwaway certificate where the configuration names one and the policy in a folder of the test's.
    const dir = mkdtempSync(join(tmpdir(), 'nginx-tls-'));
    const made = spawnSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:P-256',
        '-nodes',
        '-days',
        '1',
        '-subj',
        '/CN=qorakul.uz',
        '-keyout',
        join(dir, 'privkey.pem'),
        '-out',
        join(dir, 'fullchain.pem'),
      ],
      { encoding: 'utf8' },
    );
    expect(made.status, made.stderr).toBe(0);
    mkdirSync(join(dir, 'policy'));
    writeFileSync(join(dir, 'policy', 'qorakul.conf'), 'add_header Content-Security-Policy "default-src \'self\'" always;\n');
    const site = config
      .replaceAll('/etc/ssl/hokimiyat-site/qorakul.uz/', `${dir}/`)
      .replaceAll(`${POLICY_DIR}/`, `${dir}/policy/`)
      .replace(/listen (\[::\]:)?(80|443)/g, (_, v6, port) => `listen ${v6 ? '[::1]' : '127.0.0.1'}:${Number(port) + 40000}`);
    expect(() => checkedNginxConfig(dir, site)).not.toThrow();
    rmSync(dir, { recursive: true, force: true });
  });
});
