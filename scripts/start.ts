/**
 * `npm start`: the whole thing on one machine. Starts the bundled sample API
 * when nothing answers at API_BASE, builds the site against it and serves
 * dist/, keeping the API running for search, survey votes and appeals.
 */
import { readConfig, readMachineSettings } from '../src/config.ts';
import { ensureApi } from './lib/ensure-api.ts';
import { buildStep } from './pipeline/build-step.ts';
import { pullStep } from './pipeline/pull/pull-step.ts';
import { serveDist } from './serving/static-server.ts';

const config = readConfig();
try {
  const api = await ensureApi(config);
  await pullStep(config, 'all');
  await buildStep();
  const { url, server } = await serveDist({ port: Number(process.env.PORT ?? 4321), root: readMachineSettings().outDir, basePath: config.basePath });
  console.log(`\nThe site is ready at ${url}${config.basePath}/  (content API: ${config.apiBase}; stop with Ctrl+C)`);
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      server.close();
      void (api?.close() ?? Promise.resolve()).then(() => process.exit(0));
    });
  }
} catch (err) {
  console.error(`\nStart failed: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
}
