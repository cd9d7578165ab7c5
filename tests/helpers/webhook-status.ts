/** The status of a webhook listener that has accepted no change and run no rebuild (scripts/webhook/scheduler.ts). */
import type { Status } from '../../scripts/webhook/scheduler.ts';

export const idleStatus = (): Status => ({
  state: 'idle',
  queue: null,
  pending: [],
  nextAttemptAt: null,
  lastReport: null,
  lastError: null,
  lastStartedAt: null,
  lastFinishedAt: null,
  published: [],
  rebuilds: { ok: 0, failed: 0 },
});
