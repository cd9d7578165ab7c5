import { describe, expect, it } from 'vitest';
import { startSearchIndex } from '../../scripts/pipeline/search-index/search-index-step.ts';

describe("the search index's thread", () => {
  it('ends when the build stops it, and says it was stopped rather than failed', async () => {
    const index = startSearchIndex();
    await index.stop();
    await expect(index.built).rejects.toThrow('the search index was stopped');
  });
});
