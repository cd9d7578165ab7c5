/**
 * Reading the build's large text files: the snapshot (58 MB at 10,000 news per language), the last pass's
 * memo, a release's file list. Node 24 decodes a file read with an encoding more slowly than the same bytes
 * read whole and decoded once (the snapshot: 470 ms against 140 ms read synchronously, 470 against 200 ms
 * with the promise API, whose reads with an encoding go through a chunked decoder; measured).
 */
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';

export const readTextSync = (file: string): string => readFileSync(file).toString('utf8');

export const readText = async (file: string): Promise<string> => (await readFile(file)).toString('utf8');
