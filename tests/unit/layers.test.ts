import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

// The import layers of docs/architecture.md ("Layers."), as eslint.config.js checks them: each case lints
// one line as if it were a file at `file` (the file need not exist).
const eslint = new ESLint();
async function layerErrors(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(`${code}\n`, { filePath: file });
  return result!.messages.filter((m) => m.ruleId === 'no-restricted-imports' || m.ruleId === 'no-restricted-syntax').map((m) => m.message);
}

describe('import layers', () => {
  const refused: [string, string][] = [
    ['src/features/search/x.ts', "import { snapshot } from '../../content/store.ts';"],
    ['src/features/search/x.ts', "import type { Snapshot } from '../../content/snapshot.ts';"],
    ['src/features/search/x.ts', "export const later = () => import('../../content/store.ts');"],
    ['src/islands/x.tsx', "import { readConfig } from '../config.ts';"],
    ['src/api/x.ts', "import { t } from '../i18n/t.ts';"],
    ['src/district/x.ts', "import { paths } from '../lib/paths.ts';"],
    ['src/content/pictures/x.ts', "import { pageContext } from '../../lib/page-context.ts';"],
    ['src/lib/x.ts', "import Icon from '../components/Icon.astro';"],
    ['src/lib/base-path.ts', "import { LANGUAGES } from '../i18n/languages.ts';"],
  ];
  it.each(refused)('%s: %s is refused', async (file, code) => {
    expect(await layerErrors(file, code)).toEqual([expect.stringContaining('docs/architecture.md')]);
  });

  const allowed: [string, string][] = [
    ['src/features/search/x.ts', "import { siteAddress } from '../../lib/base-path.ts';"],
    ['src/features/search/SearchPage.astro', "---\nimport { readConfig } from '../../config.ts';\n---\n<p>{readConfig().siteUrl}</p>"],
    ['src/api/x.ts', "import { LANGUAGES } from '../i18n/languages.ts';"],
    ['src/content/pictures/x.ts', "import { fetchSameOrigin } from '../../lib/fetch-same-origin.ts';"],
    ['src/content/x.ts', "import { readConfig } from '../config.ts';"],
    ['src/lib/storage.ts', "import { DISTRICT_KEY } from '../district/key.ts';"],
  ];
  it.each(allowed)('%s: %s is allowed', async (file, code) => {
    expect(await layerErrors(file, code)).toEqual([]);
  });
});
