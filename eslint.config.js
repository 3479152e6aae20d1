import tseslint from 'typescript-eslint';
import vitest from '@vitest/eslint-plugin';

export default tseslint.config(
  { ignores: ['node_modules/**', 'data/**', 'coverage/**', '**/*.js', '!eslint.config.js'] },
  ...tseslint.configs.strict,
  {
    rules: {
      '@typescript-eslint/ban-ts-comment': ['error', { 'ts-ignore': true, 'ts-expect-error': 'allow-with-description' }],
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-non-null-assertion': 'off',
      'no-console': 'off',
      // Lines stay readable without scrolling; a test's title is one sentence, so it may run longer.
      'max-len': [
        'error',
        { code: 160, ignoreUrls: true, ignoreRegExpLiterals: true, ignorePattern: '^\\s*(it|describe|test)(\\.\\w+)?\\(' },
      ],
    },
  },
  {
    files: ['test/**/*.ts'],
    plugins: { vitest },
    rules: {
      ...vitest.configs.recommended.rules,
      'vitest/no-focused-tests': 'error',
      'vitest/no-disabled-tests': 'error',
      'vitest/expect-expect': ['error', { assertFunctionNames: ['expect', 'expect*'] }],
      'vitest/valid-expect': ['error', { maxArgs: 2 }],
    },
  },
);
