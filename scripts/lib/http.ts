/**
 * What the hand-written HTTP servers (the webhook, the sample API) share:
 * reading a request body without ever holding more than a limit, and
 * answering JSON.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

export type BodyResult = { ok: true; body: Buffer } | { ok: false; reason: 'too-large' | 'aborted' };

/** Collects the body, never holding more than `limit` bytes: past it, stops reading. */
export function readBody(req: IncomingMessage, limit: number): Promise<BodyResult> {
  return new Promise((resolve) => {
    const declared = req.headers['content-length'];
    if (declared !== undefined && Number(declared) > limit) return resolve({ ok: false, reason: 'too-large' });
    const chunks: Buffer[] = [];
    let size = 0;
    const finish = (result: BodyResult) => {
      req.off('data', onData).off('end', onEnd).off('error', onAbort).off('aborted', onAbort);
      resolve(result);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        req.pause();
        chunks.length = 0;
        return finish({ ok: false, reason: 'too-large' });
      }
      chunks.push(chunk);
    };
    const onEnd = () => finish({ ok: true, body: Buffer.concat(chunks, size) });
    const onAbort = () => finish({ ok: false, reason: 'aborted' });
    req.on('data', onData).on('end', onEnd).on('error', onAbort).on('aborted', onAbort);
  });
}

/** Answers `body` as JSON, with its length; `headers` add to or override the defaults. */
export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': String(Buffer.byteLength(text)),
    ...headers,
  });
  res.end(text);
}
