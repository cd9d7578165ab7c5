/**
 * Progress of a long step, so that an operator can tell a slow build from a
 * hung one: on a terminal one line that updates in place; in a log (CI, cron)
 * a plain line every few seconds, never a stream of carriage returns.
 */
const LOG_EVERY_MS = 5_000;
const TTY_EVERY_MS = 200;

export interface Progress {
  /** `n` more items done. */
  tick(n?: number): void;
  /** The total, once it is known. */
  total(n: number): void;
  /** Prints the final count once. */
  done(note?: string): void;
}

/** `write` defaults to the standard output. */
export function progress(label: string, total?: number, write: (text: string) => unknown = process.stdout.write.bind(process.stdout)): Progress {
  const tty = Boolean(process.stdout.isTTY);
  const out = { write };
  const started = performance.now();
  let count = 0;
  let last = started;
  const line = () => {
    const s = ((performance.now() - started) / 1000).toFixed(0);
    // A total from an earlier build is an estimate: once passed, only the count is shown.
    const of = total && count <= total ? ` of ${total.toLocaleString('en')}` : '';
    return `${label}: ${count.toLocaleString('en')}${of} (${s} s)`;
  };
  return {
    tick(n = 1) {
      count += n;
      const now = performance.now();
      if (now - last < (tty ? TTY_EVERY_MS : LOG_EVERY_MS)) return;
      last = now;
      out.write(tty ? `\r${line()}\x1b[K` : `${line()}\n`);
    },
    total(n) {
      total = n;
    },
    done(note) {
      out.write(`${tty ? '\r' : ''}${line()}${note ? `, ${note}` : ''}${tty ? '\x1b[K' : ''}\n`);
    },
  };
}
