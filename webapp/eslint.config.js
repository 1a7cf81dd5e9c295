import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import reactRefresh from 'eslint-plugin-react-refresh';
import globals from 'globals';
import { defineConfig } from 'eslint/config';
import tseslint from 'typescript-eslint';

// Layers (inner may not import outer): core → api → components → views → router → app.
// core is framework-free: no React, no UI libraries, no data fetching.
// Each folder under src/views is a feature that imports no other feature; what two features share
// lives in components (or core). Code outside the current folder is imported as `@/…`, never `../`.
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
const features = readdirSync(new URL('./src/views/', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

const noClimbing = { regex: '^\\.\\./', message: 'Import code outside this folder through the @/ alias (`@/core/…`), not by climbing with ../.' };

/** One no-restricted-imports setting per folder (a later setting of the rule replaces an earlier one). */
function restrict(files, ...patterns) {
  return { files, rules: { 'no-restricted-imports': ['error', { patterns: [noClimbing, ...patterns] }] } };
}

function layerRules() {
  return [
    restrict(['src/**/*.{ts,tsx}']),
    restrict(
      ['src/core/**/*.{ts,tsx}'],
      { group: frameworkModules, message: 'src/core is framework-free TypeScript: no React, UI or data-fetching libraries.' },
      {
        group: [...uiLayers, '**/api', '**/api/**', '**/i18n', '**/i18n/**'],
        message: 'src/core is the innermost layer and may not import from api, i18n, components, views or router.',
      },
    ),
    restrict(['src/api/**/*.{ts,tsx}'], { group: [...uiLayers, '@mantine/*', '@tabler/*'], message: 'src/api holds server access only and may not import UI layers.' }),
    restrict(['src/components/**/*.{ts,tsx}'], {
      regex: '^@/(views|router|app)(/|$)',
      message: 'src/components holds pieces the features share and may not import views, router or app.',
    }),
    restrict(['src/views/*.{ts,tsx}'], { regex: '^@/(router|app)(/|$)', message: 'Screens may not import the router or the app.' }),
    ...features.map((feature) =>
      restrict(
        [`src/views/${feature}/**/*.{ts,tsx}`],
        { regex: `^@/views/(?!${feature}(/|$))`, message: `Feature folders do not import each other: move what views/${feature} shares to components or core.` },
        { regex: '^@/(router|app)(/|$)', message: 'Screens may not import the router or the app.' },
      ),
    ),
    restrict(['src/router/**/*.{ts,tsx}'], { regex: '^@/app(/|$)', message: 'src/router may not import app (app builds the router).' }),
  ];
}

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
  ...layerRules(),
  {
    files: ['*.{js,ts}'],
    languageOptions: { globals: globals.node },
  },
);
