/**
 * `npm run bench:build`: how fast the site reaches citizens after a change,
 * against a sample API that behaves like a real one: `--scale` extra news per
 * language (2,500 by default, some 10,000 post pages in all), a distinct
 * photograph per item (`--photos distinct`), media answered without caching
 * headers (`--media-headers none`) and every answer 20 ms away (`--latency 20`);
 * `--friendly` measures the old sample instead (shared flat pictures, max-age, no latency).
 *
 * Each run is a full `npm run rebuild` (pull + pictures + build + publish), told what
 * changed as the webhook tells it: a cold build that draws every picture, a
 * cold build with the pictures drawn, a text edit plus a new post (first after
 * a cold build, until the releases kept are all there, then in steady state), one post's text, a recent post's title
 * (in the side list of every detail page, settled and latest), one new post, a recent post and one
 * halfway down the archive deleted, two nightly full pulls (the first settles the side lists the day's changes
 * left, the second finds nothing changed) and a forced rebuild of the same content.
 * Prints, per run, wall time and its parts, requests made, pictures
 * downloaded and files drawn, pages rendered and reused, peak memory; then
 * what a phone downloads for a news page's largest picture against the CPU
 * that drawing a picture costs.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { editAndAdd as editPosts, newsPost, rebuildEnv, startBenchApi, timedRebuild, type ApiMode } from './lib/bench-rebuilds.ts';
import { foldersUnder } from '../src/config.ts';
import { PICTURE_ENCODING } from '../src/content/pictures/settings.ts';
import type { RebuildReport } from './pipeline/rebuild.ts';
import { RELEASES_KEPT } from './pipeline/publish/releases.ts';

const { values } = parseArgs({
  options: {
    scale: { type: 'string', default: '2500' },
    photos: { type: 'string', default: 'distinct' },
    'media-headers': { type: 'string', default: 'none' },
    latency: { type: 'string', default: '20' },
    friendly: { type: 'boolean', default: false },
  },
});
const WORK = '.cache/bench-build';
/** Every folder of the build under WORK, as a district's on a server of several. */
const FOLDERS = foldersUnder(WORK);
/** The sample API's folder, kept between benchmarks: its photographs are drawn on first request, as a real server has them on disk. */
const API_DIR = '.cache/bench-api';
const mode = values.friendly
  ? { photos: 'shared', mediaHeaders: 'max-age', latencyMs: 0 }
  : { photos: values.photos, mediaHeaders: values['media-headers'], latencyMs: Number(values.latency) };

await rm(WORK, { recursive: true, force: true });
const scale = Number(values.scale);
console.log(`Seeding the sample API with ${scale} extra news per language (photos ${mode.photos}, media headers ${mode.mediaHeaders}, latency ${mode.latencyMs} ms)…`);
const api = await startBenchApi({ dataDir: API_DIR, scale, reset: true, mode: mode as ApiMode });
const env = rebuildEnv(api, FOLDERS);
/** Everything a cold build lacks, except the pictures the pull drew (the picture store). */
async function forgetAllButPictures() {
  for (const dir of [FOLDERS.RELEASES_DIR, FOLDERS.COMPRESS_CACHE_DIR, FOLDERS.ASTRO_CACHE_DIR, FOLDERS.CONTENT_DIR]) await rm(dir, { recursive: true, force: true });
}
const post = (offset: number) => newsPost(api.db, offset);
const rows: { name: string; ms: number; peak: number; report: RebuildReport }[] = [];
/** Each run as an operator or the webhook starts it: an edit names the post that changed, as the webhook does. */
const run = async (name: string, args: string[] = []) => {
  console.log(`\n== ${name}`);
  rows.push({ name, ...(await timedRebuild(env, FOLDERS, args)) });
};
/** The newest news posts (the first language's), whose pages the picture report reads. */
let newestPosts: number[];
/** Edits a post far down the list (on no list page the home page or the side lists show) and adds a new one, as an editor does. */
const editAndAdd = (what: { edit?: boolean; add?: boolean }) => editPosts(api.db, { ...what, nth: rows.length, photos: mode.photos as ApiMode['photos'] });
try {
  await run('cold, drawing every picture');
  await forgetAllButPictures();
  await run('cold, pictures drawn');
  await run('text edit + new post, first after cold', editAndAdd({ edit: true, add: true }));
  // Until RELEASES_KEPT releases are kept each is made anew; from then on, as on a site that has been running,
  // each is made in the oldest one (scripts/pipeline/publish/releases.ts), which already holds nearly every file.
  for (let release = 3; release <= RELEASES_KEPT; release++) await run(`text edit + new post, release ${release} (made anew)`, editAndAdd({ edit: true, add: true }));
  await run('text edit + new post, steady state', editAndAdd({ edit: true, add: true }));
  await run("one post's text", editAndAdd({ edit: true }));
  // The newest post of the last full pull (the cold one; two posts were added since): its title is in the side
  // list of every detail page, the settled one of the archive's posts and the latest of the first page's.
  const recent = post(2);
  api.db.prepare("UPDATE posts SET title = title || ' (tahrir)' WHERE id = ?").run(recent);
  await run("a recent post's title", ['--changed', `post:${recent}`]);
  await run('one new post', editAndAdd({ add: true }));
  // A deletion shifts every post after it in a list numbered from the newest: one recent, one halfway down the archive.
  for (const [name, offset] of [
    ['a recent post deleted', 3],
    ['a post halfway down the archive deleted', Math.floor(scale / 2)],
  ] as const) {
    const gone = post(offset);
    api.db.prepare('DELETE FROM posts WHERE id = ?').run(gone);
    await run(name, ['--changed', `post:${gone}`]);
  }
  // The nightly full pull settles the archive's side lists anew after the day's changes, so it publishes the
  // pages that carry them; the next one, with nothing changed, publishes nothing.
  await run('nightly full pull (settles the side lists)');
  await run('nightly full pull, no change (nothing published)');
  await run('no change, --force (the fixed cost)', ['--force']);
  newestPosts = Array.from({ length: 20 }, (_, offset) => post(offset));
} finally {
  await api.close();
}
const cold = rows[1]!.ms;
const s = (ms: number) => (ms / 1000).toFixed(1);
console.log(
  `\nbench:build, sample API with --scale ${scale}, photos ${mode.photos}, media headers ${mode.mediaHeaders}, latency ${mode.latencyMs} ms, ` +
    `${new Date().toISOString().slice(0, 10)}, ${rows[0]!.report.build.pages} pages`,
);
const head = [
  'run',
  'wall s',
  'pull s',
  'pictures s',
  'build s',
  'astro s',
  'finish s',
  'publish s',
  'requests',
  'downloaded',
  'drawn',
  'rendered',
  'reused',
  'peak MB',
  'vs cold',
];
console.log(`| ${head.join(' | ')} |\n|${head.map(() => '---').join('|')}|`);
for (const r of rows) {
  const { build: b, pull: p } = r.report;
  const cells = [
    r.name,
    s(r.ms),
    s(p.ms - p.pictures.ms),
    s(p.pictures.ms),
    s(b.ms),
    s(b.astroMs),
    s(b.finishMs),
    s(r.report.publish.ms),
    String(p.requests + p.pictures.fetch.requests),
    String(p.pictures.fetch.downloaded + p.pictures.fetch.replaced),
    String(p.pictures.draw.encoded),
    String(b.rendered),
    String(b.reused),
    (r.peak / 1048576).toFixed(0),
    `${((r.ms / cold) * 100).toFixed(1)} %`,
  ];
  console.log(`| ${cells.join(' | ')} |`);
}

// What the chosen encoding costs and what it saves: the largest picture of a news page, against the CPU per picture.
const first = rows[0]!.report;
const drawnPictures = Math.max(1, first.pull.pictures.fetch.downloaded);
const release = `${FOLDERS.RELEASES_DIR}/current`;
const largestPicture = (id: number) => {
  const page = `${release}/news/${id}/index.html`;
  if (!existsSync(page)) return undefined;
  return [...readFileSync(page, 'utf8').matchAll(/\/_astro\/pictures\/[\w-]+-(\d+)\.webp/g)].sort((a, b) => Number(b[1]) - Number(a[1]))[0];
};
// Of the newest news page that shows a picture: some posts have none.
const largest = newestPosts.map(largestPicture).find(Boolean);
const bytes = largest ? statSync(`${release}${largest[0]}`).size : 0;
console.log(
  `\npictures (${PICTURE_ENCODING.format} q${PICTURE_ENCODING.quality}): the largest on a news page is ${(bytes / 1024).toFixed(0)} KB (${largest?.[1] ?? '-'} px); ` +
    `drawing cost ${(first.pull.pictures.draw.encodeMs / drawnPictures).toFixed(0)} ms of one core per picture ` +
    `(${first.pull.pictures.draw.encoded} files for ${drawnPictures} pictures), ${(first.pull.pictures.ms / drawnPictures).toFixed(0)} ms of wall time per picture with the downloads`,
);
