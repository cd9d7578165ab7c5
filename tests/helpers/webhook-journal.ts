/** The webhook's journal as a test reads it: its JSON lines, one part each, taken together. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { JOURNAL_FILE } from '../../scripts/webhook/journal.ts';

export const readJournalParts = (dir: string): Record<string, unknown> =>
  Object.assign(
    {},
    ...readFileSync(join(dir, JOURNAL_FILE), 'utf8')
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as Record<string, unknown>),
  );
