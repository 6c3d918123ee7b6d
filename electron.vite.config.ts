import { resolve } from 'node:path';
import { defineConfig } from 'electron-vite';
import react from '@vitejs/plugin-react';

const root = import.meta.dirname;

/**
 * Three bundles, one per environment (ARCHITECTURE §2):
 * - main: the Electron shell plus the daemon it hosts in-process; npm dependencies stay external
 *   (N-API modules such as @photostructure/sqlite load their .node files and cannot be bundled).
 * - preload: CommonJS with everything inlined, because a sandboxed preload cannot `import`
 *   and may `require` only `electron` and a few built-ins.
 * - renderer: the React app, also served to plain browsers by the daemon (`fermix daemon`).
 */
export default defineConfig({
  main: {
    build: {
      outDir: resolve(root, 'out/main'),
      externalizeDeps: true,
      sourcemap: true,
      rolldownOptions: { input: { index: resolve(root, 'main/shell/index.ts') } },
    },
  },
  preload: {
    build: {
      outDir: resolve(root, 'out/preload'),
      externalizeDeps: false,
      rolldownOptions: {
        input: { index: resolve(root, 'preload/index.ts') },
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    root: resolve(root, 'renderer'),
    plugins: [react()],
    build: {
      outDir: resolve(root, 'out/renderer'),
      // Also served to browsers over HTTP by `fermix daemon`, so it is worth shrinking (electron-vite's default is off).
      minify: true,
      sourcemap: true,
      rolldownOptions: { input: { index: resolve(root, 'renderer/index.html') } },
    },
  },
});
