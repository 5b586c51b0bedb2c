import { schemas, v2Schemas } from '../spec/generated/contract.js';
import { parseJson, type JsonValue } from './parse-json.js';
import {
  documentedResponse,
  majorRoutes,
  pathSegments,
  templateSegments,
  matchSegments,
  type Route,
} from './routes.js';

type ContractSchema = {
  $ref?: string;
  type?: string;
  format?: string;
  items?: ContractSchema;
  properties?: Record<string, ContractSchema>;
  allOf?: readonly ContractSchema[];
};

// v2's document holds v1's records it refers to under the same names, so one lookup serves both majors.
function dereferenced(schema: ContractSchema): ContractSchema {
  if (schema.$ref === undefined) return schema;
  const name = schema.$ref.replace('#/components/schemas/', '');
  return ((schemas as Record<string, unknown>)[name] ?? (v2Schemas as Record<string, unknown>)[name]) as ContractSchema;
}

/**
 * Makes every integer the schema calls an int64 a `bigint`, whatever its size, so that an id always
 * has one type. Arrays and objects are changed in place.
 * @example
 * int64AsBigint([{ id: 1, quantity: 2 }], { type: 'array', items: { $ref: '#/components/schemas/Order' } }) // [{ id: 1n, quantity: 2 }]
 */
export function int64AsBigint(value: JsonValue, schema: ContractSchema): JsonValue {
  const plan = int64Plan(schema);
  return plan === null ? value : int64sAsBigints(value, plan);
}

type Int64Plan = 'int64' | { items: Int64Plan | null } | { fields: [string, Int64Plan][] };

// One plan per schema, so that a long list does not walk the schema once per item.
const int64Plans = new WeakMap<ContractSchema, Int64Plan | null>();

function int64Plan(schema: ContractSchema): Int64Plan | null {
  const shape = dereferenced(schema);
  if (int64Plans.has(shape)) return int64Plans.get(shape)!;
  if (shape.format === 'int64') {
    int64Plans.set(shape, 'int64');
    return 'int64';
  }
  if (shape.items !== undefined) {
    // Stored before its parts, so that a recursive schema ends.
    const plan: { items: Int64Plan | null } = { items: null };
    int64Plans.set(shape, plan);
    plan.items = int64Plan(shape.items);
    return plan;
  }
  if (shape.properties !== undefined || shape.allOf !== undefined) {
    const plan: { fields: [string, Int64Plan][] } = { fields: [] };
    int64Plans.set(shape, plan);
    for (const [name, property] of Object.entries(shape.properties ?? {})) {
      const field = int64Plan(property);
      if (field !== null) plan.fields.push([name, field]);
    }
    // An allOf's parts are fields of one object (v2's OrderWithStatus: v1's Order and its status).
    for (const part of shape.allOf ?? []) {
      const partPlan = int64Plan(part);
      if (partPlan !== null && typeof partPlan === 'object' && 'fields' in partPlan)
        plan.fields.push(...partPlan.fields);
    }
    return plan;
  }
  int64Plans.set(shape, null);
  return null;
}

function int64sAsBigints(value: JsonValue, plan: Int64Plan): JsonValue {
  // Anything but a safe integer (1.5, 1e20, a rounded number) is left as it came.
  if (plan === 'int64') return Number.isSafeInteger(value) ? BigInt(value as number) : value;
  if ('items' in plan) {
    if (Array.isArray(value) && plan.items !== null)
      for (let index = 0; index < value.length; index++) value[index] = int64sAsBigints(value[index]!, plan.items);
  } else if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    for (const [name, field] of plan.fields)
      if (Object.hasOwn(value, name)) value[name] = int64sAsBigints(value[name]!, field);
  }
  return value;
}

// By the end of the path: the base URL is the caller's. A path whose segment before the operation's is
// `v2` is v2's (its list answers a page, not v1's array); any other, v1's.
function routeOfRequest(method: string, url: string): Route | undefined {
  const segments = pathSegments(new URL(url).pathname);
  return majorRoutes.find((route) => {
    const template = templateSegments(route.path);
    if (route.method !== method || matchSegments(template, segments.slice(-template.length)) === undefined)
      return false;
    const before = segments[segments.length - template.length - 1];
    return route.base === '/v1' ? before !== 'v2' : `/${before}` === route.base;
  });
}

const nullBodyStatuses = new Set([101, 103, 204, 205, 304]);

class ExactJsonResponse extends Response {
  readonly #body: Uint8Array<ArrayBuffer>;
  readonly #source: Response;
  readonly #schema: ContractSchema | null;

  constructor(body: Uint8Array<ArrayBuffer>, source: Response, schema: ContractSchema | null) {
    const headers = new Headers(source.headers);
    // openapi-fetch calls `json()` only when a length is given; the body is decoded already.
    headers.set('content-length', String(body.byteLength));
    headers.delete('content-encoding');
    super(body, { status: source.status, statusText: source.statusText, headers });
    this.#body = body;
    this.#source = source;
    this.#schema = schema;
    // A constructed Response cannot be given these.
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

  override clone(): ExactJsonResponse {
    return new ExactJsonResponse(this.#body.slice(), this.#source, this.#schema);
  }
}

function isJson(response: Response): boolean {
  const type = response.headers.get('content-type')?.split(';')[0]?.trim().toLowerCase() ?? '';
  return type === 'application/json' || type.endsWith('+json');
}

/**
 * A `fetch` for typed clients (openapi-fetch) whose responses' `json()` reads every int64 field the
 * contract documents as a `bigint`, and any other integer beyond 2^53 too. Browser-safe.
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
  // Passed through: responses that never have a body, and bodies that are not JSON (a stream stays a stream).
  if (response.status === 0 || nullBodyStatuses.has(response.status) || request.method === 'HEAD') return response;
  if (response.body === null) return new ExactJsonResponse(new Uint8Array(0), response, null);
  if (!isJson(response)) return response;
  const route = routeOfRequest(request.method, request.url);
  const schema = route === undefined ? null : (documentedResponse(route, response.status)?.schema ?? null);
  const body = new Uint8Array(await response.arrayBuffer());
  return new ExactJsonResponse(body, response, schema as ContractSchema | null);
}
