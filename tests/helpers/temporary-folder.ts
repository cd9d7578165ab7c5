/**
 * Vitest's global setup: every temporary folder the tests make goes into one of this run's own, removed when the
 * run ends. Tests make theirs with `mkdtemp` under `os.tmpdir()`, the processes they start likewise, and not all
 * remove them: an operator who runs the tests often found hundreds of megabytes left in /tmp. `os.tmpdir()` reads
 * TMPDIR, which the test workers and everything they start inherit.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export default function useOwnTemporaryFolder(): () => void {
  const own = mkdtempSync(join(tmpdir(), 'hokimiyat-tests-'));
  process.env.TMPDIR = own;
  return () => rmSync(own, { recursive: true, force: true });
}
