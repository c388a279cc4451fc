// @ts-check
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'test-results/', 'bench/results/', '.research/', '**/*.mjs', 'bin/'] },
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // Layering: only the Electron shell may import electron (it cannot even load in plain Node).
    files: ['electron/core/**/*.ts', 'shared/**/*.ts', 'renderer/**/*.ts', 'renderer/**/*.tsx', 'electron/cli.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { paths: [{ name: 'electron', message: 'Only electron/main.ts and the preload may import electron.' }] },
      ],
    },
  },
  {
    files: ['shared/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['node:*', 'electron', '@modelcontextprotocol/*'],
              message: 'shared/ knows no Node, DOM, Electron or SDK.',
            },
          ],
        },
      ],
    },
  },
);
