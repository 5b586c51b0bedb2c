// Storybook for the example app's orders view (plain HTML stories, Vite), each story on a fresh
// order mock from its scenario, on msw-storybook-addon's one worker.
import { fileURLToPath } from 'node:url';
import type { StorybookConfig } from '@storybook/html-vite';
import { mergeConfig } from 'vite';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

const config: StorybookConfig = {
  framework: '@storybook/html-vite',
  stories: ['../stories/*.stories.ts'],
  // MSW's worker script, served at /mockServiceWorker.js as in the example app.
  staticDirs: ['../../web/public'],
  core: { disableTelemetry: true, disableWhatsNewNotifications: true },
  // The stories import the kit by its package name, as yours would; here the names point at its sources.
  viteFinal: (viteConfig) =>
    mergeConfig(viteConfig, {
      resolve: {
        alias: {
          'petstore-contract-kit/storybook': here('../../../mocks/adapters/storybook.ts'),
          'petstore-contract-kit/client': here('../../../contracts/client.ts'),
        },
      },
      build: { chunkSizeWarningLimit: 2000 },
    }),
};

export default config;
