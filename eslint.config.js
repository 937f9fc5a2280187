// ESLint (flat config) with typescript-eslint: the checks a reviewer would otherwise make by hand, and the
// import rules that hold the layers (CONTRIBUTING.md, "How the code is laid out"). Formatting is Prettier's.
import js from '@eslint/js';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import { importX } from 'eslint-plugin-import-x';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/** Forbids importing from the folders matched by `groups` (globs on the import path), type-only imports too. */
const forbid = (message, ...groups) => ['error', { patterns: [{ group: groups, message }] }];

export default tseslint.config(
  { ignores: ['dist/', '.pack/', '.tmp/', 'bench-results/', 'test-results/', 'test/runtimes/next/app/', 'node_modules/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    // Browser and Node alike: the widget, the server, the tests and the scripts share the tree.
    languageOptions: { ecmaVersion: 2022, sourceType: 'module', globals: { ...globals.browser, ...globals.node } },
    rules: {
      'no-sequences': ['error', { allowInParentheses: false }],
      'no-nested-ternary': 'error',
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-non-null-assertion': 'error',
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  // No module imports itself back through others: a loop makes the order of evaluation matter and hides
  // which module is the lower layer.
  {
    files: ['src/**/*.{ts,tsx}'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/parsers': importX.flatConfigs.typescript.settings['import-x/parsers'],
      'import-x/extensions': importX.flatConfigs.typescript.settings['import-x/extensions'],
      'import-x/resolver-next': [createTypeScriptImportResolver({ project: 'tsconfig.json' })],
    },
    rules: { 'import-x/no-cycle': ['error', { ignoreExternal: true }] },
  },
  // Tests check what terminals and pages must never show: control characters are what they match.
  { files: ['test/**'], rules: { 'no-control-regex': 'off' } },
  // The runtimes' own globals, in the recipes run on them.
  { files: ['test/runtimes/bun/**'], languageOptions: { globals: { Bun: 'readonly' } } },
  { files: ['test/runtimes/deno/**'], languageOptions: { globals: { Deno: 'readonly' } } },
  // core: shared by browser and server, it imports nothing of ours.
  {
    files: ['src/core/**'],
    rules: {
      'no-restricted-imports': forbid(
        'src/core imports nothing of ours outside src/core.',
        '**/widget/**',
        '**/server/**',
        '**/sandbox/**',
        '**/cli/**',
      ),
    },
  },
  // platform and i18n: the widget's shared pieces, below every feature.
  {
    files: ['src/widget/platform/**', 'src/widget/i18n/**'],
    rules: {
      'no-restricted-imports': forbid(
        'platform and i18n import no feature.',
        '**/chat/**',
        '**/booking/**',
        '**/shell/**',
        '**/panel/**',
        '**/embedding/**',
        '**/launcher/**',
        '**/entries/**',
      ),
    },
  },
  // chat and booking sit below the shell that composes them.
  {
    files: ['src/widget/chat/**', 'src/widget/booking/**'],
    rules: {
      'no-restricted-imports': forbid(
        'chat and booking never import the shell above them, nor the loader.',
        '**/shell/**',
        '**/panel/**',
        '**/embedding/**',
        '**/launcher/**',
        '**/entries/**',
      ),
    },
  },
);
