// @ts-check
const js = require('@eslint/js');
const tseslint = require('typescript-eslint');
const reactHooks = require('eslint-plugin-react-hooks');
const importX = require('eslint-plugin-import-x');
const { createTypeScriptImportResolver } = require('eslint-import-resolver-typescript');
const globals = require('globals');

module.exports = tseslint.config(
  {
    ignores: [
      'dist/**',
      'var/**',
      'node_modules/**',
      'test-results/**',
      'playwright-report/**',
      'bench/out/**',
      'server/db/migrations/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks, 'import-x': importX },
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    settings: {
      'import-x/resolver-next': [createTypeScriptImportResolver({ project: './tsconfig.json' })],
    },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      'import-x/no-default-export': 'error',
      // Dependencies run one way: widgets → dashboard → reports → store. The report page gets the views it shows
      // from the app layer (src/app/reportViews.tsx), never by importing them.
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            {
              target: './src/features/reports',
              from: [
                './src/features/dashboard',
                './src/features/explorer',
                './src/features/widgets',
                './src/features/widget-config',
              ],
              message: 'The reports feature is below the features it shows: take their views from ReportViews.',
            },
          ],
        },
      ],
      'import-x/order': [
        'error',
        {
          groups: ['builtin', 'external', 'internal', 'parent', 'sibling', 'index'],
          alphabetize: { order: 'asc', caseInsensitive: true },
          'newlines-between': 'never',
        },
      ],
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' },
      ],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      'no-console': ['error', { allow: ['warn', 'error'] }],
    },
  },
  {
    // Tool configuration files must default-export their configuration.
    files: ['webpack.config.ts', 'playwright.config.ts', 'drizzle.config.ts', '**/*.d.ts'],
    rules: { 'import-x/no-default-export': 'off' },
  },
  {
    files: ['**/*.js'],
    languageOptions: { sourceType: 'commonjs', globals: { ...globals.node } },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    // Command-line scripts, benchmarks and the server entry speak to a terminal.
    files: ['scripts/**', 'bench/**', 'server/main.ts', 'server/**/cli*.ts'],
    rules: { 'no-console': 'off' },
  },
);
