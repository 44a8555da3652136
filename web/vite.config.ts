import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const apiTarget = `http://127.0.0.1:${process.env.API_PORT ?? 3001}`;

export default defineConfig({
  plugins: [react(), tailwindcss()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // dist/.vite/manifest.json: which chunks and stylesheet each route module needs, for the
    // preload links of the prerendered pages (scripts/prerender.mjs). Not served (a dot folder).
    manifest: true,
    rolldownOptions: {
      output: {
        // Libraries change less often than the app: separate chunks stay cached across deploys.
        codeSplitting: {
          groups: [
            {
              name: 'react',
              test: /node_modules[\\/](react|react-dom|scheduler|react-router)[\\/]/,
            },
            // Only the pages with forms need zod: keep it out of the first load.
            { name: 'zod', test: /node_modules[\\/]zod[\\/]/ },
            // Every icon the app draws, in one chunk: split by route they were ~25 files of a few
            // hundred bytes each, which a room's first load fetched behind HTTP/1.1's six
            // connections (its stream's JSON and the video waited behind them: benchmarks.md).
            { name: 'icons', test: /node_modules[\\/]lucide-react[\\/]/ },
            // No catch-all vendor group: it would put every page's libraries (icons, selects,
            // tabs...) into the first load. Other libraries split by the routes that use them,
            // which keeps /explore's initial JS under its 170 KB gzip budget.
          ],
        },
      },
    },
  },
  server: {
    proxy: {
      '/api': { target: apiTarget },
      '/ws': { target: apiTarget, ws: true },
      // Media publish/play also runs over WebSockets, so upgrades are proxied here too.
      '/media': { target: apiTarget, ws: true },
    },
  },
});
