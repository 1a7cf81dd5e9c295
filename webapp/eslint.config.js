import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import reactRefresh from 'eslint-plugin-react-refresh';
import globals from 'globals';
import { defineConfig } from 'eslint/config';
import tseslint from 'typescript-eslint';

// Layers (inner may not import outer): core → api → components/views/router/app.
// core is framework-free: no React, no UI libraries, no data fetching.
const frameworkModules = [
  'react',
  'react/*',
  'react-dom',
  'react-dom/*',
  'react-router',
  'react-router/*',
  'react-i18next',
  'swr',
  'swr/*',
  '@mantine/*',
  '@tabler/*',
];
const uiLayers = ['**/components', '**/components/**', '**/views', '**/views/**', '**/router', '**/router/**', '**/app', '**/app/**'];

export default defineConfig(
  { ignores: ['dist', 'node_modules', 'coverage'] },
  {
    files: ['**/*.{ts,tsx}'],
    extends: [js.configs.recommended, ...tseslint.configs.strict],
    languageOptions: {
      ecmaVersion: 2023,
      globals: globals.browser,
    },
    plugins: {
      'react-hooks': reactHooks,
      'react-refresh': reactRefresh,
    },
    rules: {
      ...reactHooks.configs.flat['recommended-latest'].rules,
      'react-refresh/only-export-components': ['warn', { allowConstantExport: true }],
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': ['error', { allow: ['warn', 'error'] }],
    },
  },
  {
    files: ['src/core/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: frameworkModules,
              message: 'src/core is framework-free TypeScript: no React, UI or data-fetching libraries.',
            },
            {
              group: [...uiLayers, '**/api', '**/api/**', '**/i18n', '**/i18n/**'],
              message: 'src/core is the innermost layer and may not import from api, i18n, components, views or router.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/api/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: [...uiLayers, '@mantine/*', '@tabler/*'],
              message: 'src/api holds server access only and may not import UI layers.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['*.{js,ts}'],
    languageOptions: { globals: globals.node },
  },
);
