/**
 * `npm run bench:build`: how fast the site reaches citizens after a change.
 * Starts the sample API with `--scale` extra news per language (2,500 by
 * default, some 10,000 post pages in all), then measures in one run, each as
 * a full `npm run rebuild` (pull + build + publish): a cold build that draws
 * the pictures, a cold build with the pictures already drawn, and rebuilds
 * after one post's text changed, a recent post's title changed (it is in the
 * side list of every detail page), one new post, and no change. Prints, per
 * run, wall time and its parts (pull, build: Astro with the pictures drawn,
 * the last pass; publish), pages rendered and reused, files compressed,
 * peak memory, and the ratio to the cold build with pictures in the cache.
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

async function timedRebuild(env: NodeJS.ProcessEnv, args: string[] = []): Promise<{ ms: number; peak: number; report: RebuildReport }> {
  const started = performance.now();
  const child = spawn(process.execPath, ['scripts/rebuild.ts', ...args], { env, stdio: ['ignore', 'inherit', 'inherit'] });
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
  SITE_URL: process.env.SITE_URL || 'http://127.0.0.1:4321',
  RELEASES_DIR: `${WORK}/releases`,
  ASTRO_CACHE_DIR: `${WORK}/astro`,
  CONTENT_DIR: `${WORK}/content`,
  COMPRESS_CACHE_DIR: `${WORK}/compressed`,
};
/** Everything a cold build lacks, except the pictures Astro has drawn (its `assets` cache). */
async function forgetAllButPictures() {
  await rm(`${WORK}/releases`, { recursive: true, force: true });
  await rm(`${WORK}/compressed`, { recursive: true, force: true });
  for (const entry of await readdir(`${WORK}/astro`)) if (entry !== 'assets') await rm(`${WORK}/astro/${entry}`, { recursive: true, force: true });
}
const post = (offset: number) => (api.db.prepare('SELECT id FROM posts WHERE type = 1 ORDER BY date DESC, id DESC LIMIT 1 OFFSET ?').get(offset) as { id: number }).id;
const rows: { name: string; ms: number; peak: number; report: RebuildReport }[] = [];
/** Each run as an operator or the webhook starts it: an edit names the post that changed, as the webhook does. */
const run = async (name: string, args: string[] = []) => {
  console.log(`\n== ${name}`);
  rows.push({ name, ...(await timedRebuild(env, args)) });
};
try {
  await run('cold, pictures drawn');
  await forgetAllButPictures();
  await run('cold, pictures in cache');
  // Far down the list: on no list page the home page or the side lists show.
  const edited = post(40);
  api.db.prepare("UPDATE posts SET html = html || '<p>Tahrir.</p>' WHERE id = ?").run(edited);
  await run("one post's text changed", ['--changed', `post:${edited}`]);
  // The second newest: its title is in the latest-news side list of every detail page.
  const recent = post(1);
  api.db.prepare("UPDATE posts SET title = title || ' (tahrir)' WHERE id = ?").run(recent);
  await run("a recent post's title", ['--changed', `post:${recent}`]);
  const maxId = (api.db.prepare('SELECT max(id) AS m FROM posts').get() as { m: number }).m;
  const model = post(40);
  api.db.exec(`INSERT INTO posts SELECT ${maxId + 1}, lang, type, (SELECT max(date) FROM posts), 0, image, title || ' (yangi)', brief, html FROM posts WHERE id = ${model}`);
  await run('one new post', ['--changed', `post:${maxId + 1}`]);
  await run('no change (nothing published)');
  await run('no change, --force (the fixed cost)', ['--force']);
} finally {
  await api.close();
}
const cold = rows[1]!.ms;
const s = (ms: number) => (ms / 1000).toFixed(1);
console.log(`\nbench:build, sample API with --scale ${scale}, ${new Date().toISOString().slice(0, 10)}, ${rows[0]!.report.build.pages} pages`);
const head = ['run', 'wall s', 'pull s', 'build s', 'astro s', 'pictures s', 'finish s', 'publish s', 'rendered', 'reused', 'compressed', 'peak MB', 'vs cold'];
console.log(`| ${head.join(' | ')} |\n|${head.map(() => '---').join('|')}|`);
for (const r of rows) {
  const b = r.report.build;
  const cells = [
    r.name,
    s(r.ms),
    s(r.report.pull.ms),
    s(b.ms),
    s(b.astroMs),
    s(b.picturesMs),
    s(b.finishMs),
    s(r.report.publish.ms),
    String(b.rendered),
    String(b.reused),
    String(b.compressed.made),
    (r.peak / 1048576).toFixed(0),
    `${((r.ms / cold) * 100).toFixed(1)} %`,
  ];
  console.log(`| ${cells.join(' | ')} |`);
}
