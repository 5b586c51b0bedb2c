import { createMockParts, type OrderMock } from './mock-parts.js';
import type { MockRequest } from '../base/mock-request.js';
import { networkError } from '../base/reply.js';
import type { StoredOrder } from '../store/order-store.js';
import type { OrderStatus } from '../../core/provider-state.js';
import { authorizationHeader, developmentApiKey, type KeyChoice } from '../../core/authorization.js';
import { majorOf, matchRoute } from '../../core/routes.js';
import { MockUsageError } from '../base/errors.js';
import { judgeWithModel } from '../pact/interaction-judge.js';
import type { ModelAnswer } from '../../core/compare.js';

const utf8 = new TextDecoder();

// The methods Fetch writes in capitals whatever their case; it refuses CONNECT, TRACE and TRACK.
const normalizedMethods = new Set(['DELETE', 'GET', 'HEAD', 'OPTIONS', 'POST', 'PUT']);
const noBody = () => Promise.resolve('');

// The model's call as Fetch would make it (its method, URL and headers normalized the same way), without
// a Fetch `Request`, which cost more than the mock's whole answer; any other method takes Fetch's way.
function modelRequest(method: string, url: string, headers: Record<string, string>): MockRequest {
  const upper = method.toUpperCase();
  if (!normalizedMethods.has(upper)) return new Request(url, { method, headers });
  const parsed = new URL(url);
  return { method: upper, url: parsed.href, pathname: parsed.pathname, headers: new Headers(headers), text: noBody };
}

/**
 * The model of the interface a provider is compared with: the kit's own mock, in-process, seeded with
 * the same provider state. It answers the same calls with the same key choices, and shows its store
 * (every order with its status) after each call.
 * @example
 * const model = await InterfaceModel.seeded([{ id: 1, status: 'shipped' }]);
 * (await model.call('DELETE', '/store/orders/1', 'valid'))?.status // 409
 */
export class InterfaceModel {
  readonly #mock: OrderMock;

  private constructor(mock: OrderMock) {
    this.#mock = mock;
  }

  /** A model whose store holds exactly these orders (the provider state's `params.orders`). */
  static async seeded(orders: readonly unknown[]): Promise<InterfaceModel> {
    // The model's own pact is never asked for; were it, the model would judge it as the kit does.
    // The orders are checked as the mock is made (an invalid seed rejects here); nothing is read back.
    const mock = createMockParts({ seed: orders, apiKeys: [developmentApiKey], control: false }, (interaction) =>
      judgeWithModel(interaction, (state) => InterfaceModel.seeded(state)),
    );
    return new InterfaceModel(mock);
  }

  /**
   * The model's answer to a call of an operation, or undefined for a path that is none: a path below
   * its major's base path where `base` is given (a scenario step's), else below v1's base path or with
   * another major's base (`/v2/store/orders?limit=2`, a pact's path).
   */
  async call(
    method: string,
    path: string,
    key: KeyChoice | undefined,
    base?: string,
  ): Promise<ModelAnswer | undefined> {
    // A path may carry its query (`/store/orders/3?fields=id`): the route is the path's, the mock reads the query.
    const pathname = path.split('?', 1)[0]!;
    const major = base === undefined ? majorOf(pathname) : { base, path: pathname };
    const match = matchRoute(method, major.path, major.base);
    if (match === undefined) return undefined;
    const headers = authorizationHeader(key, developmentApiKey) as Record<string, string>;
    // A path given with its base is below it; else v1's paths are written below its base, another major's with it.
    const url = `http://model.invalid${base ?? (major.base === '/v1' ? '/v1' : '')}${path}`;
    const reply = await this.#mock.handle(modelRequest(method, url, headers));
    if (reply === undefined || reply === networkError)
      throw new MockUsageError(
        'model_without_faults',
        'the model answers every call of an operation, and has no faults to drop a connection',
      );
    const body =
      typeof reply.body === 'string' || reply.body === null
        ? reply.body
        : reply.body.map((part) => utf8.decode(part, { stream: true })).join('') + utf8.decode();
    return { operation: match.route.operation, status: reply.status, headers: reply.headers, body };
  }

  /** Every order of the model's store, with its status. */
  orders(): Promise<StoredOrder[]> {
    return this.#mock.orders();
  }

  /**
   * Sets an order's status in the model's store: what a recording learns of an order, from a later
   * answer, that no earlier call depended on.
   * @example
   * await model.setStatus(3n, 'shipped');
   */
  async setStatus(id: bigint, status: OrderStatus): Promise<void> {
    const orders = await this.#mock.collection();
    await orders.update((query) => query.where({ id }), {
      data(order) {
        order.status = status;
      },
    });
  }
}
