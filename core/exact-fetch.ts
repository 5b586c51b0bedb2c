import { schemas } from '../spec/generated/contract.js';
import { parseJson, type JsonValue } from './parse-json.js';
import { documentedResponse, pathSegments, routes, templateSegments, matchSegments, type Route } from './routes.js';

/** A JSON schema of the contract, as the route table holds it (no prose). */
type ContractSchema = {
  $ref?: string;
  type?: string;
  format?: string;
  items?: ContractSchema;
  properties?: Record<string, ContractSchema>;
};

function resolved(schema: ContractSchema): ContractSchema {
  if (schema.$ref === undefined) return schema;
  const name = schema.$ref.replace('#/components/schemas/', '') as keyof typeof schemas;
  return schemas[name] as ContractSchema;
}

/**
 * Makes every integer the schema calls an int64 a `bigint`, whatever its size (so an id is always a
 * `bigint`, never a number for small ids and a `bigint` for large ones). Arrays and objects are
 * changed in place (a parsed value is the caller's own); the value is returned.
 * @example
 * int64AsBigint([{ id: 1, quantity: 2 }], { type: 'array', items: { $ref: '#/components/schemas/Order' } }) // [{ id: 1n, quantity: 2 }]
 */
export function int64AsBigint(value: JsonValue, schema: ContractSchema): JsonValue {
  const plan = int64Plan(schema);
  return plan === null ? value : withBigints(value, plan);
}

/** Where a schema's int64s are: the value itself, an array's items, or some of an object's fields. */
type Int64Plan = 'int64' | { items: Int64Plan | null } | { fields: [string, Int64Plan][] };

// Made once a schema: a list of 10,000 orders then costs a lookup of two fields an order, not a walk of the schema.
const int64Plans = new WeakMap<ContractSchema, Int64Plan | null>();

function int64Plan(schema: ContractSchema): Int64Plan | null {
  const shape = resolved(schema);
  if (int64Plans.has(shape)) return int64Plans.get(shape)!;
  if (shape.format === 'int64') {
    int64Plans.set(shape, 'int64');
    return 'int64';
  }
  if (shape.items !== undefined) {
    // Stored before its parts are made, so a schema that holds itself ends.
    const plan: { items: Int64Plan | null } = { items: null };
    int64Plans.set(shape, plan);
    plan.items = int64Plan(shape.items);
    return plan;
  }
  if (shape.properties !== undefined) {
    const plan: { fields: [string, Int64Plan][] } = { fields: [] };
    int64Plans.set(shape, plan);
    for (const [name, property] of Object.entries(shape.properties)) {
      const field = int64Plan(property);
      if (field !== null) plan.fields.push([name, field]);
    }
    return plan;
  }
  int64Plans.set(shape, null);
  return null;
}

function withBigints(value: JsonValue, plan: Int64Plan): JsonValue {
  // A safe integer only: anything else (1.5, 1e20, a rounded 9.007199254740993e15) is left as it came.
  if (plan === 'int64') return Number.isSafeInteger(value) ? BigInt(value as number) : value;
  if ('items' in plan) {
    if (Array.isArray(value) && plan.items !== null)
      for (let index = 0; index < value.length; index++) value[index] = withBigints(value[index]!, plan.items);
  } else if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    for (const [name, field] of plan.fields)
      if (Object.hasOwn(value, name)) value[name] = withBigints(value[name]!, field);
  }
  return value;
}

/** The operation a request is for, found by the end of its path (the base URL is the caller's). */
function routeOfRequest(method: string, url: string): Route | undefined {
  const segments = pathSegments(new URL(url).pathname);
  return routes.find((route) => {
    const template = templateSegments(route.path);
    return route.method === method && matchSegments(template, segments.slice(-template.length)) !== undefined;
  });
}

const nullBodyStatuses = new Set([101, 103, 204, 205, 304]);

/** A `Response` whose `json()` reads the contract's int64 fields exactly, as `bigint`s. */
class ExactJsonResponse extends Response {
  readonly #body: Uint8Array<ArrayBuffer>;
  readonly #source: Response;
  readonly #schema: ContractSchema | null;

  constructor(body: Uint8Array<ArrayBuffer>, source: Response, schema: ContractSchema | null) {
    const headers = new Headers(source.headers);
    // Its length, so that a client that reads JSON by `json()` only when it is given (openapi-fetch) does;
    // the body is decoded already.
    headers.set('content-length', String(body.byteLength));
    headers.delete('content-encoding');
    super(body, { status: source.status, statusText: source.statusText, headers });
    this.#body = body;
    this.#source = source;
    this.#schema = schema;
    // What a constructed Response cannot be given: where it came from.
    Object.defineProperties(this, {
      url: { value: source.url },
      redirected: { value: source.redirected },
      type: { value: source.type },
    });
  }

  override async json(): Promise<JsonValue> {
    const value = parseJson(await this.text());
    return this.#schema === null ? value : int64AsBigint(value, this.#schema);
  }

  /** A copy that reads exactly too. */
  override clone(): ExactJsonResponse {
    return new ExactJsonResponse(this.#body.slice(), this.#source, this.#schema);
  }
}

/** Whether a response's body is JSON (`application/json`, or a `+json` type): the only bodies read ahead. */
function isJson(response: Response): boolean {
  const type = response.headers.get('content-type')?.split(';')[0]?.trim().toLowerCase() ?? '';
  return type === 'application/json' || type.endsWith('+json');
}

/**
 * A `fetch` for typed clients (openapi-fetch's `createClient({ fetch })`) whose responses' `json()`
 * reads the order interface's int64 fields (order `id`, `petId`) exactly, as `bigint`s, by the schema
 * the contract documents for that operation and status; every other JSON integer is read exactly too
 * (a `bigint` beyond 2^53). A request is sent as it is: a `bigint` path parameter is written in full.
 * Browser-safe: no Node API.
 * @example
 * import createClient from 'openapi-fetch';
 * import { exactFetch } from 'petstore-contract-kit/json';
 * import type { paths } from 'petstore-contract-kit/openapi';
 *
 * const client = createClient<paths>({ baseUrl: 'http://127.0.0.1:4010/v1', fetch: exactFetch });
 * const { data } = await client.GET('/store/orders', { headers: { authorization: 'Bearer petstore-dev-key' } });
 * data?.[0]?.id // 9007199254740993n
 */
export async function exactFetch(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
  const request = new Request(input, init);
  const response = await fetch(request);
  // Passed as it is: a status that never has a body, an opaque response (status 0), a HEAD, and a body
  // that is not JSON (a stream stays a stream). No body at all (a 409 without one) is said to be 0 bytes.
  if (response.status === 0 || nullBodyStatuses.has(response.status) || request.method === 'HEAD') return response;
  if (response.body === null) return new ExactJsonResponse(new Uint8Array(0), response, null);
  if (!isJson(response)) return response;
  const route = routeOfRequest(request.method, request.url);
  const schema = route === undefined ? null : (documentedResponse(route, response.status)?.schema ?? null);
  const body = new Uint8Array(await response.arrayBuffer());
  return new ExactJsonResponse(body, response, schema as ContractSchema | null);
}
