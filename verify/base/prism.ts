import { createRequire } from 'node:module';
import type { HttpMethod, IHttpOperation } from '@stoplight/types';
import { openApiDocument } from '../../core/schema-validator.js';
import type { PrismDiagnostic, PrismOracle } from '../../core/second-oracle.js';
import { requireInstalled } from './optional-dependencies.js';

// Prism ships CommonJS, and its validators and router only under dist/ (not in its index, which
// would also load the mocker and faker: 1.1 s against 0.4 s for these two).
const require = createRequire(import.meta.url);
type ValidatorModule = typeof import('@stoplight/prism-http/dist/validator/index.js');
type RouterModule = { default: typeof import('@stoplight/prism-http/dist/router/index.js').default };

/**
 * Loads Prism (`@stoplight/prism-http` 5.12) and turns the kit's OpenAPI document into its
 * operations. Each call loads a new oracle; to share one, see `prismLoader`.
 * @example
 * const prism = await loadPrismOracle();
 * prism.check('GET', '/store/orders', { status: 200, headers, text: '[{"id":"1"}]' })
 * // [{ area: 'body', path: '/0/id', message: 'Response body property 0.id must be integer', severity: 'error' }]
 */
export function loadPrismOracle(): Promise<PrismOracle> {
  return createPrismOracle();
}

/**
 * A loader of Prism's oracle that loads it on its first call and gives the same one after: what a
 * run passes its suites (`TargetOptions.loadPrism`) so that Prism is loaded once, and only when a
 * suite needs it. A failed load (Prism not installed) is not kept: installing it fixes the next call.
 * @example
 * const loadPrism = prismLoader();
 * (await loadPrism()) === (await loadPrism()) // true
 */
export function prismLoader(): () => Promise<PrismOracle> {
  let loading: Promise<PrismOracle> | undefined;
  return () => {
    loading ??= createPrismOracle();
    loading.catch(() => {
      loading = undefined;
    });
    return loading;
  };
}

// What Prism's own `getHttpOperationsFromSpec` (dist/utils/operations) needs from its dependencies for an
// OpenAPI 3 document, resolved from where Prism is installed, as Prism resolves them.
interface OperationsParts {
  RefParser: new () => { dereference(document: object, options: object): Promise<object> };
  transformOas3Operations: (document: object) => IHttpOperation[];
  decycle: (value: object) => object;
  bundleTarget: (options: { document: object; path: string; cloneDocument: boolean }) => IHttpOperation;
}

function operationsParts(): OperationsParts {
  const fromPrism = createRequire(require.resolve('@stoplight/prism-http/package.json'));
  const { decycle, bundleTarget } = fromPrism('@stoplight/json') as Pick<OperationsParts, 'decycle' | 'bundleTarget'>;
  return {
    RefParser: fromPrism('@stoplight/json-schema-ref-parser') as OperationsParts['RefParser'],
    transformOas3Operations: (
      fromPrism('@stoplight/http-spec/oas3/operation') as Pick<OperationsParts, 'transformOas3Operations'>
    ).transformOas3Operations,
    decycle,
    bundleTarget,
  };
}

/**
 * The kit's document as Prism's operations: what Prism's `getHttpOperationsFromSpec` gives for it (an
 * OpenAPI 3 document with no remote references; test/verify/oracles.test.ts compares the two), without
 * loading its readers of OpenAPI 2 and Postman collections (Postman's alone is about 0.1 s of CPU at every
 * start of a process that loads Prism: each proxy and verification).
 * @example
 * const operations = await prismOperations(structuredClone(openApiDocument));
 * operations.length // one for each (method, path) the document describes
 */
export async function prismOperations(document: object): Promise<IHttpOperation[]> {
  const { RefParser, transformOas3Operations, decycle, bundleTarget } = operationsParts();
  const dereferenced = decycle(await new RefParser().dereference(document, {}));
  return transformOas3Operations(dereferenced).map((operation) =>
    bundleTarget({ document: { ...dereferenced, __target__: operation }, path: '#/__target__', cloneDocument: false }),
  );
}

// The kit's document as Prism's operations, made once a process: every oracle shares them, and so
// shares the validators Prism compiles and caches by schema object (each new set of operations
// would compile them all again). A failed attempt is not kept.
let kitOperations: Promise<IHttpOperation[]> | undefined;

function sharedKitOperations(): Promise<IHttpOperation[]> {
  kitOperations ??= prismOperations(structuredClone(openApiDocument) as object);
  kitOperations.catch(() => {
    kitOperations = undefined;
  });
  return kitOperations;
}

async function createPrismOracle(): Promise<PrismOracle> {
  requireInstalled('prism');
  const { validateOutput } = require('@stoplight/prism-http/dist/validator') as ValidatorModule;
  const route = (require('@stoplight/prism-http/dist/router') as RouterModule).default;
  const operations = await sharedKitOperations();
  return {
    check(method, path, response) {
      const routed = route({
        resources: operations,
        input: { method: method.toLowerCase() as HttpMethod, url: { path: path.split('?')[0]! } },
      });
      if (routed._tag === 'Left') return [];
      const headers = Object.fromEntries(response.headers);
      let body: unknown;
      if (response.text.length > 0) {
        try {
          // Prism's own validator reads numbers as JavaScript numbers: this is how it sees a body.
          body = JSON.parse(response.text);
        } catch {
          body = response.text;
        }
      }
      const result = validateOutput({
        resource: routed.right,
        element: { statusCode: response.status, headers, body },
      });
      if (result._tag === 'Right') return [];
      return result.left.map((diagnostic) => {
        const [first, ...rest] = (diagnostic.path ?? []).map(String);
        const message = diagnostic.message ?? String(diagnostic.code);
        const area: PrismDiagnostic['area'] =
          first === 'body'
            ? 'body'
            : first === 'header' || first === 'headers'
              ? 'headers'
              : /media type/.test(message)
                ? 'content-type'
                : /status code/.test(message)
                  ? 'status'
                  : 'body';
        const where =
          area === 'body' ? (rest.length > 0 ? `/${rest.join('/')}` : '') : area === 'headers' ? (rest[0] ?? '') : area;
        return { area, path: where, message, severity: diagnostic.severity === 0 ? 'error' : 'warning' };
      });
    },
  };
}
