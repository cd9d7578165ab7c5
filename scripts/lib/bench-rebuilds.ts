/**
 * What the rebuild benchmarks share (`npm run bench:build`, `npm run bench:growth`): a sample API seeded at a
 * scale and behaving like a real one, each run a full `npm run rebuild` in a child process timed with its peak
 * memory, and the edits an editor makes between runs, named as the webhook names them.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import type { DatabaseSync } from 'node:sqlite';
import { startSampleApi, type SampleApi, type SampleApiOptions } from '../sample-api/server.ts';
import { mapLimit } from './files.ts';
import { foldersUnder } from '../../src/config.ts';
import type { RebuildReport } from '../pipeline/rebuild.ts';

/** How the sample API answers: its pictures, their caching headers and its delay (../sample-api/server.ts). */
export type ApiMode = Pick<SampleApiOptions, 'photos' | 'mediaHeaders' | 'latencyMs'>;

/** Every folder of a site's build under `work`, as a district's on a server of several. */
export type BenchFolders = ReturnType<typeof foldersUnder>;

/** Starts the sample API on `dataDir` at `scale`; with `reset`, seeded anew and every photograph asked for once. */
export async function startBenchApi(options: { dataDir: string; scale: number; mode: ApiMode; reset: boolean; port?: number }): Promise<SampleApi> {
  const { dataDir, scale, mode, reset, port = 0 } = options;
  const api = await startSampleApi({ port, dataDir, scale, reset, log: () => {}, ...mode });
  if (reset) await warmMedia(api);
  return api;
}

/** Every photograph is asked for once before the clock runs: a real media server has them on disk already. */
async function warmMedia(api: SampleApi): Promise<void> {
  const rows = api.db.prepare("SELECT image FROM posts WHERE image LIKE '/media/%' UNION SELECT image FROM employees WHERE image LIKE '/media/%'").all() as { image: string }[];
  const photos = (api.db.prepare('SELECT photos FROM photo_groups').all() as { photos: string }[]).flatMap((g) => JSON.parse(g.photos) as string[]);
  const paths = [...new Set([...rows.map((r) => r.image), ...photos.filter((p) => p.startsWith('/media/'))])];
  const started = performance.now();
  await mapLimit(paths, 4, async (path) => (await fetch(`${api.url}${path}`)).arrayBuffer());
  console.log(`${paths.length} photographs on the media server (${((performance.now() - started) / 1000).toFixed(0)} s to have them drawn)`);
}

/** The rebuild's environment for a site in `folders` pulling from `api`. */
export function rebuildEnv(api: SampleApi, folders: BenchFolders): NodeJS.ProcessEnv {
  return {
    ...process.env,
    API_BASE: api.url,
    // rebuild refuses to run without both (it must never publish by default).
    SITE_URL: process.env.SITE_URL || 'http://127.0.0.1:4321',
    HCAPTCHA_SITEKEY: process.env.HCAPTCHA_SITEKEY || '10000000-ffff-ffff-ffff-000000000001',
    ...folders,
  };
}

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

/** One `npm run rebuild` with `args`: its wall time, peak memory and report. */
export async function timedRebuild(env: NodeJS.ProcessEnv, folders: BenchFolders, args: string[] = []): Promise<{ ms: number; peak: number; report: RebuildReport }> {
  const started = performance.now();
  const child = spawn(process.execPath, ['scripts/rebuild.ts', ...args], { env, stdio: ['ignore', 'inherit', 'inherit'] });
  let peak = 0;
  const sampler = setInterval(() => void treeRss(child.pid!).then((r) => (peak = Math.max(peak, r))), 250);
  const code = await new Promise<number | null>((ok) => child.on('exit', ok));
  clearInterval(sampler);
  if (code !== 0) throw new Error(`rebuild exited with ${code}`);
  const report = JSON.parse(readFileSync(`${folders.RELEASES_DIR}/last-report.json`, 'utf8')) as RebuildReport;
  return { ms: Math.round(performance.now() - started), peak, report };
}

/** The news post (the first language's) `offset` places from the newest. */
export function newsPost(db: DatabaseSync, offset: number): number {
  const row = db.prepare('SELECT id FROM posts WHERE type = 1 AND lang = 1 ORDER BY date DESC, id DESC LIMIT 1 OFFSET ?').get(offset) as { id: number } | undefined;
  if (!row) throw new Error(`the sample API has no news post ${offset + 1} places from the newest: seed it with more extra news per language (100 or more)`);
  return row.id;
}

/**
 * Edits the post `40 + nth` places from the newest (on no list page the home page or the side lists show) and adds a
 * new one, as an editor does; returns the rebuild's arguments that name them, as the webhook does.
 */
export function editAndAdd(db: DatabaseSync, what: { edit?: boolean; add?: boolean; nth: number; photos: ApiMode['photos'] }): string[] {
  const changes: string[] = [];
  if (what.edit) {
    const edited = newsPost(db, 40 + what.nth);
    db.prepare("UPDATE posts SET html = html || '<p>Tahrir.</p>' WHERE id = ?").run(edited);
    changes.push(`post:${edited}`);
  }
  if (what.add) {
    const maxId = (db.prepare('SELECT max(id) AS m FROM posts').get() as { m: number }).m;
    const model = newsPost(db, 40);
    // A new post brings a photograph of its own, as a real one does.
    const image = what.photos === 'distinct' ? `'/media/post/${maxId + 1}.jpg'` : 'image';
    db.exec(`INSERT INTO posts SELECT ${maxId + 1}, lang, type, (SELECT max(date) FROM posts), 0, ${image}, title || ' (yangi)', brief, html FROM posts WHERE id = ${model}`);
    changes.push(`post:${maxId + 1}`);
  }
  return ['--changed', changes.join(',')];
}
