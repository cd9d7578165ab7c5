/**
 * `npm run pull`: fetch the content from the API for every language into
 * CONTENT_DIR (the snapshot the build reads), without building.
 * `--changed post:123,page:5` fetches only those details again, as `rebuild`,
 * and looks again only at those items' pictures (src/content/pictures/).
 *
 * The rebuild and the webhook run their pull this way, in a child process
 * that writes its summary to PULL_REPORT_FILE: a full pull at 2,500 posts per
 * language leaves some 400 MB in a Node process after its objects are freed,
 * which the rebuild would otherwise hold beside its build (the run's peak) and
 * the webhook for as long as it listens.
 */
import { parseArgs } from 'node:util';
import { readConfig } from '../src/config.ts';
import { replaceFile } from './lib/replace-file.ts';
import { changesFromOption, CHANGED_OPTION } from './lib/changed-option.ts';
import { pullStep } from './pipeline/pull/pull-step.ts';

if (import.meta.main) {
  const reportFile = process.env.PULL_REPORT_FILE;
  try {
    const { values } = parseArgs({ options: CHANGED_OPTION });
    const summary = await pullStep(readConfig(), changesFromOption(values.changed), (l) => console.log(`pull: ${l}`));
    if (reportFile) await replaceFile(reportFile, JSON.stringify(summary));
  } catch (err) {
    const error = err instanceof Error ? err.message : String(err);
    // The rebuild reports the reason as its own.
    if (reportFile) await replaceFile(reportFile, JSON.stringify({ error }));
    else console.error(`\nPull failed: ${error}`);
    process.exitCode = 1;
  }
}
