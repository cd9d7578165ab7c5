/**
 * How a webhook call proves who sent it, and to which endpoint: `x-hub-signature-256: sha256=<hex>`, the
 * HMAC-SHA256 of the signed text (signedText below) with `x-hook-timestamp: <unix seconds>` no more than
 * REPLAY_WINDOW_S away from this clock; and the memory of the delivery ids (`x-hook-delivery`) and signatures
 * accepted lately, so that a captured call cannot be sent again. The journal keeps that memory across restarts.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

export const SIGNATURE_HEADER = 'x-hub-signature-256';
export const TIMESTAMP_HEADER = 'x-hook-timestamp';
export const DELIVERY_HEADER = 'x-hook-delivery';
/** How far a call's timestamp may be from the listener's clock; ids are remembered for twice as long. */
const REPLAY_WINDOW_S = 300;
const REMEMBER_MS = 2 * REPLAY_WINDOW_S * 1000;

/** What a signature covers: one request to one endpoint, so that it is worth nothing on another. */
export interface SignedRequest {
  /** As sent: `POST` for /hooks/content, `GET` for /hooks/status. */
  method: string;
  /** The listener's own path (`/hooks/content`), whatever prefix a proxy in front of it adds; no query. */
  path: string;
  /** `x-hook-timestamp`: unix seconds. */
  timestamp: number | string;
  /** `x-hook-delivery`, or nothing when the call has none. */
  delivery?: string | undefined;
  /** The exact bytes sent (strings as UTF-8); empty for the status. */
  body: string | Uint8Array;
}

/**
 * `<timestamp>\n<METHOD>\n<path>\n<delivery>\n<body>`: no header value can hold a line break, so no two
 * requests have the same text.
 */
const mac = (secret: string, r: SignedRequest) =>
  createHmac('sha256', secret)
    .update(`${r.timestamp}\n${r.method.toUpperCase()}\n${r.path}\n${r.delivery ?? ''}\n`)
    .update(r.body)
    .digest();

/** The `x-hub-signature-256` value of `request`: `sha256=` and the hex HMAC-SHA256 of its signed text. */
export function sign(secret: string, request: SignedRequest): string {
  return `sha256=${mac(secret, request).toString('hex')}`;
}

type Received = Omit<SignedRequest, 'timestamp'> & { timestamp: string | undefined };

/** Checks a `sha256=<hex>` (or bare `<hex>`) signature of what was received, in constant time. */
export function verifySignature(secret: string, request: Received, header: string | undefined): boolean {
  const { timestamp } = request;
  if (!header || !timestamp || !/^\d{1,12}$/.test(timestamp)) return false;
  const hex = header.trim().replace(/^sha256=/i, '');
  if (!/^[0-9a-f]{64}$/i.test(hex)) return false;
  const given = Buffer.from(hex, 'hex');
  const expected = mac(secret, { ...request, timestamp });
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** Why a call is refused, or null when its signature is valid and its timestamp fresh. */
export function authFailure(secret: string, request: Received, signature: string | undefined): string | null {
  if (!verifySignature(secret, request, signature)) {
    return (
      `missing or invalid ${SIGNATURE_HEADER}: expected sha256= and the hex HMAC-SHA256 of ` +
      `"<${TIMESTAMP_HEADER}>\\n<method>\\n<path>\\n<${DELIVERY_HEADER} or nothing>\\n<body>" (docs/webhook.md)`
    );
  }
  if (Math.abs(Date.now() / 1000 - Number(request.timestamp)) > REPLAY_WINDOW_S) {
    return `${TIMESTAMP_HEADER} is more than ${REPLAY_WINDOW_S} s away from this server's clock`;
  }
  return null;
}

/** What an accepted call is remembered by: its signature, and its delivery id when it has one. */
export function replayKeys(signature: string, delivery: string | undefined): string[] {
  const hex = signature
    .trim()
    .replace(/^sha256=/i, '')
    .toLowerCase();
  return [`sig:${hex}`, ...(delivery ? [`id:${delivery}`] : [])];
}

/** Keys of accepted calls (see replayKeys), each with when it may be forgotten (ms since the epoch). */
export class ReplayMemory {
  readonly #until = new Map<string, number>();
  /** Calls signed before this (ms) may have been accepted by a run whose memory a damaged journal lost. */
  readonly #lostBefore: number | null;

  constructor(saved: Record<string, number> = {}, lostBefore: number | null = null) {
    for (const [key, until] of Object.entries(saved)) this.#until.set(key, until);
    this.#lostBefore = lostBefore;
  }

  /** True when any of `keys` belongs to a call accepted within the window. */
  has(keys: readonly string[], now: number): boolean {
    return keys.some((key) => (this.#until.get(key) ?? 0) > now);
  }

  /** True when a call signed at `timestamp` (unix seconds) may have been accepted and then forgotten. */
  signedBeforeLoss(timestamp: string, now: number): boolean {
    const lostBefore = this.lostBefore(now);
    return lostBefore !== null && Number(timestamp) * 1000 < lostBefore;
  }

  /** When the memory was lost, while a call signed before then could still be fresh; otherwise null. */
  lostBefore(now: number): number | null {
    return this.#lostBefore !== null && now < this.#lostBefore + REMEMBER_MS ? this.#lostBefore : null;
  }

  remember(keys: readonly string[], now: number): void {
    this.#prune(now);
    for (const key of keys) this.#until.set(key, now + REMEMBER_MS);
  }

  /** What the journal keeps: the keys not yet expired, with `extra` as if remembered now. */
  saved(now: number, extra: readonly string[] = []): Record<string, number> {
    this.#prune(now);
    const out = Object.fromEntries(this.#until);
    for (const key of extra) out[key] = now + REMEMBER_MS;
    return out;
  }

  #prune(now: number): void {
    for (const [key, until] of this.#until) if (until <= now) this.#until.delete(key);
  }
}
