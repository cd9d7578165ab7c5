/**
 * A caller of the webhook, for tests: the headers of a signed call, as the content API (or an operator with
 * curl and openssl, docs/webhook.md) sends them. Each call has a delivery id of its own unless one is given,
 * as the content API's have: the listener refuses a signature or id it has seen.
 */
import { randomUUID } from 'node:crypto';
import { CONTENT_PATH, STATUS_PATH } from '../../scripts/webhook/server.ts';
import { DELIVERY_HEADER, SIGNATURE_HEADER, sign, TIMESTAMP_HEADER, type SignedRequest } from '../../scripts/webhook/signature.ts';

export interface CallOptions {
  /** When it is signed (ms); now by default. */
  now?: number;
  delivery?: string;
}

/** The headers of a signed request: timestamp, delivery id and signature. */
export function signedHeaders(secret: string, request: Pick<SignedRequest, 'method' | 'path' | 'body'>, options: CallOptions = {}): Record<string, string> {
  const timestamp = String(Math.floor((options.now ?? Date.now()) / 1000));
  const delivery = options.delivery ?? randomUUID();
  return {
    [TIMESTAMP_HEADER]: timestamp,
    [DELIVERY_HEADER]: delivery,
    [SIGNATURE_HEADER]: sign(secret, { ...request, timestamp, delivery }),
  };
}

/** A `POST /hooks/content` of `body`. */
export const contentHeaders = (secret: string, body: string, options?: CallOptions) => signedHeaders(secret, { method: 'POST', path: CONTENT_PATH, body }, options);

/** A signed `GET /hooks/status`. */
export const statusHeaders = (secret: string, options?: CallOptions) => signedHeaders(secret, { method: 'GET', path: STATUS_PATH, body: '' }, options);
