import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

const ELECTRON = 'Only src/main/index.ts, src/main/electron/ and the preload use Electron APIs.';

/** no-restricted-imports for one layer: which of Electron, the engine and the renderer it may not import. */
function restrictImports(files, ignores, forbidden) {
  const patterns = [];
  if (forbidden.electron) patterns.push({ group: ['electron/*'], message: ELECTRON });
  if (forbidden.main) patterns.push({ regex: '(^|/)main(/|$)', message: 'Only the engine imports the engine; share through src/shared.' });
  if (forbidden.renderer) patterns.push({ regex: '(^|/)renderer(/|$)', message: 'Only the renderer imports the renderer; share through src/shared.' });
  const paths = forbidden.electron ? [{ name: 'electron', message: ELECTRON }] : [];
  return { files, ignores, rules: { 'no-restricted-imports': ['error', { paths, patterns }] } };
}

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
  // The layers: the engine (src/main) is plain Node and never imports the UI; the renderer
  // talks only to the contract (src/shared); only the Electron entry and adapter, and the
  // preload, use Electron.
  restrictImports(['src/main/**/*.ts'], ['src/main/index.ts', 'src/main/electron/**'], { electron: true, renderer: true }),
  restrictImports(['src/main/index.ts', 'src/main/electron/**/*.ts'], [], { renderer: true }),
  restrictImports(['src/renderer/**/*.{ts,tsx}'], [], { electron: true, main: true }),
  restrictImports(['src/shared/**/*.ts'], [], { electron: true, main: true, renderer: true }),
  restrictImports(['src/preload/**/*.ts'], [], { main: true, renderer: true }),
  {
    files: ['bin/**/*.js', 'e2e/**/*.{js,ts}', 'bench/**/*.{js,ts}', 'test/**/*.mjs', '*.config.{js,ts}'],
    languageOptions: { globals: { ...globals.node } },
  },
  {
    // Bench code that runs inside the page under test.
    files: ['bench/page/**/*.js', 'bench/lib/**/*.js', 'bench/suites/**/*.js'],
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
  },
);
