/** The thread of ./copy-stats.ts: stats the copies of the pages in Astro's manifest and sends back their stamps. */
import { parentPort, workerData } from 'node:worker_threads';
import { stampTable } from './copy-stats.ts';

const table = stampTable(workerData as string);
parentPort!.postMessage(table, [table.numbers.buffer, table.times.buffer, table.isFile.buffer]);
