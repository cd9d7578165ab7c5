// ESLint (flat config): TypeScript, Astro, React hooks and JSX accessibility, and the import layers of
// docs/architecture.md ("Layers."). Formatting is Prettier's (.prettierrc.json); nothing here is about layout.
import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import astro from 'eslint-plugin-astro';
import jsxA11y from 'eslint-plugin-jsx-a11y-x';
import reactHooks from 'eslint-plugin-react-hooks';
import { defineConfig, globalIgnores } from 'eslint/config';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/**
 * The layers. A rule names files of src/ by their path under src/; ESLint matches the import as written
 * (every import of the site's is relative, `../../content/store.ts`), so each name becomes a pattern that
 * matches it from any depth. A folder is `name/`, a file `name.ts`.
 */
const SRC = readdirSync(new URL('./src/', import.meta.url), { withFileTypes: true }).map((e) => (e.isDirectory() ? `${e.name}/` : e.name));
/** Imported by every layer: they import nothing of the site's but each other and the district's key. */
const LEAVES = ['lib/base-path.ts', 'lib/storage.ts', 'lib/fetch-same-origin.ts'];
const pattern = (name) => (name.endsWith('/') ? `**/${name}**/*.*` : `**/${name}`);
const WHY = 'docs/architecture.md, "Layers."';

/** Files under `folder` may import, of the rest of src/, only `allowed` (and the leaves). */
function importsOnly(folder, allowed) {
  const others = SRC.filter((name) => name !== folder && !allowed.includes(name));
  const exceptions = [...LEAVES, ...allowed].filter((name) => !name.endsWith('/') && others.some((o) => name.startsWith(o)));
  return {
    group: [...others.map(pattern), ...exceptions.map((name) => `!${pattern(name)}`)],
    message: `src/${folder} imports only ${[...allowed, ...LEAVES].map((n) => `src/${n}`).join(', ')} (${WHY})`,
  };
}
/** Files may not import `names` (the leaves stay allowed). */
function importsNever(names, why) {
  const exceptions = LEAVES.filter((leaf) => names.some((n) => leaf.startsWith(n)));
  return { group: [...names.map(pattern), ...exceptions.map((name) => `!${pattern(name)}`)], message: `${why} (${WHY})` };
}
const layer = (name, files, ...patterns) => ({ name: `layers/${name}`, files, rules: { 'no-restricted-imports': ['error', { patterns }] } });

/** Code that runs in the browser: islands and features, and the <script>s of their .astro files (not the tests, nor the frontmatter, which the build runs). */
const BROWSER = ['src/islands/**/*.{ts,tsx}', 'src/features/**/*.{ts,tsx}', 'src/islands/**/*.astro/*.ts', 'src/features/**/*.astro/*.ts'];
const TESTS = ['**/*.test.ts', '**/*.spec.ts', 'tests/**'];
/** Build-time code that lives with its feature: Node, run by the build, not shipped to the browser. */
const FEATURE_BUILD_STEPS = ['src/features/offline/build-service-worker.ts'];

export default defineConfig([
  // ESLint reads no .gitignore: what the build, the tests and the sample API write.
  globalIgnores(['dist/', '.astro/', '.cache/', '.sample-api/', 'test-results/', 'playwright-report/', '.releases/', 'sites/']),

  js.configs.recommended,
  tseslint.configs.recommended,
  astro.configs.recommended,
  {
    files: ['**/*.{js,mjs}'],
    languageOptions: { globals: globals.node },
  },
  {
    files: ['tests/e2e/hcaptcha-stub.js'],
    languageOptions: { globals: globals.browser },
  },
  {
    // The rules of hooks. Not the React Compiler's rules that `recommended` adds since version 7: the site does not
    // build with the compiler, and they refuse what the islands do on purpose (reading what was typed into the
    // server's HTML in an effect after hydration, refs read in event handlers built during render).
    files: ['**/*.tsx'],
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'error' },
  },
  {
    files: ['**/*.tsx'],
    ...jsxA11y.configs.recommended,
  },
  // The same accessibility rules on the .astro templates, where most of the markup is.
  astro.configs['jsx-a11y-recommended'],
  {
    files: ['**/*.astro'],
    rules: {
      // `role` is also a prop of the site's own components (<ResponsiveImage role="post">): check only HTML elements.
      'astro/jsx-a11y/aria-role': ['error', { ignoreNonDOM: true }],
    },
  },
  {
    rules: {
      // `_` names what a destructuring or a callback skips on purpose.
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true }],
    },
  },
  {
    // Playwright reads a test's fixtures from its parameter's names: naming `consoleErrors` is what turns the
    // console check on (tests/e2e/fixtures.ts), and a fixture that uses none must still destructure `{}`.
    files: ['tests/e2e/**'],
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^(_|consoleErrors$)', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true }],
      'no-empty-pattern': ['error', { allowObjectPatternsAsParameters: true }],
    },
  },

  // The layers (docs/architecture.md, "Layers.").
  layer('district', ['src/district/**'], importsOnly('district/', ['i18n/languages.ts'])),
  layer('api', ['src/api/**'], importsOnly('api/', ['i18n/languages.ts'])),
  layer('content', ['src/content/**'], importsOnly('content/', ['api/', 'config.ts', 'district/', 'i18n/languages.ts'])),
  layer('lib', ['src/lib/**'], importsNever(['components/', 'layouts/', 'pages/'], 'src/lib is read by components, layouts and pages, never the other way')),
  // After src/lib's rule, which it replaces for these three files.
  layer(
    'leaves',
    LEAVES.map((n) => `src/${n}`),
    {
      group: ['./*.*', '../**/*.*', '!./base-path.ts', '!./storage.ts', '!./fetch-same-origin.ts', '!../district/key.ts'],
      message: `the modules every layer reads import nothing of the site's but each other and src/district/key.ts (${WHY})`,
    },
  ),
  {
    ...layer('browser', BROWSER, importsNever(['content/', 'config.ts'], 'browser code (src/islands, src/features) imports neither src/content nor the settings (src/config.ts)')),
    ignores: [...TESTS, ...FEATURE_BUILD_STEPS],
  },
  {
    // no-restricted-imports does not see import(): the browser's lazy imports stay in their own folder.
    name: 'layers/browser-lazy',
    files: BROWSER,
    ignores: [...TESTS, ...FEATURE_BUILD_STEPS],
    rules: {
      'no-restricted-syntax': [
        'error',
        { selector: 'ImportExpression > Literal[value=/^\\.\\.\\//]', message: `a lazy import() in browser code stays in its own folder (${WHY})` },
      ],
    },
  },
]);
