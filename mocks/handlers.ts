import { http, type RequestHandler } from 'msw';
import { createAuthenticator, developmentApiKey } from './auth.js';
import { applyScenario, changeProviderState, loadScenario, readOrders, replaceOrders, resetOrders, type LoadableScenario } from './control.js';
import { defaultSeed } from './default-seed.js';
import { MockError, errorToResponse, noOperation } from './errors.js';
import { cancelOrder, listOrders, readPet, type OrderInterface } from './operations.js';
import { OrderStore, type StoredOrder } from './order-store.js';

/**
 * The deprecation date the mock announces for `GET /pets/{petId}` unless told otherwise (not shown in the specification).
 * @example
 * createOrderMock({ petDeprecation: defaultPetDeprecation, petSunset: '2028-01-01T00:00:00Z' })
 */
export const defaultPetDeprecation = new Date('2026-01-01T00:00:00Z');
/**
 * The sunset date the mock announces for `GET /pets/{petId}` unless told otherwise (not shown in the specification).
 * @example
 * defaultPetSunset.toUTCString() // 'Wed, 30 Jun 2027 23:59:59 GMT'
 */
export const defaultPetSunset = new Date('2027-06-30T23:59:59Z');

/** How to build an order mock. Every option has a default, so `createOrderMock()` is a working mock. */
export interface OrderMockOptions {
  /**
   * The one base URL to answer, ending with `/v1` (for example `https://staging.example.com/v1`).
   * By default the handlers answer `/v1` on any origin, so production and staging addresses both work.
   */
  baseUrl?: string;
  /** The accepted bearer keys. Default: the development key `petstore-dev-key`. */
  apiKeys?: readonly string[];
  /** The orders to start with and to return to on reset, each with an optional `status`. Default: `defaultSeed`. */
  seed?: readonly unknown[];
  /** The scenarios `POST /__mock/scenarios/{name}` can load (in Node, `loadScenarios()` reads the kit's). Default: none. */
  scenarios?: readonly LoadableScenario[];
  /** Whether to answer the control plane under `/__mock`. Default: true. */
  control?: boolean;
  /** The deprecation date of `GET /pets/{petId}` (RFC 9745). Default: 2026-01-01T00:00:00Z. */
  petDeprecation?: Date | string;
  /** The sunset date of `GET /pets/{petId}` (RFC 8594); not before the deprecation date. Default: 2027-06-30T23:59:59Z. */
  petSunset?: Date | string;
}

/** A stateful mock of the order interface: its MSW handlers and the controls of its store. */
export interface OrderMock {
  /** The MSW request handlers: give them to `setupServer`, `setupWorker` or the kit's HTTP server. */
  handlers: RequestHandler[];
  /** The store behind the handlers. */
  store: OrderStore;
  /** Every order with its status (what `GET /__mock/orders` answers). */
  orders(): StoredOrder[];
  /** Replaces every order, as `PUT /__mock/orders` does; rejects with a `MockError` and changes nothing on bad input. */
  replaceOrders(orders: readonly unknown[]): Promise<void>;
  /** Returns the store to its seed, as `POST /__mock/reset` does. */
  reset(): Promise<void>;
  /**
   * Sets the provider state of one of `options.scenarios`, as `POST /__mock/scenarios/{name}` does;
   * rejects with a `MockError` (`unknown_scenario`) for a name it was not given.
   * @example
   * const mock = createOrderMock({ scenarios: await loadScenarios() });
   * await mock.loadScenario('cancel-shipped-order'); // DELETE /v1/store/orders/3 now answers 409
   */
  loadScenario(name: string): Promise<void>;
}

type Operation = (request: Request, parameter: string) => Promise<Response>;

function toDate(value: Date | string, name: string): Date {
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) throw new TypeError(`${name} is not a date: ${JSON.stringify(String(value))}.`);
  return date;
}

function routeHandler(
  pattern: string,
  operations: Partial<Record<string, Operation>>,
  authenticate?: (request: Request) => MockError | undefined,
): RequestHandler {
  const methods = Object.keys(operations);
  if (operations.GET) methods.push('HEAD');
  const allow = [...methods, 'OPTIONS'].join(', ');
  return http.all(pattern, async ({ request, params }) => {
    try {
      if (request.method === 'OPTIONS') return new Response(null, { status: 204, headers: { allow } });
      const operation = operations[request.method === 'HEAD' ? 'GET' : request.method];
      if (operation === undefined) {
        const failure = authenticate?.(request);
        if (failure) throw failure;
        const { pathname } = new URL(request.url);
        throw new MockError('method_not_allowed', `Method ${request.method} is not allowed on ${pathname}: use ${methods.join(' or ')}.`, {
          headers: { allow },
        });
      }
      // The one named path parameter (`:orderId`, `:petId`); the `*` of the any-origin prefix is params[0].
      const parameter = Object.entries(params).find(([name]) => !/^[0-9]+$/.test(name))?.[1];
      const response = await operation(request, typeof parameter === 'string' ? parameter : '');
      return request.method === 'HEAD' ? new Response(null, { status: response.status, headers: response.headers }) : response;
    } catch (error) {
      return errorToResponse(error);
    }
  });
}

// MSW decodes path parameters with decodeURIComponent, which throws on a path such as /v1/store/orders/%ZZ.
// This handler comes first: for a path of the mock's own that cannot be decoded it answers a 404 Error
// record (after the bearer check, under the API); for anything else it falls through.
function undecodablePathHandler(inNamespace: (url: string) => boolean, authenticate: (request: Request) => MockError | undefined): RequestHandler {
  return http.all(/%/, ({ request }) => {
    const url = request.url.split(/[?#]/)[0]!;
    if (!inNamespace(url)) return undefined;
    try {
      decodeURIComponent(url);
      return undefined;
    } catch {
      const { pathname } = new URL(request.url);
      const failure = pathname.startsWith('/__mock/') ? undefined : authenticate(request);
      if (failure) return failure.toResponse();
      return noOperation(request.method, pathname, 'the path is not valid percent-encoded UTF-8').toResponse();
    }
  });
}

function notFoundHandler(pattern: string, authenticate?: (request: Request) => MockError | undefined): RequestHandler {
  return http.all(pattern, ({ request }) => {
    const failure = authenticate?.(request);
    if (failure) return failure.toResponse();
    const { pathname } = new URL(request.url);
    return noOperation(request.method, pathname).toResponse();
  });
}

/**
 * Creates a stateful mock of the order interface: pending orders cancel with 204, shipped ones
 * refuse with 409, unknown ones give 404, and every call needs a bearer key or gets 401.
 * The handlers are plain MSW handlers; the same array serves `setupServer`, `setupWorker` and the
 * kit's standalone HTTP server.
 * @throws MockError when the seed is invalid; TypeError when a key or a date is.
 * @example
 * import { setupServer } from 'msw/node';
 * import { createOrderMock } from 'petstore-contract-kit/msw';
 *
 * const mock = createOrderMock({ seed: [{ id: 1 }, { id: 2, status: 'shipped' }] });
 * const server = setupServer(...mock.handlers);
 * server.listen();
 * await fetch('https://api.example.com/v1/store/orders/2', {
 *   method: 'DELETE',
 *   headers: { authorization: 'Bearer petstore-dev-key' },
 * }); // 409
 */
export function createOrderMock(options: OrderMockOptions = {}): OrderMock {
  const store = new OrderStore(options.seed ?? defaultSeed);
  const authenticate = createAuthenticator(options.apiKeys ?? [developmentApiKey]);
  const petDeprecation = toDate(options.petDeprecation ?? defaultPetDeprecation, 'petDeprecation');
  const petSunset = toDate(options.petSunset ?? defaultPetSunset, 'petSunset');
  if (petSunset < petDeprecation) throw new TypeError('the pet sunset date must not be earlier than its deprecation date');
  const context: OrderInterface = { store, authenticate, petDeprecation, petSunset };

  const base = options.baseUrl === undefined ? '*/v1' : options.baseUrl.replace(/\/+$/, '');
  const controlBase = options.baseUrl === undefined ? '*/__mock' : `${new URL(base).origin}/__mock`;

  const control = options.control ?? true;
  const inNamespace = (url: string) => {
    const { origin, pathname } = new URL(url);
    if (control && (options.baseUrl === undefined || origin === new URL(base).origin) && pathname.startsWith('/__mock/')) return true;
    return options.baseUrl === undefined ? pathname.startsWith('/v1/') : url.startsWith(`${base}/`);
  };
  const handlers: RequestHandler[] = [
    undecodablePathHandler(inNamespace, authenticate),
    routeHandler(`${base}/store/orders`, { GET: (request) => listOrders(context, request) }, authenticate),
    routeHandler(`${base}/store/orders/:orderId`, { DELETE: (request, orderId) => cancelOrder(context, request, orderId) }, authenticate),
    routeHandler(`${base}/pets/:petId`, { GET: (request, petId) => readPet(context, request, petId) }, authenticate),
    notFoundHandler(`${base}/*`, authenticate),
  ];
  if (control) {
    handlers.push(
      routeHandler(`${controlBase}/orders`, { GET: () => readOrders(store), PUT: (request) => replaceOrders(store, request) }),
      routeHandler(`${controlBase}/reset`, { POST: () => resetOrders(store) }),
      routeHandler(`${controlBase}/provider-state`, { POST: (request) => changeProviderState(store, request) }),
      routeHandler(`${controlBase}/scenarios/:name`, { POST: (_, name) => loadScenario(store, options.scenarios ?? [], name) }),
      notFoundHandler(`${controlBase}/*`),
    );
  }

  return {
    handlers,
    store,
    orders: () => store.all(),
    replaceOrders: (orders) => store.replace(orders),
    reset: () => store.reset(),
    loadScenario: async (name) => {
      await applyScenario(store, options.scenarios ?? [], name);
    },
  };
}
