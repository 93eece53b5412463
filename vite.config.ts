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
  },
});
