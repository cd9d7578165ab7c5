/**
 * What the search index is made with besides its documents (./kept-index.ts): the code of its thread, the
 * settings, the installed packages, and the Node and Unicode versions by which words are split and folded.
 */
import { hash } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { readConfig } from '../../../src/config.ts';
import { codeTexts } from '../../lib/code-graph.ts';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));

export async function indexBasis(): Promise<string> {
  const code = await codeTexts([fileURLToPath(new URL('./search-index-worker.ts', import.meta.url))], ROOT);
  return hash('sha256', JSON.stringify([code, readConfig(), process.versions.node, process.versions.unicode]));
}
