/**
 * `npm run check:budgets [-- DIR]`: the byte budgets of a built site (./lib/budgets.ts), run after a build,
 * which precompresses. Exits 1 when a page is over.
 */
import { readMachineSettings } from '../src/config.ts';
import { checkBudgets } from './pipeline/finish/budgets.ts';

const { rows, failures } = await checkBudgets(process.argv[2] ?? readMachineSettings().outDir);
console.log('page'.padEnd(40), 'first flight (br)'.padStart(18), 'budget'.padStart(8), 'JS (br)'.padStart(9));
for (const r of rows) console.log(r.page.padEnd(40), String(r.firstFlight).padStart(18), String(r.budget).padStart(8), String(r.javascript).padStart(9));
for (const f of failures) console.error(`over budget: ${f}`);
console.log(`${rows.length} pages checked, ${failures.length} over budget`);
if (failures.length) process.exitCode = 1;
