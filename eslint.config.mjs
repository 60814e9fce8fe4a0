// ESLint for every TypeScript and build-script file of the project. Formatting is Prettier's
// (.prettierrc.json, `npx prettier --check .`); this file holds the rules Prettier cannot: the
// 120-character line limit for comments (Prettier wraps code, never comments), the size limits that
// keep the engine's functions and the sweep's files readable, and typescript-eslint's recommended
// checks. `npm test` runs both (scripts/test-all.sh); by hand: `npx eslint .`.
import js from '@eslint/js';
import stylistic from '@stylistic/eslint-plugin';
import prettier from 'eslint-config-prettier';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['node_modules/', 'dist/', 'out/', 'test-artifacts/', 'bench-results/', '.cache/', '**/*.d.ts'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  prettier,
  {
    languageOptions: { globals: { ...globals.node } },
    plugins: { '@stylistic': stylistic },
    rules: {
      // a leading underscore says "deliberately unused" (a parameter kept for its position, a field left out)
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
      // a cleanup closure may read a handle that a later line assigns once
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
      '@stylistic/max-len': [
        'error',
        {
          code: 120,
          tabWidth: 2,
          ignoreUrls: true,
          ignoreStrings: true,
          ignoreTemplateLiterals: true,
          ignoreRegExpLiterals: true,
        },
      ],
    },
  },
  {
    // Tests read arbitrary JSON (fixtures, LSP answers, results files) and load modules only after
    // installing fakes (the fake vscode module), which needs require() at that point.
    files: ['test/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off', '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    files: ['media/src/**/*.ts'],
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    files: ['engine/src/**/*.ts'],
    rules: { 'max-lines-per-function': ['error', { max: 100, skipBlankLines: false, skipComments: false }] },
  },
  {
    files: ['engine/src/sweep/**/*.ts'],
    rules: { 'max-lines': ['error', { max: 400, skipBlankLines: false, skipComments: false }] },
  },
);
