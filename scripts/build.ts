/**
 * `npm run build`: pull the content and its pictures from the API for every
 * language, then build the static site into dist/ (or OUT_DIR) and finish it
 * (scripts/pipeline/build-step.ts). `node scripts/build.ts --skip-pull` builds from
 * the snapshot already pulled (the rebuild runs it that way, in a child process
 * it can stop, and reads the report it writes to BUILD_REPORT_FILE; a failure
 * writes `{error}` there, so the rebuild can say why). With BUILD_FILE_LIST and
 * BUILD_CHANGES_FILE it also writes the new release's file list and changes record there, for the publish.
 */
import { parseArgs } from 'node:util';
import { readConfig } from '../src/config.ts';
import { replaceFile } from './lib/replace-file.ts';
import { district } from '../src/district/district.ts';
import { ensureApi } from './lib/ensure-api.ts';
import { buildStep } from './pipeline/build-step.ts';
import { contentReportLines } from './pipeline/pull/content-report.ts';
import { pullStep } from './pipeline/pull/pull-step.ts';

const { values } = parseArgs({ options: { 'skip-pull': { type: 'boolean', default: false } } });
const reportFile = process.env.BUILD_REPORT_FILE;
let api;
try {
  // An invalid district folder stops the build before anything is pulled, naming the file and the field.
  district();
  if (!values['skip-pull']) {
    const config = readConfig();
    api = await ensureApi(config);
    const pulled = await pullStep(config, 'all');
    for (const line of contentReportLines({ deadLinks: [], unavailableDocuments: pulled.documents.unavailable, removed: pulled.removed })) console.warn(`warning: ${line}`);
  }
  const env = process.env;
  const into = env.BUILD_IN_RELEASE ? { root: env.BUILD_IN_RELEASE, id: env.BUILD_IN_RELEASE_ID ?? '', files: env.BUILD_IN_RELEASE_FILES ?? '' } : null;
  const report = await buildStep({ previousRelease: env.PREVIOUS_RELEASE || null, into, fileList: env.BUILD_FILE_LIST || null, changesFile: env.BUILD_CHANGES_FILE || null });
  if (reportFile) await replaceFile(reportFile, JSON.stringify(report));
} catch (err) {
  const error = err instanceof Error ? err.message : String(err);
  console.error(`\nBuild failed: ${error}`);
  if (reportFile) await replaceFile(reportFile, JSON.stringify({ error }));
  process.exitCode = 1;
} finally {
  await api?.close();
}
