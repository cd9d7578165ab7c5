/**
 * `npm run bench:growth`: whether a new post costs the same whatever the size of the archive. Two sites, one
 * with `--small` (2,500) and one with `--large` (10,000) extra news per language, each with a sample API in
 * the realistic mode (a photograph per item, media without caching headers, 20 ms per answer), take the same
 * steady text edit plus a new post through `npm run rebuild`, in pairs run back to back, the order alternating:
 * a machine whose speed drifts within minutes slows both runs of a pair alike, where runs of one size and then the
 * other measured the drift (the same code gave 1.12 and 1.40 times a quarter of an hour apart, docs/speed.md).
 * Prints each pair and the median of the pairs' ratios against the aim of 1.25 times.
 *
 * The sites are kept under `.cache/bench-growth` between runs: the first run builds each cold, drawing every
 * picture (some half an hour for both on two cores), then settled until the releases kept are all there; `--warm`
 * runs per site settle each before the pairs (the last pass's memo; all pages again when the sample API's address
 * changed, as it is in every page's key).
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { editAndAdd, rebuildEnv, startBenchApi, timedRebuild, type ApiMode, type BenchFolders } from './lib/bench-rebuilds.ts';
import { foldersUnder } from '../src/config.ts';
import type { SampleApi } from './sample-api/server.ts';
import { RELEASES_KEPT } from './pipeline/publish/releases.ts';

/** A wrong option is said plainly, and nothing is built. */
const refuse = (message: string): never => {
  console.error(`bench:growth: ${message}`);
  process.exit(2);
};
const options = {
  small: { type: 'string', default: '2500' },
  large: { type: 'string', default: '10000' },
  pairs: { type: 'string', default: '10' },
  warm: { type: 'string', default: '3' },
} as const;
let values: Record<keyof typeof options, string>;
try {
  values = parseArgs({ options }).values;
} catch (error) {
  values = refuse((error as Error).message);
}
const count = (name: keyof typeof options, min: number) => {
  const n = Number(values[name]);
  return Number.isInteger(n) && n >= min ? n : refuse(`--${name} must be a whole number of at least ${min}, not "${String(values[name])}"`);
};
// The edits pick a news post 40 places from the newest: a smaller sample has none there.
const [small, large, pairs, warm] = [count('small', 100), count('large', 101), count('pairs', 1), count('warm', 0)];
if (large <= small) refuse(`--large (${large}) must be more than --small (${small})`);
const AIM = 1.25;
const MODE: ApiMode = { photos: 'distinct', mediaHeaders: 'none', latencyMs: 20 };
const ROOT = '.cache/bench-growth';

interface Site {
  scale: number;
  api: SampleApi;
  folders: BenchFolders;
  env: NodeJS.ProcessEnv;
}

/** A site at `scale`, its sample API on the port it had last time when that is free (the address is in every page's key). */
async function openSite(scale: number): Promise<Site> {
  const dataDir = `${ROOT}/api-${scale}`;
  const portFile = `${ROOT}/api-${scale}.port`;
  const reset = !existsSync(dataDir);
  if (reset) console.log(`Seeding a sample API with ${scale} extra news per language…`);
  mkdirSync(ROOT, { recursive: true });
  const last = existsSync(portFile) ? Number(readFileSync(portFile, 'utf8')) : 0;
  const start = (port: number, fresh: boolean) => startBenchApi({ dataDir, scale, mode: MODE, reset: fresh, port });
  // Its port taken: any free one, at the cost of every page rendered again once. A seed the failed start finished is kept.
  const api = await start(last, reset).catch(() => start(0, false));
  writeFileSync(portFile, new URL(api.url).port);
  const folders = foldersUnder(`${ROOT}/site-${scale}`);
  return { scale, api, folders, env: rebuildEnv(api, folders) };
}

/** The steady text edit plus a new post on `site`: its wall time and the pages it rendered. */
async function editPlusPost(site: Site): Promise<{ ms: number; rendered: number }> {
  // The post 40 places from the newest: each run's new post on top moves another one there.
  const args = editAndAdd(site.api.db, { edit: true, add: true, nth: 0, photos: MODE.photos });
  const { ms, report } = await timedRebuild(site.env, site.folders, args);
  return { ms, rendered: report.build.rendered };
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[s.length >> 1]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};
const seconds = (ms: number) => (ms / 1000).toFixed(2);
const thousands = (n: number) => n.toLocaleString('en-US');

const opened: Site[] = [];
try {
  for (const scale of [small, large]) opened.push(await openSite(scale));
  const sites = opened as [Site, Site];
  for (const site of sites) {
    let settling = warm;
    if (!existsSync(`${site.folders.RELEASES_DIR}/current`)) {
      console.log(`\n== ${thousands(site.scale)}: cold, drawing every picture`);
      const { ms } = await timedRebuild(site.env, site.folders);
      console.log(`cold in ${seconds(ms)} s`);
      // Until the releases kept are all there, each is made anew, not in the oldest as on a running site.
      settling = Math.max(warm, RELEASES_KEPT + 1);
    }
    for (let i = 0; i < settling; i++) {
      console.log(`\n== ${thousands(site.scale)}: settling, ${i + 1} of ${settling}`);
      await editPlusPost(site);
    }
  }
  const rows: { large: number; small: number; rendered: number }[] = [];
  for (let i = 0; i < pairs; i++) {
    const order = i % 2 ? [sites[0], sites[1]] : [sites[1], sites[0]];
    const times = new Map<number, { ms: number; rendered: number }>();
    for (const site of order) {
      console.log(`\n== pair ${i + 1} of ${pairs}: ${thousands(site.scale)}`);
      times.set(site.scale, await editPlusPost(site));
    }
    const [s, l] = [times.get(small)!, times.get(large)!];
    rows.push({ large: l.ms, small: s.ms, rendered: Math.max(s.rendered, l.rendered) });
  }
  console.log(`\nbench:growth, a text edit plus a new post, ${thousands(large)} against ${thousands(small)} extra news per language, ${new Date().toISOString().slice(0, 10)}`);
  console.log(`| pair | ${thousands(large)} s | ${thousands(small)} s | ratio | pages rendered |\n|---|---|---|---|---|`);
  rows.forEach((r, i) => console.log(`| ${i + 1} | ${seconds(r.large)} | ${seconds(r.small)} | ${(r.large / r.small).toFixed(2)} | ${r.rendered} |`));
  const ratios = rows.map((r) => r.large / r.small);
  const ratio = median(ratios);
  console.log(
    `\nmedians: ${seconds(median(rows.map((r) => r.large)))} s at ${thousands(large)}, ${seconds(median(rows.map((r) => r.small)))} s at ${thousands(small)}; ` +
      `the pairs' ratios ${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)}, median ${ratio.toFixed(2)}: ` +
      `${ratio <= AIM ? 'within' : 'above'} the aim of ${AIM} times; at most ${Math.max(...rows.map((r) => r.rendered))} pages rendered`,
  );
} finally {
  for (const site of opened) await site.api.close();
}
