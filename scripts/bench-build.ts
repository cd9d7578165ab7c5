/**
 * `npm run bench:build`: how fast a rebuild is when little changed. Starts the
 * sample API with `--scale` extra news per language (2,500 by default, some
 * 10,000 post pages in all), then measures in one run, each as a full
 * `npm run rebuild` (pull + build + publish) in a fresh releases folder:
 * a cold build, a rebuild after one post's text changed, after one new post,
 * and with no change. Prints wall time, pages rendered and reused, peak memory
 * and the ratio to the cold build.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { readdir, readFile, rm } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { startSampleApi } from './sample-api/server.ts';
import type { RebuildReport } from './rebuild.ts';

const { values } = parseArgs({ options: { scale: { type: 'string', default: '2500' } } });
const WORK = '.cache/bench-build';

/** Resident memory of a process and all its descendants, from /proc (Linux). */
async function treeRss(pid: number): Promise<number> {
  let total = 0;
  const stack = [pid];
  while (stack.length) {
    const p = stack.pop()!;
    try {
      const status = await readFile(`/proc/${p}/status`, 'utf8');
      total += Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) * 1024;
      for (const t of await readdir(`/proc/${p}/task`)) {
        const children = await readFile(`/proc/${p}/task/${t}/children`, 'utf8').catch(() => '');
        stack.push(...children.split(/\s+/).filter(Boolean).map(Number));
      }
    } catch {
      // The process ended between two looks.
    }
  }
  return total;
}

async function timedRebuild(env: NodeJS.ProcessEnv): Promise<{ ms: number; peak: number; report: RebuildReport }> {
  const started = performance.now();
  const child = spawn(process.execPath, ['scripts/rebuild.ts'], { env, stdio: ['ignore', 'ignore', 'inherit'] });
  let peak = 0;
  const sampler = setInterval(() => void treeRss(child.pid!).then((r) => (peak = Math.max(peak, r))), 250);
  const code = await new Promise<number | null>((ok) => child.on('exit', ok));
  clearInterval(sampler);
  if (code !== 0) throw new Error(`rebuild exited with ${code}`);
  const report = JSON.parse(readFileSync(`${WORK}/releases/last-report.json`, 'utf8')) as RebuildReport;
  return { ms: Math.round(performance.now() - started), peak, report };
}

await rm(WORK, { recursive: true, force: true });
const scale = Number(values.scale);
console.log(`Seeding the sample API with ${scale} extra news per language…`);
const api = await startSampleApi({ port: 0, dataDir: `${WORK}/api`, scale, reset: true, log: () => {} });
const env = {
  ...process.env,
  API_BASE: api.url,
  // rebuild refuses to run without both (it must never publish by default).
  SITE_URL: process.env.SITE_URL || 'http://localhost:4321',
  RELEASES_DIR: `${WORK}/releases`,
  ASTRO_CACHE_DIR: `${WORK}/astro`,
  CONTENT_DIR: `${WORK}/content`,
  COMPRESS_CACHE_DIR: `${WORK}/compressed`,
};
const rows: { name: string; ms: number; peak: number; report: RebuildReport }[] = [];
try {
  rows.push({ name: 'cold build', ...(await timedRebuild(env)) });
  const newest = api.db.prepare('SELECT id FROM posts WHERE type = 1 ORDER BY date DESC LIMIT 1 OFFSET 40').get() as { id: number };
  api.db.prepare("UPDATE posts SET html = html || '<p>Tahrir.</p>' WHERE id = ?").run(newest.id);
  rows.push({ name: "one post's text changed", ...(await timedRebuild(env)) });
  const maxId = (api.db.prepare('SELECT max(id) AS m FROM posts').get() as { m: number }).m;
  api.db.exec(`INSERT INTO posts SELECT ${maxId + 1}, lang, type, '2026-11-21T10:00:00+05:00', 0, image, title || ' (yangi)', brief, html FROM posts WHERE id = ${newest.id}`);
  rows.push({ name: 'one new post', ...(await timedRebuild(env)) });
  rows.push({ name: 'no change', ...(await timedRebuild(env)) });
} finally {
  await api.close();
}
const cold = rows[0]!.ms;
console.log(`\nbench:build, sample API with --scale ${scale}, ${new Date().toISOString().slice(0, 10)}`);
console.log('run'.padEnd(26), 'wall s'.padStart(8), 'pull s'.padStart(7), 'build s'.padStart(8), 'rendered'.padStart(9), 'reused'.padStart(8), 'peak MB'.padStart(8), 'vs cold'.padStart(8));
for (const r of rows) {
  console.log(
    r.name.padEnd(26),
    (r.ms / 1000).toFixed(1).padStart(8),
    (r.report.pull.ms / 1000).toFixed(1).padStart(7),
    (r.report.build.ms / 1000).toFixed(1).padStart(8),
    String(r.report.build.rendered).padStart(9),
    String(r.report.build.reused).padStart(8),
    (r.peak / 1048576).toFixed(0).padStart(8),
    `${((r.ms / cold) * 100).toFixed(1)}%`.padStart(8),
  );
}
