/**
 * Where the webhook's secret comes from (scripts/webhook/secret.ts): a file named by WEBHOOK_SECRET_FILE,
 * systemd's credential (LoadCredential=webhook-secret:… puts it in $CREDENTIALS_DIRECTORY), or WEBHOOK_SECRET;
 * and that the real `scripts/webhook.ts` starts with the key from a file and refuses a bad one (exit 1).
 */
import { spawn } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readWebhookSecret, SecretProblem } from '../../scripts/webhook/secret.ts';
import { statusHeaders } from '../helpers/webhook-client.ts';

const ROOT = new URL('../..', import.meta.url).pathname;
const KEY = 'a1b2c3d4e5f60718293a4b5c6d7e8f90';
const OTHER = 'another-key-of-enough-length';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
const tempDir = () => {
  const d = mkdtempSync(join(tmpdir(), 'webhook-secret-'));
  dirs.push(d);
  return d;
};
const file = (text: string, name = 'webhook-secret', dir = tempDir()) => {
  writeFileSync(join(dir, name), text, { mode: 0o600 });
  return join(dir, name);
};
const problem = (env: NodeJS.ProcessEnv) => {
  try {
    readWebhookSecret(env);
  } catch (error) {
    expect(error).toBeInstanceOf(SecretProblem);
    return (error as Error).message;
  }
  throw new Error('expected a refusal');
};

describe('readWebhookSecret', () => {
  it('reads WEBHOOK_SECRET_FILE first, without its trailing line break', () => {
    const path = file(`${KEY}\n`);
    expect(readWebhookSecret({ WEBHOOK_SECRET_FILE: path, WEBHOOK_SECRET: OTHER })).toEqual({ secret: KEY, source: `WEBHOOK_SECRET_FILE (${path})` });
    expect(readWebhookSecret({ WEBHOOK_SECRET_FILE: file(`${KEY}\r\n`) }).secret).toBe(KEY);
    // Only line breaks at the end go: the rest is the key as written.
    expect(readWebhookSecret({ WEBHOOK_SECRET_FILE: file(`  ${KEY}\n`) }).secret).toBe(`  ${KEY}`);
  });

  it('then the systemd credential, then WEBHOOK_SECRET', () => {
    const credentials = tempDir();
    file(`${KEY}\n`, 'webhook-secret', credentials);
    expect(readWebhookSecret({ CREDENTIALS_DIRECTORY: credentials, WEBHOOK_SECRET: OTHER })).toEqual({ secret: KEY, source: 'the systemd credential webhook-secret' });
    // A credentials folder without this credential (the unit loads others) is passed over.
    expect(readWebhookSecret({ CREDENTIALS_DIRECTORY: tempDir(), WEBHOOK_SECRET: OTHER })).toEqual({ secret: OTHER, source: 'WEBHOOK_SECRET' });
  });

  it('refuses, saying where it looked and what to do: nothing set, a missing or unreadable file, an empty or short key', () => {
    expect(problem({})).toMatch(/no webhook secret; refusing to start.*WEBHOOK_SECRET_FILE.*LoadCredential=webhook-secret.*WEBHOOK_SECRET.*at least 16 characters/);
    expect(problem({ WEBHOOK_SECRET_FILE: '/nonexistent/webhook-secret', WEBHOOK_SECRET: OTHER })).toBe(
      'cannot read the webhook secret from WEBHOOK_SECRET_FILE (/nonexistent/webhook-secret): ENOENT; refusing to start.',
    );
    expect(problem({ WEBHOOK_SECRET_FILE: file('\n') })).toMatch(/from WEBHOOK_SECRET_FILE \(.*\) is empty; refusing to start/);
    expect(problem({ WEBHOOK_SECRET_FILE: file('short-key\n') })).toMatch(/is only 9 characters; refusing to start. Use at least 16 characters/);
    expect(problem({ WEBHOOK_SECRET: 'x'.repeat(15) })).toMatch(/from WEBHOOK_SECRET is only 15 characters/);
    const credentials = tempDir();
    file('tiny', 'webhook-secret', credentials);
    expect(problem({ CREDENTIALS_DIRECTORY: credentials })).toMatch(/from the systemd credential webhook-secret is only 4 characters/);
    if (process.getuid?.() !== 0) {
      const locked = file(KEY);
      chmodSync(locked, 0o000);
      expect(problem({ WEBHOOK_SECRET_FILE: locked })).toMatch(/EACCES/);
    }
  });
});

/** Runs scripts/webhook.ts with `env` (and a releases folder, an API nobody answers, port 0); resolves once it listens or exits. */
function runWebhook(env: Record<string, string>) {
  const releases = join(tempDir(), 'releases');
  mkdirSync(releases);
  const child = spawn(process.execPath, ['scripts/webhook.ts'], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      RELEASES_DIR: releases,
      API_BASE: 'http://127.0.0.1:9',
      SITE_URL: 'https://qorakul.example',
      HCAPTCHA_SITEKEY: '10000000-ffff-ffff-ffff-000000000001',
      WEBHOOK_PORT: '0',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (out += d));
  return new Promise<{ url: string | null; code: number | null; output: () => string; stop: () => Promise<number | null> }>((resolve) => {
    const exited = new Promise<number | null>((done) => child.on('exit', (code) => done(code)));
    const stop = () => (child.exitCode === null ? (child.kill('SIGTERM'), exited) : exited);
    child.stdout.on('data', () => {
      const m = /listening on (http:\/\/[^/\s]+)\/hooks\/content/.exec(out);
      if (m) resolve({ url: m[1]!, code: null, output: () => out, stop });
    });
    void exited.then((code) => resolve({ url: null, code, output: () => out, stop }));
  });
}

describe('scripts/webhook.ts', () => {
  it('starts with the key from WEBHOOK_SECRET_FILE and the credential folder, and signs with exactly that key', async () => {
    const envs: Record<string, string>[] = [{ WEBHOOK_SECRET_FILE: file(`${KEY}\n`) }, { CREDENTIALS_DIRECTORY: join(file(`${KEY}\n`), '..'), WEBHOOK_SECRET: OTHER }];
    for (const env of envs) {
      const run = await runWebhook(env);
      try {
        expect(run.url, run.output()).not.toBeNull();
        expect(run.output()).toMatch(/secret from (WEBHOOK_SECRET_FILE|the systemd credential webhook-secret)/);
        expect(run.output()).not.toContain(KEY);
        expect((await fetch(`${run.url}/hooks/status`, { headers: statusHeaders(KEY) })).status).toBe(200);
        expect((await fetch(`${run.url}/hooks/status`, { headers: statusHeaders(`${KEY}\n`) })).status).toBe(401);
        expect((await fetch(`${run.url}/hooks/status`, { headers: statusHeaders(OTHER) })).status).toBe(401);
      } finally {
        expect(await run.stop()).toBe(0);
      }
    }
  }, 30_000);

  it('refuses to start with exit 1 on a short key file or one it cannot find', async () => {
    const short = await runWebhook({ WEBHOOK_SECRET_FILE: file('too-short\n') });
    expect(short.code).toBe(1);
    expect(short.output()).toMatch(/^webhook: the webhook secret from WEBHOOK_SECRET_FILE .* is only 9 characters; refusing to start/m);
    const missing = await runWebhook({ WEBHOOK_SECRET_FILE: '/nonexistent/webhook-secret' });
    expect(missing.code).toBe(1);
    expect(missing.output()).toContain('cannot read the webhook secret from WEBHOOK_SECRET_FILE (/nonexistent/webhook-secret): ENOENT');
  }, 30_000);
});
