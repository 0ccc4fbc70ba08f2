// ESLint: the recommended JavaScript and TypeScript rules, no import cycles, and the layers of src/
// (docs/architecture.md): a folder imports only folders of the layers below its own.
import js from '@eslint/js';
import { defineConfig } from 'eslint/config';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import tseslint from 'typescript-eslint';

/** The layers of src/, lowest first; a layer's folders may import those of the layers below it. */
const LAYERS = [
  ['src/core'],
  ['src/db'],
  ['src/access', 'src/catalogues', 'src/idempotency', 'src/rate-limit'],
  ['src/http'],
  ['src/accounts'],
  ['src/resources'],
  ['src/calculations'],
  ['src/app'],
  ['src/server.ts'],
];

const layerZones = LAYERS.slice(0, -1).map((layer, index) => ({
  target: layer,
  from: LAYERS.slice(index + 1).flat(),
  message: 'A layer imports only the layers below it (docs/architecture.md).',
}));

/** Stores read and write records; they raise domain errors and know nothing of HTTP. */
const storeZone = {
  target: ['src/**/store.ts', 'src/**/*-store.ts'],
  from: ['src/http/**', 'src/app/**'],
  message: 'A store knows nothing of HTTP: raise a DomainError (docs/architecture.md).',
};

export default defineConfig(
  { ignores: ['node_modules/', 'dist/', 'data/', 'coverage/', 'src/db/migrations/meta/'] },
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    plugins: { 'import-x': importX },
    settings: {
      // Which files import-x reads to follow imports, and with which parser.
      'import-x/extensions': ['.ts', '.tsx', '.js', '.mjs'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
      // Sources import each other as `./x.js`; the file on disk is x.ts or x.tsx.
      'import-x/resolver-next': [
        createNodeResolver({
          extensions: ['.ts', '.tsx', '.js', '.mjs', '.json'],
          extensionAlias: { '.js': ['.ts', '.tsx', '.js'] },
        }),
      ],
    },
    rules: {
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      'import-x/no-restricted-paths': ['error', { zones: [...layerZones, storeZone] }],
      // `const { omitted, ...rest } = record` is how a member is left out of a copy.
      '@typescript-eslint/no-unused-vars': ['error', { ignoreRestSiblings: true }],
      // A server that must listen before the app that answers on it can be built: `let app` is read by a closure first.
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
      // Libraries are used through their public APIs: a member named `_x` is one's private field.
      'no-restricted-syntax': [
        'error',
        {
          selector: 'MemberExpression[property.name=/^_[A-Za-z]/], MemberExpression[property.value=/^_[A-Za-z]/]',
          message: 'A member whose name starts with `_` is private to its library: use a public API instead.',
        },
      ],
    },
  },
  {
    // A value that may be missing is checked, or its type says it is there: no `x!` in the server.
    files: ['src/**'],
    rules: { '@typescript-eslint/no-non-null-assertion': 'error' },
  },
  {
    // Tests and benchmarks read JSON answers loosely; a typed client for every answer would prove nothing more.
    files: ['test/**', 'bench/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
);
