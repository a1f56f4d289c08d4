// @ts-check
import eslint from '@eslint/js';
import tseslint from 'typescript-eslint';
import prettier from 'eslint-config-prettier';

export default tseslint.config(
  {
    ignores: [
      'dist/',
      'packages/*/dist/',
      'node_modules/',
      'data/',
      'coverage/',
      'portal/',
      'test/architecture/violations/',
      '**/*.js',
      '**/*.cjs',
      '**/*.mjs',
    ],
  },
  eslint.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      // A name that says it is unused (`_x`), or the rest of an object taken apart to drop fields, is meant.
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
      // snake_case on the wire and in events, camelCase inside: names the code declares are camelCase (constants
      // UPPER_CASE, classes and types PascalCase); the fields of wire and event shapes keep their wire names.
      '@typescript-eslint/naming-convention': [
        'error',
        { selector: 'default', format: ['camelCase'], leadingUnderscore: 'allow' },
        { selector: 'variable', format: ['camelCase', 'UPPER_CASE', 'PascalCase'], leadingUnderscore: 'allow' },
        { selector: 'typeLike', format: ['PascalCase'] },
        // Decorators are PascalCase functions (Nest's convention); a class taken from a module stays PascalCase.
        { selector: 'function', format: ['camelCase', 'PascalCase'] },
        { selector: 'parameter', modifiers: ['destructured'], format: ['camelCase', 'PascalCase'] },
        { selector: 'enumMember', format: ['PascalCase', 'UPPER_CASE'] },
        { selector: 'import', format: null },
        {
          selector: [
            'objectLiteralProperty',
            'typeProperty',
            'classProperty',
            'objectLiteralMethod',
            'typeMethod',
            'parameterProperty',
            'accessor',
          ],
          format: null,
        },
      ],
      // Handlers implement promise-returning interfaces (Nest's `execute`, a store's `hit`): an `async`
      // method without `await` is how one of them throws as a rejection, as its callers expect.
      '@typescript-eslint/require-await': 'off',
    },
  },
  {
    // The benches measure built code: they load the service's and the package's modules from dist/, typed by their sources.
    files: ['bench/**/*.ts', 'packages/tlog/bench/**/*.ts'],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    // Tests read answers as parsed JSON (`any`), which every end-to-end call checks against the OpenAPI
    // document, and Jest types its asymmetric matchers (`expect.any(String)`) as `any`: in tests the
    // `no-unsafe-*` rules would flag each assertion, not an unchecked value.
    files: [
      'test/**/*.ts',
      '**/*.spec.ts',
      '**/*.int-spec.ts',
      '**/*.e2e-spec.ts',
      'bench/**/*.ts',
      'packages/tlog/bench/**/*.ts',
    ],
    rules: {
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-explicit-any': 'off',
    },
  },
  prettier,
);
