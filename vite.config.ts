import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const page = (file: string) => fileURLToPath(new URL(`./src/web/${file}`, import.meta.url));

export default defineConfig({
  root: 'src/web',
  plugins: [react()],
  build: {
    outDir: '../../dist/web',
    emptyOutDir: true,
    sourcemap: true,
    manifest: true,
    // budget: the first route ships at most 200 KB of gzipped JS (DESIGN.md)
    chunkSizeWarningLimit: 700,
    rolldownOptions: {
      // two entries: the back office, and the traveller's side (pay links), which loads none of its code
      input: { main: page('index.html'), traveller: page('traveller.html') },
      // a contract schema is a value built by zod's calls: one no screen uses is dropped with its
      // zod, so a screen that takes only a constant from a contract module does not load zod
      treeshake: { manualPureFunctions: ['z'] },
      output: {
        codeSplitting: {
          groups: [{ name: 'react', test: /node_modules[\\/](react|react-dom|scheduler)[\\/]/, priority: 10 }],
        },
      },
    },
  },
});
