// @ts-check
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'test-results/', 'bench/results/', '.research/', '**/*.mjs', 'bin/'] },
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    languageOptions: {
      parserOptions: {
        // The Electron shell has its own tsconfig (electron/tsconfig.shell.json), outside the editor projects.
        projectService: {
          allowDefaultProject: ['electron/main.ts', 'electron/preload.ts'],
          defaultProject: 'electron/tsconfig.shell.json',
        },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // Layering: only the Electron shell may import electron (it cannot even load in plain Node).
    files: ['electron/core/**/*.ts', 'shared/**/*.ts', 'renderer/**/*.ts', 'renderer/**/*.tsx', 'electron/cli/**/*.ts'],
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
  {
    files: ['renderer/**/*.ts', 'renderer/**/*.tsx', 'test/**/*.tsx'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // The renderer knows only the DOM and shared/: no Node, no Electron, no SDK, no server-side packages.
    files: ['renderer/**/*.ts', 'renderer/**/*.tsx'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'electron', message: 'The renderer reaches the core only through its CoreClient.' }],
          patterns: [
            {
              group: [
                'node:*',
                'electron',
                'electron/*',
                '@modelcontextprotocol/*',
                'ws',
                'fs',
                'path',
                'child_process',
              ],
              message: 'The renderer knows only the DOM and shared/.',
            },
            { group: ['**/electron/**'], message: 'The renderer reaches the core only through its CoreClient.' },
          ],
        },
      ],
    },
  },
);
