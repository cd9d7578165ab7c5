/**
 * `npm run webhook`: the content-change listener (scripts/webhook/: server.ts for the HTTP side,
 * signature.ts, secret.ts for where the key comes from, scheduler.ts for when rebuilds run, journal.ts for
 * what is kept across restarts, freshness.ts for the operator's status and metrics).
 *
 * The secret (≥ 16 characters) from WEBHOOK_SECRET_FILE, systemd's credential `webhook-secret`, or
 * WEBHOOK_SECRET (./webhook/secret.ts; exit 1 without); WEBHOOK_PORT (8790), WEBHOOK_HOST (127.0.0.1),
 * WEBHOOK_DEBOUNCE_MS (2000); API_BASE, SITE_URL and HCAPTCHA_SITEKEY are required, and SITE_URL's host must be
 * one of the district's server.names (exit 2 otherwise, as for a district folder that is invalid or holds a
 * placeholder: deployEnvProblem in src/config.ts).
 * The rebuild is `rebuild` from ./lib/rebuild.ts, waiting for a run that holds the lock. The journal is
 * RELEASES_DIR/webhook-journal.json.
 * SIGTERM/SIGINT: cancel a pending rebuild, abort the running one, wait for it to settle, exit 0; what was
 * not published stays in the journal and is rebuilt on the next start. A second signal exits at once (1).
 *
 * Sign a call by hand: docs/webhook.md (curl and openssl). Run on a server: deploy/hokimiyat-webhook@.service,
 * one instance per district, each with its own settings file, key and WEBHOOK_PORT.
 */
import { deployEnvProblem } from '../src/config.ts';
import { releasesDir } from './pipeline/publish/releases.ts';
import type { RebuildFn } from './webhook/scheduler.ts';
import { readWebhookSecret, SecretProblem } from './webhook/secret.ts';
import { CONTENT_PATH, DEFAULT_DEBOUNCE_MS, DEFAULT_PORT, METRICS_PATH, STATUS_PATH, createWebhookServer, type WebhookServer } from './webhook/server.ts';

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

function fail(message: string, code = 1): never {
  console.error(`webhook: ${message}`);
  process.exit(code);
}

function envInteger(name: string, fallback: number, min: number, max: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) fail(`${name} must be an integer from ${min} to ${max} (got "${raw}")`);
  return value;
}

function readSecret(): { secret: string; source: string } {
  try {
    return readWebhookSecret();
  } catch (error) {
    if (error instanceof SecretProblem) fail(error.message);
    throw error;
  }
}

/** Loaded here only, so that importing the webhook's modules (tests) never loads the real rebuild. */
async function loadRebuild(): Promise<RebuildFn> {
  try {
    const real = (await import('./pipeline/rebuild.ts')).rebuild;
    // A cron run holding the releases lock is waited for: this call's changes must still be published.
    return (changes, signal) => real(changes, signal, { wait: true });
  } catch (error) {
    return fail(`cannot load scripts/pipeline/rebuild.ts: ${messageOf(error)}`);
  }
}

function closeOnSignals(hook: WebhookServer): void {
  let stopping = false;
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      if (stopping) fail(`${signal} again, exiting without waiting for the rebuild`);
      stopping = true;
      console.log(`webhook: ${signal}, shutting down`);
      hook.close().then(
        () => process.exit(0),
        (error: unknown) => fail(`shutdown failed: ${messageOf(error)}`),
      );
    });
  }
}

const problem = deployEnvProblem();
if (problem) fail(problem, 2);
const { secret, source } = readSecret();
const port = envInteger('WEBHOOK_PORT', DEFAULT_PORT, 0, 65535);
const debounceMs = envInteger('WEBHOOK_DEBOUNCE_MS', DEFAULT_DEBOUNCE_MS, 0, 3_600_000);
const host = process.env.WEBHOOK_HOST || '127.0.0.1';
const rebuild = await loadRebuild();
const hook = await createWebhookServer({ secret, rebuild, host, port, debounceMs, journalDir: releasesDir() }).catch((error: unknown) => fail(`cannot start: ${messageOf(error)}`));
console.log(
  `webhook: listening on ${hook.url}${CONTENT_PATH} (status: ${hook.url}${STATUS_PATH}, metrics: ${hook.url}${METRICS_PATH}, ` +
    `debounce ${debounceMs} ms, secret from ${source})`,
);
closeOnSignals(hook);
