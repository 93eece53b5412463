import js from '@eslint/js';
import globals from 'globals';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';

// the house's direction (DESIGN.md): contract imports only zod; db may use contract and shared;
// server may use db, contract and shared; web may use contract only; feature folders of the web
// app do not import each other (shared things live in components/ or lib/)
const FEATURES = ['audit', 'auth', 'bookings', 'charities', 'developer', 'discounts', 'errors', 'invoices', 'overview', 'trips', 'users'];

export default tseslint.config(
  { ignores: ['dist', 'node_modules', 'data', 'scratch', 'test-results', 'playwright-report', 'src/db/migrations'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-definitions': ['error', 'type'],
      '@typescript-eslint/no-non-null-assertion': 'off',
    },
  },
  {
    files: ['**/*.{ts,tsx,js,mjs}'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.tsx', '.js', '.mjs'] })],
      'import-x/extensions': ['.ts', '.tsx', '.js', '.mjs'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
    },
    rules: {
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            { target: './src/contract', from: ['./src/db', './src/server', './src/web', './src/shared'], message: 'contract/ imports only zod.' },
            { target: './src/shared', from: ['./src/db', './src/server', './src/web'], message: 'shared/ is used by db/ and server/; it imports neither.' },
            { target: './src/db', from: ['./src/server', './src/web'], message: 'db/ must not import server/ or web/: move what both need to shared/.' },
            { target: './src/server', from: ['./src/web'], message: 'server/ must not import web/.' },
            { target: './src/web', from: ['./src/server', './src/db', './src/shared'], message: 'web/ imports contract/ only.' },
            ...FEATURES.map((f) => ({
              target: `./src/web/features/${f}`,
              from: './src/web/features',
              except: [`./${f}`],
              message: 'Feature folders do not import each other: move the shared piece to components/ or lib/.',
            })),
          ],
        },
      ],
    },
  },
  {
    files: ['src/web/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'no-restricted-imports': ['error', { patterns: ['**/server/**', '**/db/**'] }],
    },
  },
  {
    files: ['src/contract/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: ['**/server/**', '**/db/**', '**/web/**'] }] },
  },
  {
    // module augmentation needs interfaces
    files: ['src/server/plugins/auth.ts', 'src/server/plugins/web.ts'],
    rules: { '@typescript-eslint/consistent-type-definitions': 'off' },
  },
);
