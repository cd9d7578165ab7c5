/**
 * A webhook listener in a process of its own, for tests that kill it with SIGKILL:
 * `node tests/helpers/webhook-process.ts <journal dir> <debounce ms>`, secret in WEBHOOK_SECRET.
 * Its rebuild never resolves. Prints its log lines and `listening <url>` on stdout.
 */
import { createWebhookServer } from '../../scripts/webhook/server.ts';

const [journalDir = '', debounceMs = '0'] = process.argv.slice(2);
const hook = await createWebhookServer({
  secret: process.env.WEBHOOK_SECRET ?? '',
  journalDir,
  port: 0,
  host: '127.0.0.1',
  debounceMs: Number(debounceMs),
  rebuild: () => new Promise(() => undefined),
  log: (line) => console.log(line),
});
console.log(`listening ${hook.url}`);
