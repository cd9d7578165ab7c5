/**
 * Makes sure the content API answers before a build: when API_BASE is left at
 * its default and nothing listens there, the bundled sample API is started.
 */
import { readMachineSettings, SAMPLE_API_URL, type SiteConfig } from '../../src/config.ts';
import { fetchSameOrigin } from '../../src/lib/fetch-same-origin.ts';
import { startSampleApi, type SampleApi } from '../sample-api/server.ts';

async function answers(base: string): Promise<boolean> {
  try {
    const res = await fetchSameOrigin(`${base}/api/home/menus`, { headers: { langType: '1' }, signal: AbortSignal.timeout(2000) });
    await res.body?.cancel();
    return res.ok;
  } catch {
    return false;
  }
}

/** Returns the started sample API (to be closed by the caller), or null when an API already answers. */
export async function ensureApi(config: SiteConfig): Promise<SampleApi | null> {
  if (await answers(config.apiBase)) return null;
  if (config.apiBase !== SAMPLE_API_URL) {
    throw new Error(`The content API at ${config.apiBase} does not answer (GET ${config.apiBase}/api/home/menus).`);
  }
  const { hostname, port } = new URL(SAMPLE_API_URL);
  const api = await startSampleApi({ host: hostname, port: Number(port), dataDir: readMachineSettings().sampleApiDir });
  console.log(`Started the bundled sample API on ${api.url}`);
  return api;
}
