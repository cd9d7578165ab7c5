/**
 * Vitest's global setup: every temporary folder the tests make goes into one of this run's own, removed when the
 * run ends. Tests make theirs with `mkdtemp` under `os.tmpdir()`, and not all remove them: an operator who runs the
 * tests often found hundreds of megabytes left in /tmp. `os.tmpdir()` reads TMPDIR, which the test workers inherit,
 * and the processes they start unless given an environment of their own.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export default function useOwnTemporaryFolder(): () => void {
  const before = process.env.TMPDIR;
  const own = mkdtempSync(join(tmpdir(), 'hokimiyat-tests-'));
  process.env.TMPDIR = own;
  // Watch mode runs the setup again in the same process: it must start from the folder it started from.
  return () => {
    if (before === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = before;
    rmSync(own, { recursive: true, force: true });
  };
}
