import { access } from 'node:fs/promises';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { RequestHandler } from 'msw';
import type { OrderMock } from '../mocks/adapters/order-mock.js';
import { UsageError } from './shared.js';

/** What a handlers file exports by default: handlers, or a function of the mock that returns them. */
export type HandlersExport = readonly RequestHandler[] | ((mock: OrderMock) => readonly RequestHandler[]);

// An MSW handler of any copy of msw (the file's own msw, not necessarily the kit's): it can be run.
function isHandler(value: unknown): boolean {
  return typeof value === 'object' && value !== null && typeof (value as { run?: unknown }).run === 'function';
}

function checkedHandlers(value: unknown, file: string, what: string): readonly RequestHandler[] {
  if (!Array.isArray(value))
    throw new UsageError(`--handlers ${file}: ${what} must be an array of MSW handlers, got ${describe(value)}`);
  const index = value.findIndex((handler) => !isHandler(handler));
  if (index !== -1)
    throw new UsageError(
      `--handlers ${file}: ${what}[${index}] is not an MSW handler (made with msw's http or graphql), got ${describe(value[index])}`,
    );
  return value as RequestHandler[];
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : typeof value;
}

/**
 * Loads the user's MSW handlers for `petstore-mock --handlers FILE`: an ES module or CommonJS file
 * whose default export is an array of handlers, or a function `(mock) => handlers` (called once the
 * mock exists, so its handlers may use `await mock.collection()`). What it returns is checked too.
 * @throws UsageError one line naming the file and what is wrong: missing, not loadable, or another export.
 * @example
 * // handlers.mjs: export default [http.get('*\/v1/store/inventory', () => HttpResponse.json({ dogs: 3 }))];
 * const handlers = await loadHandlersFile('handlers.mjs');
 * createServer({ handlers });
 */
export async function loadHandlersFile(file: string): Promise<HandlersExport> {
  const path = resolve(file);
  try {
    await access(path);
  } catch {
    throw new UsageError(`--handlers ${file}: no such file`);
  }
  let loaded: { default?: unknown };
  try {
    loaded = (await import(pathToFileURL(path).href)) as { default?: unknown };
  } catch (error) {
    throw new UsageError(
      `--handlers ${file}: cannot load it: ${String((error as Error).message ?? error).split('\n')[0]}`,
    );
  }
  const exported = loaded.default;
  if (typeof exported === 'function') {
    return (mock: OrderMock) => {
      let returned: unknown;
      try {
        returned = (exported as (mock: OrderMock) => unknown)(mock);
      } catch (error) {
        throw new UsageError(
          `--handlers ${file}: its default export threw: ${String((error as Error).message ?? error).split('\n')[0]}`,
        );
      }
      return checkedHandlers(returned, file, 'what its default export returns');
    };
  }
  if (exported === undefined)
    throw new UsageError(
      `--handlers ${file}: it has no default export (export default [handlers], or module.exports = [handlers])`,
    );
  return checkedHandlers(exported, file, 'its default export');
}
