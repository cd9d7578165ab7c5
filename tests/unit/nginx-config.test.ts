/**
 * The nginx configuration of a server that holds several districts, made from their settings files
 * (scripts/lib/nginx-config.ts): one server block per host, each district under its path, and nothing a
 * settings file holds can add a directive to what root's nginx reads.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { nginxConfig, parseSettingsFile, servedDistricts, SettingsFileError } from '../../scripts/lib/nginx-config.ts';

const folder = mkdtempSync(join(tmpdir(), 'settings-'));
/** A settings file of the given lines; returns its path. */
function settingsFile(name: string, lines: string[]): string {
  const file = join(folder, `${name}.env`);
  writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
}
const CHUST = ['SITE_DISTRICT=chust', 'DISTRICTS_DIR=tests/fixtures/districts'];

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
        settingsFile('chust-own', [...CHUST, 'SITE_URL=https://chust.example', 'RELEASES_DIR=/srv/chust/releases', 'WEBHOOK_PORT=8792']),
      ],
      '/srv/hokimiyat-site',
    );
    expect(districts.map((d) => [d.name, d.host, d.basePath, d.releasesDir])).toEqual([
      ['qorakul', 'gov.example', '/qorakul', '/srv/hokimiyat-site/sites/qorakul/.releases'],
      ['chust', 'gov.example', '/chust', '/srv/hokimiyat-site/sites/chust/releases'],
      ['chust', 'chust.example', '', '/srv/chust/releases'],
    ]);
    const config = nginxConfig(districts);
    expect(config.match(/^server \{/gm)).toHaveLength(4);
    expect(config).toContain('    location ^~ /chust/ {\n        root /srv/hokimiyat-site/sites/chust/releases/current;\n        rewrite ^/chust(/.*)$ $1 break;');
    expect(config).toContain('        include /srv/hokimiyat-site/sites/qorakul/.releases/csp.conf;');
    expect(config).toContain('        error_page 404 /chust/ru/404/index.html;');
    expect(config).toContain('    location = /qorakul {\n        return 301 /qorakul/$is_args$args;');
    expect(config).toContain('"~^(?<list>/chust/(?:(?:uz-cyrl|ru|en)/)?(?:news|official-lectures))/?\\?(?<n>[1-9][0-9]{0,5})$" $list/page/$n;');
    // The shared domain's root is not the districts': only the host a district has alone serves it there.
    expect(config.split('# chust.example:')[0]).toContain('    location / {\n        return 404;');
    expect(config.split('# chust.example:')[1]).toContain('    location / {\n        root /srv/chust/releases/current;');
    expect(config.match(/server_name .*;/g)).toEqual(['server_name gov.example;', 'server_name gov.example;', 'server_name chust.example;', 'server_name chust.example;']);
  });

  it('a district\'s own configuration has nothing of another district\'s', () => {
    const config = nginxConfig(servedDistricts([settingsFile('alone', [...CHUST, 'SITE_URL=https://chust.example', 'DATA_DIR=/srv/hokimiyat-site/sites/chust'])]));
    expect(config).not.toMatch(/qorakul|qorakoʻl/i);
    expect(config).toContain('root /srv/hokimiyat-site/sites/chust/.releases/current;');
  });

  it('refuses a settings file that would write into root\'s configuration, naming the file', () => {
    const hostile = [
      [['SITE_DISTRICT=qorakul', 'SITE_URL=https://qorakul.uz', 'RELEASES_DIR=/srv/x; access_log /etc/ld.so.preload combined'], /RELEASES_DIR \(or DATA_DIR\) .* holds a character/],
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
    expect(refused(qorakul('BASE_PATH=/a'), chust('BASE_PATH=/b', 'DATA_DIR=/srv/a'))).toThrow('qorakul and chust would both publish into /srv/a/.releases: give each a DATA_DIR of its own');
    expect(refused(qorakul('BASE_PATH=/a', 'WEBHOOK_PORT=8791'), chust('BASE_PATH=/b'))).toThrow('qorakul and chust would both listen on WEBHOOK_PORT 8791');
    expect(nginxConfig(servedDistricts([qorakul('BASE_PATH=/samarqand'), chust('BASE_PATH=/samarqand-chust')]))).toContain('location ^~ /samarqand-chust/ {');
  });

  it('names the settings file of a district whose folder is invalid', () => {
    const file = settingsFile('nowhere', ['SITE_DISTRICT=nowhere', 'SITE_URL=https://gov.example']);
    expect(() => servedDistricts([file])).toThrow(new RegExp(`${file}: .*districts/nowhere/district\\.json does not exist`));
  });
});
