// Lint rules, including the environment layering of ARCHITECTURE.md §2.
// test/layering.test.ts checks these rules are still switched on, and re-checks every import itself.
import tseslint from 'typescript-eslint';
import { builtinModules } from 'node:module';

const nodeBuiltins = [...builtinModules, ...builtinModules.map((m) => `node:${m}`)];

const electronOnlyInShell = {
  name: 'electron',
  message: 'Only main/shell (and preload) may import electron. Expose what you need from the daemon composition root (main/daemon/compose.ts) and adapt it in main/shell.',
};

const commonRestrictions = {
  paths: [
    ...nodeBuiltins.map((name) => ({
      name,
      message: 'main/api and main/core are environment-neutral (common): no Node built-ins. Put the Node code in a node folder (main/daemon, main/store, …) and pass it in through an interface.',
    })),
    electronOnlyInShell,
  ],
  patterns: [
    {
      regex: '^\\.\\./(agent|tools|sandbox|net|plugins|mcp|browser|computer|store|daemon|cli|config|shell)(/|$)',
      message: 'main/api and main/core must not import node or electron folders. Move the shared type into main/core, or inject the dependency from main/daemon/compose.ts.',
    },
    { regex: '^(react|react-dom)(/|$)', message: 'main/api and main/core are environment-neutral: no React. UI code belongs in renderer/.' },
  ],
};

export default tseslint.config(
  { ignores: ['out/**', 'dist/**', 'node_modules/**', 'bench/results*.json', 'e2e/artifacts/**', '.ci-*', 'coverage/**'] },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'off',
    },
  },
  {
    // The CLI's CommonJS entry (bin/fermix.cjs, a CommonJS file so that Node starts it sooner) requires.
    files: ['**/*.cjs'],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    files: ['main/api/**/*.ts', 'main/core/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: { 'no-restricted-imports': ['error', commonRestrictions] },
  },
  {
    files: ['main/**/*.ts'],
    ignores: ['main/shell/**', 'main/api/**', 'main/core/**'],
    rules: {
      'no-restricted-imports': ['error', {
        paths: [electronOnlyInShell],
        patterns: [{ regex: '(^|/)shell(/|$)', message: 'Node folders never import main/shell: the shell depends on the daemon, not the other way round.' }],
      }],
    },
  },
  {
    files: ['main/agent/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        paths: [electronOnlyInShell],
        patterns: [
          { regex: '(^|/)shell(/|$)', message: 'Node folders never import main/shell.' },
          { regex: '^\\.\\./tools(/|$)', message: 'The agent loop never imports a tool: tools register into the capability registry, and only main/daemon/compose.ts lists them.' },
        ],
      }],
    },
  },
  {
    files: ['renderer/**/*.ts', 'renderer/**/*.tsx'],
    rules: {
      'no-restricted-imports': ['error', {
        paths: [...nodeBuiltins.map((name) => ({ name, message: 'The renderer runs in a browser: no Node built-ins. Ask the daemon through the API client (renderer/src/api).' })), { name: 'electron', message: 'The renderer reaches Electron only through the preload bridge (window.fermix), via renderer/src/api.' }],
        patterns: [{ regex: '(^|/)main/(?!api/|core/errors)', message: 'The renderer imports only main/api (the contract) and main/core/errors. Call the daemon through the API client instead.' }],
      }],
    },
  },
);
