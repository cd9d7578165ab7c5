/**
 * The web server's Content-Security-Policy, which follows the served release: each finished release carries
 * its own (csp.ts writes it), POLICY_COMMAND hands it to the web server, and RELEASES_DIR/policy-loaded.txt
 * records what the server was last given (a record, which nothing of root's reads).
 */
import { spawn } from 'node:child_process';
import { readFile, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { RETIRED_RELOAD_COMMAND } from '../../../src/config.ts';
import { writeFileDurably } from '../../lib/files.ts';
import { checkedPolicy, CSP_FILE } from '../finish/csp.ts';

/** The policy of release `id`, or null when there is no such release or it has none (it was never finished). */
export async function releasePolicy(dir: string, id: string | null): Promise<string | null> {
  if (!id) return null;
  const text = (await readFile(join(dir, id, CSP_FILE), 'utf8').catch(() => '')).trim();
  return text || null;
}

/** A policy allowing everything either policy allows: the sources of each directive, united. */
export function unionPolicy(a: string, b: string): string {
  const directives = new Map<string, string[]>();
  for (const policy of [a, b]) {
    for (const part of policy.split(';')) {
      const [name, ...sources] = part.trim().split(/\s+/);
      if (!name) continue;
      const list = directives.get(name) ?? [];
      for (const s of sources) if (!list.includes(s)) list.push(s);
      directives.set(name, list);
    }
  }
  return [...directives].map(([name, sources]) => [name, ...sources].join(' ')).join('; ');
}

/** The record of the policy the web server was last given (RELEASES_DIR/policy-loaded.txt). */
export const LOADED_POLICY_FILE = 'policy-loaded.txt';

/**
 * Hands `policy` to the web server: POLICY_COMMAND with the policy on its standard input, one line (in
 * production `sudo -n /usr/local/sbin/hokimiyat-load-policy <district>`, deploy/hokimiyat-load-policy, which
 * checks it and reloads nginx as root). Without POLICY_COMMAND the policy is only recorded.
 */
function runPolicyCommand(policy: string): Promise<void> {
  const command = process.env.POLICY_COMMAND?.trim();
  if (!command) return process.env.RELOAD_COMMAND?.trim() ? Promise.reject(new Error(RETIRED_RELOAD_COMMAND)) : Promise.resolve();
  return new Promise((ok, fail) => {
    const child = spawn(command, { shell: true, stdio: ['pipe', 'inherit', 'inherit'] });
    // A command that does not read its input must not make this fail with EPIPE: its exit status says it all.
    child.stdin.on('error', () => undefined);
    child.stdin.end(`${policy}\n`);
    child.on('error', fail).on('exit', (code, signal) => (code === 0 ? ok() : fail(new Error(`POLICY_COMMAND (${command}) exited with ${signal ?? code}`))));
  });
}

async function restore(file: string, snapshot: string | null): Promise<void> {
  if (snapshot === null) await unlink(file).catch(() => undefined);
  else await writeFileDurably(file, snapshot);
}

export const readLoadedPolicy = async (record: string) => (await readFile(record, 'utf8').catch(() => null))?.trim() ?? null;

/**
 * Records `policy` and has the web server load it. On failure the record is put back to `loaded`, what the
 * server still has, so that the next run sees the difference; returns why it failed. A policy the web
 * server's helper would refuse is not sent.
 */
export async function loadPolicy(record: string, policy: string, loaded: string | null): Promise<string | null> {
  try {
    checkedPolicy(policy);
    await writeFileDurably(record, `${policy}\n`);
    await runPolicyCommand(policy);
    return null;
  } catch (error) {
    await restore(record, loaded === null ? null : `${loaded}\n`);
    return error instanceof Error ? error.message : String(error);
  }
}
