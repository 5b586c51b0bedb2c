import { toInt64 } from '../core/int64.js';
import { parseJson, type JsonValue } from '../core/parse-json.js';
import { int64AsBigint } from '../core/exact-fetch.js';
import { majorBase } from '../core/major-base.js';
import { isErrorRecord, orderInt64Fields, type ErrorRecord, type ExactOrder } from '../core/records.js';
import { documentedResponse, majorRoutes, pathOf, routeOf, type OperationName, type Route } from '../core/routes.js';

/** An Order as the client returns it: the spec's Order, with its int64 fields as exact `bigint`s. */
export type ClientOrder = ExactOrder;

/** The deprecated pet read's answer: the pet (its fields are not shown in the specification) and the announced dates. */
export interface PetReading {
  pet: Record<string, unknown>;
  /** The `Deprecation` header (RFC 9745), for example `@1767225600`, or null when absent. */
  deprecation: string | null;
  /** The `Sunset` header (RFC 8594), an HTTP date, or null when absent. */
  sunset: string | null;
}

/**
 * The query parameters of a call, by name: a value is sent as its text, a list as the parameter repeated
 * (OpenAPI's exploded `form`, as the route table holds v2's), an undefined one not at all.
 * @example
 * const query: QueryInput = { status: 'pending', limit: 20 };
 */
export type QueryInput = Readonly<
  Record<string, string | number | bigint | boolean | readonly (string | number | bigint | boolean)[] | undefined>
>;

/** How to reach the order interface. */
export interface OrderClientOptions {
  /** The base URL, ending with /v1 (for example https://staging.example.com/v1); v2's operations are sent below its /v2. */
  baseUrl: string;
  /** The API key, sent as `Authorization: Bearer <key>`; without it, requests go unauthenticated. */
  apiKey?: string;
  /** The fetch to use. Default: the global one (so MSW intercepts it in tests). */
  fetch?: typeof fetch;
}

/** An error status; `record` is the body's Error record, when there is one (a 409 may come without a body). */
export class OrderApiError extends Error {
  override name = 'OrderApiError';

  constructor(
    readonly status: number,
    readonly record: ErrorRecord | undefined,
  ) {
    super(record?.message ?? `The order interface answered ${status}.`);
  }

  /** The Error record's code (`order_not_found`, `missing_api_key`, ...), else one of `contractErrorCodes`. */
  get code(): string {
    return this.record?.code ?? ('unexpected_status' satisfies ContractErrorCode);
  }
}

/** The client's own codes, for an answer without an Error record. @example contractErrorCodes.unexpected_status */
export const contractErrorCodes = {
  unexpected_status: 'an error status whose body is no Error record (a 409 without a body)',
  invalid_order_list: 'a 2xx list whose body is JSON but not an array',
  no_major_base: "a call of another major (v2's list) on a client whose baseUrl does not end with /v1",
} as const;

export type ContractErrorCode = keyof typeof contractErrorCodes;

/**
 * A list answered with success whose body is not an array: a `TypeError` with a code.
 * @example await client.listOrders().catch((error) => error.code) // 'invalid_order_list'
 */
export class OrderListError extends TypeError {
  override name = 'TypeError';

  get code(): ContractErrorCode {
    return 'invalid_order_list';
  }
}

/**
 * A call of another major than v1 on a client whose `baseUrl` does not end with `/v1`, so that the
 * major's base cannot be found beside it (spec gap 57): a `TypeError` with a code, thrown before any request.
 * @example await createOrderClient({ baseUrl: 'https://host/api' }).listOrdersV2().catch((error) => error.code) // 'no_major_base'
 */
export class OrderBaseUrlError extends TypeError {
  override name = 'TypeError';

  get code(): ContractErrorCode {
    return 'no_major_base';
  }
}

/** The methods written for the operations the client shapes its answers for. */
interface ShapedMethods {
  /** `GET /store/orders`: every order. @throws OrderApiError (its error statuses: the document's) */
  listOrders(): Promise<ClientOrder[]>;
  /** `DELETE /store/orders/{orderId}`: cancels a pending order. @throws OrderApiError (its error statuses: the document's) */
  cancelOrder(orderId: bigint | number | string): Promise<void>;
  /**
   * `GET /pets/{petId}`: the pet and its deprecation and sunset dates, as the deployment's `Deprecation`
   * and `Sunset` headers say (`PetReading`); the document gives no date (spec gap 8).
   * @deprecated The document marks the pet read deprecated with a sunset date: after the `Sunset` its
   * answer carries, the operation may be gone.
   * @throws OrderApiError
   */
  readPet(petId: bigint | number | string): Promise<PetReading>;
}

/**
 * The derived methods of the operations the document marks with a stability marker (`x-stability`),
 * declared so that an editor shows the marker with the method; their type is `OperationMethod`'s.
 */
interface MarkedMethods {
  /**
   * `GET /v2/store/orders`: a page of orders (`{ orders, nextCursor }`), filtered by `status`, `limit`
   * and `cursor`; every int64 a `bigint`. @throws OrderApiError (a bad parameter's 400 among them)
   * @beta The document marks it `x-stability: beta`: it may still change, within v2 (spec gap 51).
   * @example
   * const page = await client.listOrdersV2({ status: 'pending', limit: 5 });
   */
  listOrdersV2: OperationMethod;
}

// Only what the document marks takes MarkedMethods' JSDoc: a method it declares for an operation no
// longer marked (or gone) is dropped, and a marked operation it does not declare is derived as any other.
type MarkedOperation = keyof MarkedMethods & Extract<Route, { stability: string }>['operation'];

/**
 * The method of an operation the client has no shaped method for, derived from the route table: its
 * path parameter (if any) and its query (for an operation without a path parameter, the query may come
 * first) in, its success body out (undefined for none), every int64 the document gives the response
 * read as a `bigint`. @throws OrderApiError for an error status (a bad parameter's 400 among them).
 * @example
 * const order = await (client as Record<string, OperationMethod>).getOrder?.(3n);
 * const page = await client.listOrdersV2({ status: 'pending', limit: 5 }); // { orders: [...], nextCursor: '...' }
 */
export type OperationMethod = (
  parameter?: bigint | number | string | QueryInput,
  query?: QueryInput,
) => Promise<JsonValue | undefined>;

/** A query's text, `?` included, or '' for none: each defined value as its text, a list as the name repeated. */
function queryText(query: QueryInput | undefined): string {
  if (query === undefined) return '';
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value === undefined) continue;
    for (const item of Array.isArray(value) ? value : [value]) search.append(name, String(item));
  }
  const text = search.toString();
  return text === '' ? '' : `?${text}`;
}

/**
 * The operations of the order interface, one method per operation of the route table, named after
 * it: shaped ones where written, and a derived `OperationMethod` for every other operation.
 */
export type OrderClient = ShapedMethods &
  Pick<MarkedMethods, MarkedOperation> &
  Record<Exclude<OperationName, keyof ShapedMethods | MarkedOperation>, OperationMethod>;

async function failure(response: Response): Promise<OrderApiError> {
  const text = await response.text();
  let record: ErrorRecord | undefined;
  try {
    const body = text === '' ? undefined : parseJson(text);
    if (isErrorRecord(body)) record = body;
  } catch {
    // not JSON: no record
  }
  return new OrderApiError(response.status, record);
}

function toClientOrder(value: unknown): ClientOrder {
  const order = { ...(value as Record<string, unknown>) };
  for (const field of orderInt64Fields) {
    if (order[field] !== undefined) order[field] = toInt64(order[field]);
  }
  return order as ClientOrder;
}

/**
 * A typed client of the order interface. Ids are read and written exactly over the whole int64
 * range; error statuses reject with an `OrderApiError` carrying the Error record.
 * @example
 * const client = createOrderClient({ baseUrl: 'http://127.0.0.1:4010/v1', apiKey: 'petstore-dev-key' });
 * const orders = await client.listOrders(); // [{ id: 1n, petId: 101n, quantity: 1, ... }]
 * await client.cancelOrder(3n).catch((error) => error instanceof OrderApiError && error.code); // 'order_already_shipped'
 */
export function createOrderClient(options: OrderClientOptions): OrderClient {
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  // A major's base URL is v1's with its last segment that major's (https://x/api/v1 → https://x/api/v2).
  const baseOf = (base: string) => {
    const beside = majorBase(baseUrl, base);
    if (beside === undefined)
      throw new OrderBaseUrlError(
        `the client's baseUrl ${baseUrl} does not end with /v1, so ${base} cannot be found beside it`,
      );
    return beside;
  };
  const send = (operation: OperationName, parameter?: bigint | number | string, query?: QueryInput) => {
    const route = routeOf(operation);
    return (options.fetch ?? fetch)(`${baseOf(route.base)}${pathOf(route, parameter)}${queryText(query)}`, {
      method: route.method,
      headers: {
        accept: 'application/json',
        ...(options.apiKey !== undefined && { authorization: `Bearer ${options.apiKey}` }),
      },
    });
  };
  const derived = (operation: OperationName): OperationMethod => {
    return async (parameter, query) => {
      const pathless = typeof parameter === 'object';
      const response = await send(operation, pathless ? undefined : parameter, pathless ? parameter : query);
      if (!response.ok) throw await failure(response);
      const text = await response.text();
      if (text === '') return undefined;
      const schema = documentedResponse(routeOf(operation), response.status)?.schema ?? null;
      const body = parseJson(text);
      return schema === null ? body : int64AsBigint(body, schema);
    };
  };
  const methods = Object.fromEntries(majorRoutes.map((route) => [route.operation, derived(route.operation)]));
  return {
    ...(methods as Record<OperationName, OperationMethod>),
    async listOrders() {
      const response = await send('listOrders');
      if (!response.ok) throw await failure(response);
      const body = parseJson(await response.text());
      if (!Array.isArray(body)) throw new OrderListError('The order list is not a JSON array.');
      return body.map(toClientOrder);
    },
    async cancelOrder(orderId) {
      const response = await send('cancelOrder', orderId);
      if (!response.ok) throw await failure(response);
      await response.body?.cancel();
    },
    async readPet(petId) {
      const response = await send('readPet', petId);
      if (!response.ok) throw await failure(response);
      const pet = parseJson(await response.text());
      return {
        pet: pet as Record<string, unknown>,
        deprecation: response.headers.get('deprecation'),
        sunset: response.headers.get('sunset'),
      };
    },
  };
}
