/**
 * The frames a `<!-- block: fragment FRAME -->` of the docs runs in: what each gives the fragment,
 * and the lines put before it. A fragment is type-checked as one module, the frame's lines first,
 * against the installed kit (test/package/package.test.ts, one tsc run for every block).
 */
export interface DocFrame {
  /** What the fragment may use without declaring it, as the docs would say it. */
  provides: string;
  /** The module's lines before the fragment. */
  prelude: string;
}

export const docFrames: Record<string, DocFrame> = {
  'vitest-mock': {
    provides:
      "a vitest test file with the README's mock: setupServer (msw/node), createOrderMock, vitest's it and expect, and const mock = createOrderMock()",
    prelude: `import { setupServer } from 'msw/node';
import { createOrderMock } from 'petstore-contract-kit/msw';
import { expect, it } from 'vitest';
const mock = createOrderMock();
void setupServer;
void it;
`,
  },
  'vite-page': {
    provides: "a page's module bundled by Vite: the DOM, top-level await, and Vite's import.meta.env",
    prelude: `declare global {
  interface ImportMeta {
    readonly env: { readonly DEV: boolean };
  }
}
`,
  },
  'playwright-test': {
    provides: "the body of a Playwright test: Playwright's page and expect",
    prelude: `import { expect, type Page } from '@playwright/test';
declare const page: Page;
`,
  },
};
