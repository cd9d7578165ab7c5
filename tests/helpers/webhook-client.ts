/**
 * A caller of the webhook, for tests: the headers of a signed call, as the content API (or an operator with
 * curl and openssl, docs/webhook.md) sends them.
 */
import { DELIVERY_HEADER, SIGNATURE_HEADER, sign, TIMESTAMP_HEADER } from '../../scripts/lib/webhook/signature.ts';

/** The headers of a signed call: timestamp, signature and (optionally) a delivery id. */
export function signedHeaders(secret: string, body: string | Uint8Array, options: { now?: number; delivery?: string } = {}): Record<string, string> {
  const timestamp = String(Math.floor((options.now ?? Date.now()) / 1000));
  return {
    [TIMESTAMP_HEADER]: timestamp,
    [SIGNATURE_HEADER]: sign(secret, body, timestamp),
    ...(options.delivery ? { [DELIVERY_HEADER]: options.delivery } : {}),
  };
}
