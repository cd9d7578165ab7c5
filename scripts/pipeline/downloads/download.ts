/**
 * One download from the media server, as the picture store (picture-store.ts) and the document store
 * (document-store.ts) make it: conditional when a validator is known, following redirects on the same
 * origin only, the body bounded (a runaway or hostile answer must not fill the memory), with a few
 * retries on a failure that may pass (no answer, a 5xx).
 */
import { fetchSameOrigin, RedirectRefused } from '../../../src/lib/fetch-same-origin.ts';

/** A download that failed; `gone` when the server says the file is no more (404, 410), so an earlier copy is not kept. */
export class DownloadError extends Error {
  readonly gone: boolean;
  constructor(message: string, gone = false) {
    super(message);
    this.gone = gone;
  }
}

export interface Validators {
  etag?: string;
  lastModified?: string;
}

export interface DownloadOptions {
  accept: string;
  /** The validators of the copy already kept: the request is conditional, and a 304 keeps it. */
  known: Validators | undefined;
  timeoutMs: number;
  maxBytes: number;
  /** What is downloaded, for messages ("a picture"). */
  what: string;
}

export type Download = { status: 304 } | ({ status: 200; bytes: Buffer } & Validators);

const RETRIES = 2;

/** One GET, following redirects on the same origin only, with the body bounded. */
async function download(url: string, options: DownloadOptions): Promise<Download> {
  const { known, timeoutMs, maxBytes, what } = options;
  const headers: Record<string, string> = { accept: options.accept };
  if (known?.etag) headers['if-none-match'] = known.etag;
  else if (known?.lastModified) headers['if-modified-since'] = known.lastModified;
  let res: Response;
  try {
    res = await fetchSameOrigin(url, { headers, signal: AbortSignal.timeout(timeoutMs) });
  } catch (error) {
    if (error instanceof RedirectRefused) throw new DownloadError(error.message);
    throw error;
  }
  if (res.status === 304 && known) return { status: 304 };
  if (res.status !== 200) {
    await res.body?.cancel();
    throw new DownloadError(`HTTP ${res.status}`, res.status === 404 || res.status === 410);
  }
  const declared = Number(res.headers.get('content-length') ?? 0);
  if (declared > maxBytes) {
    await res.body?.cancel();
    throw new DownloadError(`${declared} bytes, more than the ${maxBytes} ${what} may have`);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of res.body ?? []) {
    size += chunk.length;
    if (size > maxBytes) throw new DownloadError(`more than the ${maxBytes} bytes ${what} may have`);
    chunks.push(Buffer.from(chunk));
  }
  return {
    status: 200,
    bytes: Buffer.concat(chunks),
    etag: res.headers.get('etag') ?? undefined,
    lastModified: res.headers.get('last-modified') ?? undefined,
  };
}

/** `download`, tried again after 0.3 s and 0.6 s when the failure may pass; `count` is called per request. */
export async function downloadWithRetries(url: string, options: DownloadOptions, count: () => void): Promise<Download> {
  for (let attempt = 0; ; attempt++) {
    count();
    try {
      return await download(url, options);
    } catch (error) {
      const permanent = error instanceof DownloadError && !/^HTTP 5/.test(error.message);
      if (permanent || attempt >= RETRIES) throw error;
      await new Promise((r) => setTimeout(r, 300 * 2 ** attempt));
    }
  }
}
