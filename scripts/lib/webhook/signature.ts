/**
 * How a webhook call proves who sent it: `x-hub-signature-256: sha256=<hex>`, the HMAC-SHA256 of
 * `${timestamp}.${body}` with `x-hook-timestamp: <unix seconds>` no more than REPLAY_WINDOW_S away from
 * this clock; and the memory of the delivery ids (`x-hook-delivery`) and signatures accepted lately, so
 * that a captured call cannot be sent again. The journal keeps that memory across restarts.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

export const SIGNATURE_HEADER = 'x-hub-signature-256';
export const TIMESTAMP_HEADER = 'x-hook-timestamp';
export const DELIVERY_HEADER = 'x-hook-delivery';
/** How far a call's timestamp may be from the listener's clock; ids are remembered for twice as long. */
const REPLAY_WINDOW_S = 300;
const REMEMBER_MS = 2 * REPLAY_WINDOW_S * 1000;

const mac = (secret: string, timestamp: string, body: string | Uint8Array) =>
  createHmac('sha256', secret).update(`${timestamp}.`).update(body).digest();

/**
 * The signature header value for `body` sent at `timestamp` (unix seconds): `sha256=` + the hex
 * HMAC-SHA256 of `${timestamp}.` followed by the body's exact bytes (strings as UTF-8).
 */
export function sign(secret: string, body: string | Uint8Array, timestamp: number | string): string {
  return `sha256=${mac(secret, String(timestamp), body).toString('hex')}`;
}

/** Checks a `sha256=<hex>` (or bare `<hex>`) signature of `${timestamp}.${body}` in constant time. */
export function verifySignature(secret: string, body: Uint8Array, timestamp: string | undefined, header: string | undefined): boolean {
  if (!header || !timestamp || !/^\d{1,12}$/.test(timestamp)) return false;
  const hex = header.trim().replace(/^sha256=/i, '');
  if (!/^[0-9a-f]{64}$/i.test(hex)) return false;
  const given = Buffer.from(hex, 'hex');
  const expected = mac(secret, timestamp, body);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** Why a call is refused, or null when its signature is valid and its timestamp fresh. */
export function authFailure(secret: string, body: Uint8Array, timestamp: string | undefined, signature: string | undefined): string | null {
  if (!verifySignature(secret, body, timestamp, signature)) {
    return `missing or invalid ${SIGNATURE_HEADER} signature of "<${TIMESTAMP_HEADER}>.<body>"`;
  }
  if (Math.abs(Date.now() / 1000 - Number(timestamp)) > REPLAY_WINDOW_S) {
    return `${TIMESTAMP_HEADER} is more than ${REPLAY_WINDOW_S} s away from this server's clock`;
  }
  return null;
}

/** What an accepted call is remembered by: its signature, and its delivery id when it has one. */
export function replayKeys(signature: string, delivery: string | undefined): string[] {
  const hex = signature.trim().replace(/^sha256=/i, '').toLowerCase();
  return [`sig:${hex}`, ...(delivery ? [`id:${delivery}`] : [])];
}

/** Keys of accepted calls (see replayKeys), each with when it may be forgotten (ms since the epoch). */
export class ReplayMemory {
  readonly #until = new Map<string, number>();

  constructor(saved: Record<string, number> = {}) {
    for (const [key, until] of Object.entries(saved)) this.#until.set(key, until);
  }

  /** True when any of `keys` belongs to a call accepted within the window. */
  has(keys: readonly string[], now: number): boolean {
    return keys.some((key) => (this.#until.get(key) ?? 0) > now);
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
