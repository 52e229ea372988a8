import js from '@eslint/js';
import importPlugin from 'eslint-plugin-import';
import tseslint from 'typescript-eslint';

/**
 * The ladder of src/ (ARCHITECTURE.md), lowest first: each layer imports only those below it.
 * openapi/ and store/ stand side by side on vocabulary/ and do not import each other; so do
 * core/ and diff/ above them.
 */
const LADDER = [
  ['vocabulary'],
  // Node's modules as a page gets them, put in their place by scripts/build-browser.mjs only.
  ['browser'],
  ['openapi', 'store'],
  ['core', 'diff'],
  ['http'],
  ['wiring'],
  ['cli'],
];

/** For each layer, the folders it must not import from: every layer above it, and its siblings. */
const ladderZones = LADDER.flatMap((step, index) =>
  step.map((layer) => ({
    target: `./src/${layer}`,
    from: [
      ...LADDER.slice(index + 1).flat(),
      ...step.filter((sibling) => sibling !== layer),
      'index.ts',
    ].map((above) => `./src/${above}`),
    message: `src/${layer} is below that layer: see ARCHITECTURE.md for the ladder.`,
  })),
);

export default tseslint.config(
  { ignores: ['dist/', 'test/generated/', 'inspector/generated/', 'coverage/', 'reports/'] },
  js.configs.recommended,
  ...tseslint.configs.strict,
  {
    rules: {
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': 'error',
      // Express tells error handlers by their four parameters, used or not.
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['src/**/*.ts'],
    plugins: { import: importPlugin },
    settings: {
      ...importPlugin.flatConfigs.typescript.settings,
      'import/resolver': { typescript: true, node: true },
    },
    rules: {
      'import/no-restricted-paths': ['error', { zones: ladderZones }],
      // Import cycles are refused by test/architecture.test.ts, which walks the import graph
      // once: import/no-cycle took 50 of the lint's 59 CPU seconds.
    },
  },
  {
    // The core takes plain requests and gives plain answers: the socket belongs to http/.
    files: ['src/core/**/*.ts', 'src/openapi/**/*.ts', 'src/store/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: ['node:http', 'node:https', 'node:net', 'http', 'net'].map((name) => ({
            name,
            message: 'Only src/http/ speaks HTTP: take plain data (vocabulary/request.ts) instead.',
          })),
        },
      ],
    },
  },
  {
    files: ['test/**', 'contract-tests/**', 'bench/**', 'scripts/**'],
    // A wrong assumption in a test fails that test loudly, which is what a test is for.
    rules: { 'no-console': 'off', '@typescript-eslint/no-non-null-assertion': 'off' },
  },
);
