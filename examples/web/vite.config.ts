import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

// The app imports the kit by its package name, as your app would; here the names point at the kit's
// TypeScript sources, so `npm run example` needs no build first.
export default defineConfig({
  root: here('.'),
  resolve: {
    alias: {
      'petstore-contract-kit/browser': here('../../mocks/adapters/browser.ts'),
      'petstore-contract-kit/client': here('../../contracts/client.ts'),
    },
  },
  server: { host: '127.0.0.1', port: 5173 },
  preview: { host: '127.0.0.1', port: 4173 },
  // The mock (Ajv, MSW, the spec) makes one chunk of about 700 kB: a development tool, not shipped to your users.
  build: { target: 'es2022', outDir: here('../../dist/examples/web'), emptyOutDir: true, chunkSizeWarningLimit: 1500 },
});
