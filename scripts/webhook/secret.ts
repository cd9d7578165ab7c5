/**
 * Where the webhook's HMAC key comes from, first found wins:
 *   1. WEBHOOK_SECRET_FILE: a file holding it;
 *   2. $CREDENTIALS_DIRECTORY/webhook-secret: systemd's LoadCredential= hands the file over
 *      (deploy/hokimiyat-webhook@.service: the instance's /etc/hokimiyat-site/<name>.webhook-secret, under the
 *      credential name webhook-secret), so the key is never on a command line nor in the unit's environment;
 *   3. WEBHOOK_SECRET: the key itself, for local use.
 * A trailing line break (`openssl rand -hex 32 > file`) is not part of the key.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const MIN_SECRET_LENGTH = 16;
export const SECRET_CREDENTIAL = 'webhook-secret';

export class SecretProblem extends Error {}

const HOW = `at least ${MIN_SECRET_LENGTH} characters, e.g. \`openssl rand -hex 32\``;

/** The file's text without its trailing line break; null when it does not exist and `optional`. */
function readKeyFile(path: string, source: string, optional = false): string | null {
  try {
    return readFileSync(path, 'utf8').replace(/[\r\n]+$/, '');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (optional && code === 'ENOENT') return null;
    throw new SecretProblem(`cannot read the webhook secret from ${source}: ${code ?? String(error)}; refusing to start.`);
  }
}

/** The secret and where it came from (for the log; never the secret itself). Throws SecretProblem saying what to do. */
export function readWebhookSecret(env: NodeJS.ProcessEnv = process.env): { secret: string; source: string } {
  const found = (() => {
    if (env.WEBHOOK_SECRET_FILE) {
      const source = `WEBHOOK_SECRET_FILE (${env.WEBHOOK_SECRET_FILE})`;
      return { source, secret: readKeyFile(env.WEBHOOK_SECRET_FILE, source)! };
    }
    if (env.CREDENTIALS_DIRECTORY) {
      // The folder exists for any unit with a credential; this one may not be among them.
      const source = `the systemd credential ${SECRET_CREDENTIAL}`;
      const secret = readKeyFile(join(env.CREDENTIALS_DIRECTORY, SECRET_CREDENTIAL), source, true);
      if (secret !== null) return { source, secret };
    }
    if (env.WEBHOOK_SECRET) return { source: 'WEBHOOK_SECRET', secret: env.WEBHOOK_SECRET };
    throw new SecretProblem(
      'no webhook secret; refusing to start. Put it in a file named by WEBHOOK_SECRET_FILE, or hand it over with ' +
        `systemd's LoadCredential=${SECRET_CREDENTIAL}:<file> (deploy/hokimiyat-webhook@.service), or for local use set WEBHOOK_SECRET; ${HOW}.`,
    );
  })();
  if (found.secret === '') throw new SecretProblem(`the webhook secret from ${found.source} is empty; refusing to start. Use ${HOW}.`);
  if (found.secret.length < MIN_SECRET_LENGTH) {
    throw new SecretProblem(`the webhook secret from ${found.source} is only ${found.secret.length} characters; refusing to start. Use ${HOW}.`);
  }
  return found;
}
