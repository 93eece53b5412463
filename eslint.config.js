import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import globals from 'globals';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

// the house's direction (DESIGN.md): contract imports only zod; shared nothing of ours; db may use
// contract and shared; server may use db, contract and shared; web may use contract only; the
// web app's feature folders do not import each other (shared things live in components/ or lib/).
// Import cycles are found by dpdm in `npm run lint` (docs/decisions/010), and folders of
// src/server that import each other by scripts/check-folders.mjs.
// every folder of src/web/features, as it is on disk: a new feature is covered without editing this
const FEATURES = readdirSync(new URL('./src/web/features', import.meta.url), { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name);
const restrict = (files, patterns, message) => ({
  files,
  rules: { 'no-restricted-imports': ['error', { patterns: [{ group: patterns, message }] }] },
});

export default tseslint.config(
  { ignores: ['dist', 'node_modules', 'data', 'scratch', 'test-results', 'playwright-report', 'src/db/migrations'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' },
      ],
      '@typescript-eslint/consistent-type-definitions': ['error', 'type'],
      '@typescript-eslint/no-non-null-assertion': 'off',
    },
  },
  {
    files: ['src/web/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
    },
  },
  restrict(
    ['src/contract/**/*.ts'],
    ['**/server/**', '**/db/**', '**/web/**', '**/shared/**'],
    'contract/ imports only zod.',
  ),
  restrict(
    ['src/shared/**/*.ts'],
    ['**/server/**', '**/db/**', '**/web/**'],
    'shared/ is used by db/ and server/; it imports neither.',
  ),
  restrict(
    ['src/db/**/*.ts'],
    ['**/server/**', '**/web/**'],
    'db/ must not import server/ or web/: move what both need to shared/.',
  ),
  restrict(['src/server/**/*.ts'], ['**/web/**'], 'server/ must not import web/.'),
  // the server's floors: common/ at the bottom (helpers every domain may use), mail/ above it,
  // then the domains; the process's entry points (app, main, worker, the job registry) on top
  restrict(
    ['src/server/common/**/*.ts'],
    [
      '**/modules/**',
      '**/plugins/**',
      '**/audit/**',
      '**/jobs/**',
      '**/mail/**',
      '**/ops/**',
      '**/app.ts',
      '**/job-registry.ts',
      '**/email-registry.ts',
    ],
    'server/common/ is the bottom floor: it imports no domain, plugin or job.',
  ),
  restrict(
    ['src/server/mail/**/*.ts'],
    [
      '**/modules/**',
      '**/plugins/**',
      '**/jobs/**',
      '**/ops/**',
      '**/app.ts',
      '**/job-registry.ts',
      '**/email-registry.ts',
    ],
    'server/mail/ sends and renders for every domain: it imports none of them.',
  ),
  {
    ...restrict(
      ['src/server/modules/**/*.ts', 'src/server/audit/**/*.ts', 'src/server/plugins/**/*.ts'],
      ['**/app.ts', '**/main.ts', '**/worker.ts', '**/job-registry.ts', '**/email-registry.ts'],
      'a domain exports its jobs from its jobs.ts and its routes from routes.ts: the registry and app.ts import them, never the other way.',
    ),
    ignores: ['**/*.test.ts'],
  },
  {
    // the template editor previews each email through email-registry.ts: it imports no domain
    ...restrict(
      ['src/server/modules/emails/**/*.ts'],
      ['../[a-z]*/**', '**/app.ts', '**/main.ts', '**/worker.ts', '**/job-registry.ts', '**/email-registry.ts'],
      'modules/emails imports no domain: a domain says how its emails are previewed in its emails.ts, gathered by email-registry.ts.',
    ),
    ignores: ['**/*.test.ts'],
  },
  ...FEATURES.map((f) =>
    restrict(
      [`src/web/features/${f}/**/*.{ts,tsx}`],
      [
        '**/server/**',
        '**/db/**',
        '**/shared/**',
        ...FEATURES.filter((o) => o !== f).flatMap((o) => [
          `../${o}/*`,
          `../../${o}/*`,
          `../../../${o}/*`,
          `**/features/${o}/*`,
        ]),
      ],
      'web/ imports contract/ only, and feature folders do not import each other: move the shared piece to components/ or lib/.',
    ),
  ),
  restrict(
    ['src/web/{app,components,lib}/**/*.{ts,tsx}', 'src/web/*.{ts,tsx}'],
    ['**/server/**', '**/db/**', '**/shared/**'],
    'web/ imports contract/ only.',
  ),
  {
    // module augmentation needs interfaces
    files: ['src/server/plugins/auth.ts', 'src/server/plugins/web.ts'],
    rules: { '@typescript-eslint/consistent-type-definitions': 'off' },
  },
);
