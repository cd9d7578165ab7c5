/**
 * What the build-inputs digest and the last pass's memo hash as code (scripts/lib/code-graph.ts): every
 * module of the project a program imports or starts, found rather than listed by hand.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { codeFiles } from '../../scripts/lib/code-graph.ts';
import { siteCodeDigest, siteCodeStamps } from '../../scripts/pipeline/inputs.ts';

const inProject = (files: string[]) => files.map((f) => relative(process.cwd(), f));

describe('the code a program is made of', () => {
  it("the build's: its steps, the worker it starts by URL and the site modules they import, never a package", async () => {
    const files = inProject(await codeFiles(['scripts/build.ts', 'astro.config.mjs']));
    expect(files).toEqual(
      expect.arrayContaining([
        'scripts/build.ts',
        'astro.config.mjs',
        'scripts/pipeline/finish/finish-step.ts',
        'scripts/pipeline/finish/compress-worker.ts',
        'src/lib/fragments.ts',
      ]),
    );
    expect(files.filter((f) => f.includes('node_modules'))).toEqual([]);
    // The webhook is not part of the build: changing it must not count as a change of the site.
    expect(files.filter((f) => f.includes('webhook'))).toEqual([]);
  });

  it("the last pass's: the modules its findings depend on, and the inline scripts' source", async () => {
    const files = inProject(await codeFiles(['scripts/pipeline/finish/finish-step.ts']));
    expect(files).toEqual(
      expect.arrayContaining([
        'scripts/pipeline/finish/finish-step.ts',
        'scripts/pipeline/finish/csp.ts',
        'scripts/pipeline/finish/link-check.ts',
        'src/lib/fragments.ts',
        'src/lib/inline-scripts.ts',
      ]),
    );
  });

  it('follows a module started by URL, and what that module imports in turn', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'code-graph-'));
    try {
      writeFileSync(join(dir, 'main.ts'), "import { a } from './a.ts';\nnew Worker(new URL('./worker.ts', import.meta.url));\nconsole.log(a);\n");
      writeFileSync(join(dir, 'a.ts'), 'export const a = 1;\n');
      writeFileSync(join(dir, 'worker.ts'), "import { b } from './b.ts';\nconsole.log(b);\n");
      writeFileSync(join(dir, 'b.ts'), "import 'node:fs';\nexport const b = 2;\n");
      expect((await codeFiles(['main.ts'], dir)).map((f) => relative(dir, f))).toEqual(['a.ts', 'b.ts', 'main.ts', 'worker.ts']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("the site's code as the render step records it: the digest follows what the files say, the stamps any file changed while Astro ran", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'site-code-'));
    try {
      mkdirSync(join(dir, 'src'));
      mkdirSync(join(dir, 'scripts'));
      writeFileSync(join(dir, 'scripts/build.ts'), "import { page } from '../src/page.ts';\nconsole.log(page);\n");
      writeFileSync(join(dir, 'src/page.ts'), "export const page = 'a';\n");
      writeFileSync(join(dir, 'astro.config.mjs'), 'export default {};\n');
      const digest = await siteCodeDigest(dir);
      const stamps = siteCodeStamps(dir);
      expect(siteCodeStamps(dir)).toBe(stamps);
      // Deployed while Astro runs: the render step then records no code, and the next build hands Astro every page.
      writeFileSync(join(dir, 'src/page.ts'), "export const page = 'ab';\n");
      expect(siteCodeStamps(dir)).not.toBe(stamps);
      expect(await siteCodeDigest(dir)).not.toBe(digest);
      // The same code again is the same digest, whatever its files' times.
      writeFileSync(join(dir, 'src/page.ts'), "export const page = 'a';\n");
      expect(await siteCodeDigest(dir)).toBe(digest);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
