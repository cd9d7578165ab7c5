/**
 * Starts the sample API on a free port, builds the site against it into its
 * own folder and serves that folder on another free port. Returns the
 * teardown that stops both.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { startTestApi, testApiDir } from '../helpers/sample-api.ts';
import { checkBudgets } from '../../scripts/pipeline/finish/budgets.ts';
import { checkLinks } from '../../scripts/pipeline/finish/link-check.ts';
import { serveDist } from '../../scripts/serving/static-server.ts';

const run = promisify(execFile);
/** Working folder of one e2e run; set E2E_DIR to run two suites side by side. */
const E2E_DIR = process.env.E2E_DIR ?? '.cache/e2e';

export default async function globalSetup(): Promise<() => Promise<void>> {
  const apiName = E2E_DIR.replace(/\W+/g, '-');
  const api = await startTestApi(apiName);
  try {
    await run(process.execPath, ['scripts/build.ts'], {
      env: {
        ...process.env,
        API_BASE: api.url,
        SITE_URL: 'http://127.0.0.1:4321',
        CONTENT_DIR: `${E2E_DIR}/content`,
        OUT_DIR: `${E2E_DIR}/dist`,
        PICTURE_DIR: `${E2E_DIR}/pictures`,
        DOCUMENT_DIR: `${E2E_DIR}/documents`,
        ASTRO_TELEMETRY_DISABLED: '1',
      },
      maxBuffer: 64 * 1024 * 1024,
    });
  } catch (err) {
    await api.close();
    const e = err as { stdout?: string; stderr?: string };
    throw new Error(`The e2e build failed:\n${e.stdout ?? ''}\n${e.stderr ?? ''}`, { cause: err });
  }
  // The built site must have no broken internal link, image, script or stylesheet, in any language.
  const links = await checkLinks(`${E2E_DIR}/dist`);
  if (links.broken.length) {
    await api.close();
    throw new Error(`Broken internal references in the built site:\n${links.broken.slice(0, 30).join('\n')}`);
  }
  console.log(`check:links: ${links.pages} pages, ${links.checked} internal references, none broken`);
  // The byte budgets of the slow-connection issue, on the brotli files the site is served with.
  const budgets = await checkBudgets(`${E2E_DIR}/dist`);
  if (budgets.failures.length) {
    await api.close();
    throw new Error(`Pages over their byte budget:\n${budgets.failures.join('\n')}`);
  }
  console.log(`check:budgets: ${budgets.rows.length} pages within budget`);
  const site = await serveDist({ root: `${E2E_DIR}/dist`, port: 0 });
  process.env.E2E_BASE_URL = site.url;
  process.env.E2E_API_URL = api.url;
  // Tests that change the API's content after the build (a post newer than the site) or
  // count what it stored (appeals) open its SQLite file: tests/helpers/sample-db.ts.
  process.env.E2E_API_DB = `${testApiDir(apiName)}/sample.db`;
  return async () => {
    await new Promise<void>((ok) => {
      site.server.closeAllConnections();
      site.server.close(() => ok());
    });
    await api.close();
  };
}
