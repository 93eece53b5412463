import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

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
      output: {
        codeSplitting: {
          groups: [
            // popovers, menus and searchable selects: only the screens that use them pay for them
            { name: 'floating-ui', test: /node_modules[\\/]@floating-ui/ },
          ],
        },
      },
    },
  },
});
