/**
 * deploy/hokimiyat-load-policy as a test runs it: the very script, with only its folder and its two nginx
 * commands changed (it writes into the test's folder and checks and reloads what the test says), so the
 * grammar and the writing a test sees are root's.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface PolicyHelper {
  /** The copy to run: `<path> <district>` with the policy on standard input. */
  path: string;
  /** Where it writes `<district>.conf`, for nginx to include. */
  dir: string;
}

export function policyHelper(folder: string, commands: { test?: string; reload?: string } = {}): PolicyHelper {
  const dir = join(folder, 'policy');
  const path = join(folder, 'hokimiyat-load-policy');
  const replaced: [string, string][] = [
    ['POLICY_DIR=/etc/hokimiyat-site/nginx/policy', `POLICY_DIR='${dir}'`],
    ['LOCK=/run/hokimiyat-load-policy.lock', `LOCK='${join(folder, 'load-policy.lock')}'`],
    ['NGINX_TEST="/usr/sbin/nginx -t -q"', `NGINX_TEST='${commands.test ?? 'true'}'`],
    ['NGINX_RELOAD="/usr/bin/systemctl reload nginx"', `NGINX_RELOAD='${commands.reload ?? 'true'}'`],
  ];
  let script = readFileSync('deploy/hokimiyat-load-policy', 'utf8');
  for (const [from, to] of replaced) {
    if (!script.includes(from)) throw new Error(`deploy/hokimiyat-load-policy no longer says ${from}`);
    script = script.replace(from, to);
  }
  writeFileSync(path, script);
  chmodSync(path, 0o755);
  return { path, dir };
}

/** Has the helper load `policy` for `district`, as POLICY_COMMAND does; throws with what it said when it refuses. */
export function loadPolicy(helper: PolicyHelper, district: string, policy: string): void {
  const result = spawnSync(helper.path, [district], { input: `${policy}\n`, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`hokimiyat-load-policy ${district}: ${result.stderr}`);
}
