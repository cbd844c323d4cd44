import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

export default tseslint.config(
  { ignores: ['out/**', 'dist/**', 'node_modules/**', 'test-results/**', '.tmp/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      // Terminal data is full of control characters; regexes over it must name them.
      'no-control-regex': 'off',
    },
  },
  {
    files: ['src/renderer/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: { ...reactHooks.configs.recommended.rules },
  },
  {
    // The engine must stay plain Node: only the Electron entry and adapter may import electron.
    files: ['src/main/**/*.ts'],
    ignores: ['src/main/index.ts', 'src/main/electron/**'],
    rules: { 'no-restricted-imports': ['error', { paths: [{ name: 'electron', message: 'The engine is plain Node; use src/main/electron/ for Electron APIs.' }] }] },
  },
  {
    files: ['bin/**/*.js', 'e2e/**/*.{js,ts}', 'bench/**/*.{js,ts}', '*.config.{js,ts}'],
    languageOptions: { globals: { ...globals.node } },
  },
  {
    // Bench code that runs inside the page under test.
    files: ['bench/page/**/*.js', 'bench/lib/**/*.js', 'bench/suites/**/*.js'],
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
  },
);
