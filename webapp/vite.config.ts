import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

// The Go server replaces this placeholder with the configured base path (for example `/` or
// `/flowmill/`) in index.html and every text asset it serves, so one build works under any prefix.
const BASE_PATH_PLACEHOLDER = '/{{BASE_PATH}}/';

const backend = process.env.FLOWMILL_DEV_BACKEND ?? 'http://localhost:5678';

export default defineConfig(({ command }) => ({
  base: command === 'build' ? BASE_PATH_PLACEHOLDER : '/',
  plugins: [react()],
  // `@/x` is `src/x` (also in tsconfig.app.json paths); vitest uses the same resolution.
  resolve: { alias: { '@/': fileURLToPath(new URL('./src/', import.meta.url)) } },
  experimental: {
    // Lazy route chunks load their CSS through Vite's preload helper. Relative URLs there keep the
    // base-path placeholder out of it (the helper would otherwise carry it URL-encoded, which the
    // server's replacement does not see).
    renderBuiltUrl: (_filename: string, { hostType }: { hostType: 'js' | 'css' | 'html' }) => (hostType === 'js' ? { relative: true } : undefined),
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: true,
    rolldownOptions: {
      output: {
        // Vendor code changes far less often than app code; separate chunks stay cached.
        codeSplitting: {
          groups: [
            // swr/infinite stays with the executions dialog, its only user.
            { name: 'react', test: /node_modules[\\/](react|react-dom|scheduler|react-router|swr(?![\\/]dist[\\/]infinite)|i18next|react-i18next)[\\/]/, priority: 20 },
            { name: 'mantine', test: /node_modules[\\/](@mantine|@floating-ui|@tabler)[\\/]/, priority: 10 },
          ],
        },
      },
    },
  },
  server: {
    port: 8080,
    proxy: {
      '/rest': { target: backend, changeOrigin: true, ws: false },
      '^/webhook': { target: backend, changeOrigin: true },
    },
  },
  test: {
    environment: 'jsdom',
    setupFiles: ['./src/test/setup.ts'],
    include: ['src/**/*.test.{ts,tsx}'],
    restoreMocks: true,
    unstubGlobals: true,
  },
}));
