/**
 * `npm run rebuild [-- --wait --force --changed post:123,page:5]`: pull, build
 * and publish (scripts/pipeline/rebuild.ts), then print a summary.
 *
 * `--wait`: when another rebuild holds the lock, wait for it instead of exiting.
 * `--changed post:123,page:5`: what changed, as a webhook names it (the pull then
 * reads lists only as far as the change reaches, and fetches only those details
 * and their pictures); without it everything is pulled and every picture revalidated.
 * `--force`: build and publish even when nothing the build depends on changed
 * (otherwise such a run publishes nothing: scripts/pipeline/inputs.ts).
 */
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { deployEnvProblem } from '../src/config.ts';
import { changesFromOption, CHANGED_OPTION } from './lib/changed-option.ts';
import { rebuild, type RebuildReport } from './pipeline/rebuild.ts';
import { LOCK_BUSY_EXIT, LockBusyError } from './pipeline/publish/lock.ts';
import { CONFIG_EXIT, PublishError, releasesDir } from './pipeline/publish/releases.ts';

function purgeLine(p: RebuildReport['purge']): string {
  if (p.via === 'none') return 'edge: not purged (neither PURGE_URL nor PURGE_COMMAND is set)';
  return `edge purge ${p.ms} ms: ${p.paths} paths${p.error ? `, NOT taken: ${p.error}` : ''}`;
}

function summary(r: RebuildReport): string {
  if (r.unchanged) {
    return [
      `nothing changed since release ${r.release}: nothing built or published (--force builds anyway)`,
      `pull ${r.pull.ms} ms: ${r.pull.items} items, ${r.pull.requests} requests, ${r.pull.warnings} warning(s)`,
      ...(r.purge.paths ? [purgeLine(r.purge)] : []),
    ].join('\n');
  }
  return [
    `release ${r.release} published (previous: ${r.previous ?? 'none'})`,
    `pull ${r.pull.ms} ms: ${r.pull.items} items, ${r.pull.requests} requests, ${r.pull.warnings} warning(s); ` +
      `pictures ${r.pull.pictures.ms} ms: ${r.pull.pictures.fetch.requests} requests, ${r.pull.pictures.fetch.downloaded} downloaded, ${r.pull.pictures.draw.encoded} files drawn`,
    `build ${r.build.ms} ms: ${r.build.pages} pages, ${r.build.rendered} rendered, ${r.build.reused} reused; ` +
      `${r.build.compressed.made} compressed files made, ${r.build.compressed.reused} reused`,
    `publish ${r.publish.ms} ms: ${r.files.added.length} files added, ${r.files.changed.length} changed, ${r.files.removed.length} removed`,
    purgeLine(r.purge),
    ...(r.overBudget.length ? [`over budget, published all the same (${r.overBudget.length}): ${r.overBudget.slice(0, 5).join('; ')}${r.overBudget.length > 5 ? '; …' : ''}`] : []),
    `report: ${join(releasesDir(), 'reports', `${r.id}.json`)}`,
  ].join('\n');
}

if (import.meta.main) {
  try {
    const { values } = parseArgs({ options: { ...CHANGED_OPTION, wait: { type: 'boolean', default: false }, force: { type: 'boolean', default: false } } });
    const report = await rebuild(changesFromOption(values.changed), undefined, { wait: values.wait, force: values.force });
    console.log(`\n${summary(report)}`);
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    if (err instanceof LockBusyError) console.error(`\nRebuild not started: ${message}`);
    else if (err instanceof PublishError && err.published) console.error(`\nRebuild published with a problem: ${message}`);
    else console.error(`\nRebuild failed, the published site is unchanged: ${message}`);
    process.exitCode = err instanceof LockBusyError ? LOCK_BUSY_EXIT : deployEnvProblem() ? CONFIG_EXIT : 1;
  }
}
