/**
 * `npm run check:links [-- DIR]`: walks the built site (OUT_DIR by default) and
 * fails on any internal reference that does not resolve (scripts/pipeline/finish/link-check.ts).
 */
import { readMachineSettings } from '../src/config.ts';
import { checkLinks } from './pipeline/finish/link-check.ts';

if (import.meta.main) {
  const root = process.argv[2] ?? readMachineSettings().outDir;
  const { pages, checked, broken } = await checkLinks(root);
  for (const b of broken.slice(0, 50)) console.error(`broken: ${b}`);
  if (broken.length > 50) console.error(`… and ${broken.length - 50} more`);
  console.log(`${pages} pages, ${checked} internal references, ${broken.length} broken`);
  if (broken.length) process.exitCode = 1;
}
