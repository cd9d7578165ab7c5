/**
 * Root's side of the Content-Security-Policy: deploy/hokimiyat-load-policy, the one command the service user
 * may run as root, and the nginx configuration that reads what it writes. What the build sends is not
 * trusted (it parses pictures and HTML from the internet): nothing it writes may become a directive of
 * root's nginx, and nothing root's nginx includes may lie where the service user can write.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkedPolicy, policy } from '../../scripts/pipeline/finish/csp.ts';
import { nginxConfig, parseSettingsFile, POLICY_DIR, servedDistrict } from '../../scripts/serving/nginx-config.ts';
import { policyHelper } from '../helpers/load-policy.ts';

const folders: string[] = [];
afterAll(() => folders.forEach((f) => rmSync(f, { recursive: true, force: true })));
const tempFolder = () => {
  const folder = mkdtempSync(join(tmpdir(), 'load-policy-'));
  folders.push(folder);
  return folder;
};

/** A command for the helper to run in place of nginx's: it writes its name into `log` and exits with `code`. */
function recorder(folder: string, name: string, log: string, code = 0): string {
  const path = join(folder, name);
  writeFileSync(path, `#!/bin/sh\necho ${name} >> '${log}'\nexit ${code}\n`);
  chmodSync(path, 0o755);
  return path;
}

const BUILT = policy(["'sha256-q2L2dXbh8TPNvV2GIy6IqOs2r7g8uH+t1zYcy2hd8Kc='"], {
  publicApiBase: 'https://api.qorakul.uz',
  mediaBase: 'https://media.qorakul.uz',
  siteUrl: 'https://qorakul.uz',
});
const snippetOf = (p: string) => `add_header Content-Security-Policy "${p}" always;\n`;

function setUp(commands: { testCode?: number; reloadCode?: number } = {}) {
  const folder = tempFolder();
  const log = join(folder, 'nginx.log');
  const helper = policyHelper(folder, {
    test: recorder(folder, 'test', log, commands.testCode ?? 0),
    reload: recorder(folder, 'reload', log, commands.reloadCode ?? 0),
  });
  const load = (input: string, district = 'qorakul') => spawnSync(helper.path, [district], { input, encoding: 'utf8' });
  const snippet = () => readFileSync(join(helper.dir, 'qorakul.conf'), 'utf8');
  const calls = () => (existsSync(log) ? readFileSync(log, 'utf8').trim().split('\n') : []);
  return { helper, load, snippet, calls };
}

describe('deploy/hokimiyat-load-policy', () => {
  it('writes a policy of the build into the snippet nginx includes, then checks and reloads nginx', () => {
    const { helper, load, snippet, calls } = setUp();
    const result = load(`${BUILT}\n`);
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(snippet()).toBe(snippetOf(BUILT));
    expect(statSync(join(helper.dir, 'qorakul.conf')).mode & 0o777).toBe(0o644);
    expect(calls()).toEqual(['test', 'reload']);
  });

  it.each([
    ["the review's payload: a quote that ends the header and adds an access_log as root", `default-src 'self'"; access_log /etc/ld.so.preload combined; add_header X "1`],
    ['a nginx variable', "default-src 'self' $request_uri"],
    ['a brace', "default-src 'self'; } server { listen 81"],
    ['a backslash', "default-src 'self' \\x22"],
    ['a second line', "default-src 'self'\ninclude /srv/hokimiyat-site/x.conf;"],
    ['a bare semicolon directive', "default-src 'self';; access_log /tmp/x"],
    ['nothing', ''],
    ['more than nginx takes in one value (4,000 bytes)', `default-src 'self'${" 'sha256-AAAA'".repeat(300)}`],
    ['a carriage return (refused, not dropped)', "default-src 'self';\r upgrade-insecure-requests"],
    ['a NUL byte (refused, not dropped)', "default-src 'self' a\u0000b"],
  ])('refuses %s, and leaves the loaded policy and nginx as they were', (_, hostile) => {
    const { load, snippet, calls } = setUp();
    expect(load(BUILT).status).toBe(0);
    const result = load(hostile);
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/^hokimiyat-load-policy: /);
    expect(snippet()).toBe(snippetOf(BUILT));
    expect(calls()).toEqual(['test', 'reload']);
  });

  it('refuses a district name that is not one (a path, an option)', () => {
    const { helper, load } = setUp();
    for (const district of ['../../nginx/sites-enabled/x', '-t', 'Qorakul', '', 'qorakul\n../x', 'q'.repeat(64)]) {
      const result = load(BUILT, district);
      expect(result.status, district).toBe(1);
      expect(result.stderr).toMatch(/no district name|usage/);
    }
    expect(existsSync(helper.dir)).toBe(false);
  });

  it('puts the previous snippet back when nginx refuses the configuration or cannot reload', () => {
    for (const [commands, said] of [
      [{ testCode: 1 }, /nginx refused the configuration/],
      [{ reloadCode: 1 }, /nginx could not be reloaded/],
    ] as const) {
      const { helper, load, snippet } = setUp(commands);
      // A first policy in place, written as it would be by an earlier, successful load.
      spawnSync('mkdir', ['-p', helper.dir]);
      writeFileSync(join(helper.dir, 'qorakul.conf'), snippetOf("default-src 'self'"));
      const result = load(BUILT);
      expect(result.status).toBe(1);
      expect(result.stderr).toMatch(said);
      expect(snippet()).toBe(snippetOf("default-src 'self'"));
    }
  });

  it("takes exactly what the build would send: its own grammar check and root's agree", () => {
    const samples = [
      BUILT,
      "default-src 'self'",
      "default-src 'self'; upgrade-insecure-requests",
      `default-src 'self'"; x`,
      "default-src 'self';",
      'Default-src x',
      "img-src 'self' data: https://media.qorakul.uz",
    ];
    for (const sample of samples) {
      const { load } = setUp();
      const rootTakes = load(sample).status === 0;
      const buildSends = (() => {
        try {
          return checkedPolicy(sample) === sample;
        } catch {
          return false;
        }
      })();
      expect(buildSends, sample).toBe(rootTakes);
    }
  });
});

describe("root's nginx configuration", () => {
  const includes = (config: string) => [...config.matchAll(/^\s*include\s+([^;]+);/gm)].map((m) => m[1]!);

  it("includes only root's files: no policy, snippet or folder of the service user's", () => {
    const example = readFileSync('deploy/nginx.conf', 'utf8');
    const settings = parseSettingsFile(
      ['SITE_DISTRICT=chust', 'DISTRICTS_DIR=tests/fixtures/districts', 'SITE_URL=https://gov.example', 'BASE_PATH=/chust', 'DATA_DIR=/srv/hokimiyat-site/sites/chust'].join('\n'),
      'chust.env',
    );
    const shared = nginxConfig([servedDistrict(settings, 'chust.env', '/srv/hokimiyat-site')]);
    for (const config of [example, shared]) {
      expect(includes(config).length).toBeGreaterThan(0);
      for (const path of includes(config)) expect(path, path).toMatch(/^\/etc\/(nginx|hokimiyat-site\/nginx)\//);
      expect(config).not.toMatch(/\/srv\/hokimiyat-site\/[^;\n]*\.conf/);
    }
    expect(includes(example)).toContain(`${POLICY_DIR}/qorakul.conf`);
    expect(includes(shared)).toContain(`${POLICY_DIR}/chust.conf`);
  });
});
