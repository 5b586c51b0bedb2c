// The package root under the browser export condition (mocks/index-browser.ts): the same names as
// in Node, so that a bundle of any import that type-checks resolves; what needs Node says so.
import { describe, expect, it } from 'vitest';

describe('the package root in a browser', () => {
  it('exports the same names as the root in Node', async () => {
    const node = Object.keys(await import('../../../mocks/index.js')).sort();
    const browser = Object.keys(await import('../../../mocks/index-browser.js')).sort();
    expect(browser).toEqual(node);
  });

  it.each([
    [
      'loadScenarios',
      'loadScenarios needs Node.js and is not available in a browser: every scenario the kit ships is bundled',
    ],
    [
      'loadSeedFile',
      'loadSeedFile needs Node.js and is not available in a browser: pass the orders as the seed option.',
    ],
    [
      'createServer',
      'createServer needs Node.js and is not available in a browser: run `npx petstore-mock` beside the page',
    ],
  ])('%s throws what to use instead', async (name, message) => {
    const root = (await import('../../../mocks/index-browser.js')) as unknown as Record<string, () => unknown>;
    expect(() => root[name]!()).toThrow(message);
  });
});
