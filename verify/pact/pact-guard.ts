import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { developmentApiKey, type KeyChoice } from '../../core/authorization.js';
import { parseJson, type JsonValue } from '../../core/parse-json.js';
import { stringifyJson } from '../../core/stringify-json.js';
import type { ErrorRecord } from '../../core/records.js';
import { readBody } from '../../mocks/server/read-body.js';
import type { Finding } from '../../core/checks.js';
import { judgeCall, type ModelSide } from '../../core/judge.js';
import { sendsCursor } from '../../core/page-findings.js';
import {
  documentedResponse,
  majorOf,
  matchRoute,
  mayChangeTheStore,
  pathOf,
  schemaNameOf,
  storeListing,
  type Route,
} from '../../core/routes.js';
import { pactKeyChoice } from '../scenario/key-choice-of.js';
import { hopByHopFields } from '../http/hop-by-hop-fields.js';
import { cancelledOrderId, ProviderHistory } from '../../core/compare.js';
import type { ContractStep } from '../../core/scenario.js';
import { InterfaceModel } from '../../mocks/pipeline/interface-model.js';
import { isFailure, type Observation } from '../../core/observation.js';
import { judged, RunStopped, sendCall, sendToTarget, type TargetOptions } from '../provider/run.js';
import type { CheckedExchange } from '../base/results.js';
import { pactQueryKey } from './pact-query.js';
import { majorBase } from '../../core/major-base.js';

/** The path the guard takes Pact's state changes at, before it forwards them to the provider's state URL. */
export const guardStatePath = '/__petstore-verify/provider-state';

/** One request Pact sent through the guard, with the provider state it was sent in and what the guard found. */
export interface GuardRecord {
  method: string;
  /** The path below v1's base path (`/store/orders`), or with another major's (`/v2/store/orders`), without its query. */
  path: string;
  /** The request's query as `pactQueryKey` writes it (`''` for none). */
  query: string;
  /** The `Authorization` header as Pact sent it (before the key swap). */
  authorization: string | undefined;
  /** The orders of the provider state set before the request (ids exact), as Pact's verifier sent them, if any. */
  state: JsonValue | undefined;
  exchange: CheckedExchange;
}

/** A running guard between Pact's verifier and the provider. */
export interface PactGuard {
  /** The guard's origin: Pact's provider base URL is this, plus the provider's path before /v1. */
  origin: string;
  records: GuardRecord[];
  /**
   * Whether the provider kept Pact's verifier waiting: a request to it (or to its state URL) not yet
   * answered, or one that got no whole answer in time. A verifier the deadline stopped otherwise was
   * stopped by the run's clock (a slow broker, say), not by the provider.
   */
  keptWaiting(): boolean;
  close(): Promise<void>;
}

// What the guard rewrites besides the per-connection fields: the Host, and the framing and encoding
// of the body (it answers with the decoded body it read).
const notForwarded = new Set([...hopByHopFields, 'transfer-encoding', 'host', 'content-length', 'content-encoding']);

function answer(outgoing: ServerResponse, observation: Observation): void {
  if (isFailure(observation)) {
    const record: ErrorRecord = {
      code: 'target_failed',
      message: `petstore-verify could not read the provider's answer: ${observation.failure}`,
      status: 502,
    };
    const body = stringifyJson(record);
    outgoing.writeHead(502, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
    outgoing.end(body);
    return;
  }
  const headers: Record<string, string> = {};
  observation.headers.forEach((value, name) => {
    if (!notForwarded.has(name)) headers[name] = value;
  });
  outgoing.writeHead(observation.status, headers);
  outgoing.end(observation.status === 204 || observation.status === 304 ? undefined : observation.text);
}

const developmentKeyHeader = new RegExp(`^(\\s*bearer\\s+)${developmentApiKey}\\s*$`, 'i');

/** The request's header fields to forward, with the pact's development key swapped for the target's. */
function forwardedHeaders(incoming: IncomingMessage, apiKey: string | undefined): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(incoming.headers)) {
    if (!notForwarded.has(name) && value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  // The scheme as the pact sent it (its case is the provider's to accept); only the token is swapped.
  const development = developmentKeyHeader.exec(incoming.headers.authorization ?? '');
  if (development !== null) headers.authorization = `${development[1]}${apiKey}`;
  return headers;
}

/** What a request that could not be sent says, as a failure: the run stopped, or the target could not be reached. */
interface SendFailure {
  /** Told when the run stopped (its deadline, or a target that stopped answering). */
  onStopped: (reason: string) => void;
  unreachable: (reason: string) => string;
}

/** Sends a request; a run that stopped or a target that cannot be reached becomes a failed observation. */
async function sendOrFail(send: () => Promise<Observation>, failure: SendFailure): Promise<Observation> {
  try {
    return await send();
  } catch (error) {
    if (error instanceof RunStopped) {
      failure.onStopped(error.message);
      return { failure: error.message, runStopped: true };
    }
    return { failure: failure.unreachable((error as Error).message) };
  }
}

/** The call that lists the store, which the guard sends after a call that may change it. */
function listingCall(): { method: Route['method']; path: string } {
  const listing = storeListing();
  return { method: listing.method, path: pathOf(listing) };
}

/** What the findings on the list after a call are about: `after this call, GET /store/orders`. */
function afterThisCall(): string {
  const { method, path } = listingCall();
  return `after this call, ${method} ${path}`;
}

/** The list after a cancel, as a scenario step: its cancelled order not listed, advisory (a warning unless --strict). */
function listAfterCancel(id: bigint): ContractStep {
  return {
    name: afterThisCall(),
    request: { ...listingCall(), key: 'valid' },
    expect: { status: 200, advisory: { notListed: [id] } },
  };
}

/**
 * A request target's path below the provider's prefix (its base URL without /v1), v1's base path
 * taken off as the pact's paths are read (another major's kept, `/v2/store/orders`), and its query.
 * @example
 * belowBase('/petstore/v2/store/orders?limit=2', '/petstore/v1') // { path: '/v2/store/orders', query: '?limit=2' }
 */
export function belowBase(target: string, basePath: string): { path: string; query: string } {
  const at = target.indexOf('?');
  const whole = at === -1 ? target : target.slice(0, at);
  const query = at === -1 ? '' : target.slice(at);
  const prefix = majorBase(basePath, '') ?? basePath.replace(/\/+$/, '');
  const below = whole.startsWith(`${prefix}/`) ? whole.slice(prefix.length) : whole;
  return { path: below.replace(/^\/v1(?=\/|$)/, '') || '/', query };
}

/** The provider state Pact last set: its orders (ids exact), the model of the interface in that state, and what left it. */
class GuardState {
  orders: JsonValue | undefined;
  // Made at the first call that needs it (a DELETE, a page of v2's list): most interactions are answered without one.
  #model: Promise<InterfaceModel | undefined> | undefined;
  #seed: JsonValue[] | undefined;
  history = new ProviderHistory();

  /** The model in the state Pact set, undefined when no state is set or its orders cannot seed one. */
  model(): Promise<InterfaceModel | undefined> {
    if (this.#seed === undefined) return Promise.resolve(undefined);
    this.#model ??= InterfaceModel.seeded(this.#seed).catch(() => undefined);
    return this.#model;
  }

  /** Follows a state change Pact sent (its JSON body): set up the orders it names, or tear down (also a change naming no state). */
  change(body: Buffer): void {
    try {
      const change = parseJson(body.toString('utf8')) as { action?: string; params?: { orders?: JsonValue[] } };
      if (change.action === 'teardown' || namesNoState(body)) {
        this.#clear();
      } else {
        const orders = change.params?.orders ?? [];
        this.orders = orders;
        this.#seed = orders;
        this.#model = undefined;
        this.history = new ProviderHistory();
      }
    } catch {
      this.#clear();
    }
  }

  #clear(): void {
    this.orders = undefined;
    this.#seed = undefined;
    this.#model = undefined;
  }
}

/** Whether a state change Pact sent names no provider state: its interaction has none (Pact V2-V4 allow that). */
function namesNoState(body: Buffer): boolean {
  try {
    const change = parseJson(body.toString('utf8'));
    if (change === null || typeof change !== 'object' || Array.isArray(change)) return false;
    return change.state === undefined || change.state === '';
  } catch {
    return false;
  }
}

type GuardOptions = TargetOptions & { stateUrl: string };

/** A request Pact sent, as the guard judges it: its path as `belowBase` gives it, its query without `?`. */
interface GuardedCall {
  method: string;
  path: string;
  query: string;
  authorization: string | undefined;
}

/** The guard's two routes: Pact's state changes, and every other request, forwarded and checked. */
class Guard {
  readonly records: GuardRecord[] = [];
  readonly #options: GuardOptions;
  readonly #onStopped: (reason: string) => void;
  readonly #base: URL;
  readonly #state = new GuardState();
  // The provider's requests under way, and whether one got no whole answer in time (keptWaiting).
  #waiting = 0;
  #late = false;

  constructor(options: GuardOptions, onStopped: (reason: string) => void) {
    this.#options = options;
    this.#onStopped = onStopped;
    this.#base = new URL(options.baseUrl.replace(/\/+$/, ''));
  }

  /** Whether a request to the provider is under way, or one got no whole answer in time. */
  keptWaiting(): boolean {
    return this.#waiting > 0 || this.#late;
  }

  /** A request to the provider (or its state URL); one that got no whole answer in time is remembered. */
  async #send(send: () => Promise<Observation>, failure: SendFailure): Promise<Observation> {
    return this.#noted(await sendOrFail(send, failure));
  }

  #noted(observation: Observation): Observation {
    if (isFailure(observation) && observation.timedOut === true) this.#late = true;
    return observation;
  }

  /** One request of Pact's verifier, counted while under way (its answer may wait on the provider). */
  async handle(incoming: IncomingMessage, outgoing: ServerResponse): Promise<void> {
    this.#waiting += 1;
    try {
      await (incoming.method === 'POST' && incoming.url === guardStatePath
        ? this.changeState(incoming, outgoing)
        : this.forward(incoming, outgoing));
    } finally {
      this.#waiting -= 1;
    }
  }

  /**
   * Passes a state change on to the provider's state URL, and sets the model in the same state. One
   * that names no state (Pact sends `"state": ""` for an interaction without one) is answered here:
   * there is nothing to set, the provider stays as it is, and its answer is judged by the document alone.
   */
  async changeState(incoming: IncomingMessage, outgoing: ServerResponse): Promise<void> {
    const body = await readBody(incoming);
    if (namesNoState(body)) {
      this.#state.change(body);
      outgoing.writeHead(200, { 'content-type': 'application/json', 'content-length': 2 });
      outgoing.end('{}');
      return;
    }
    const send = () =>
      sendToTarget(this.#options, this.#options.stateUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: new Uint8Array(body),
      });
    const observation = await this.#send(send, {
      onStopped: this.#onStopped,
      unreachable: (reason) => `cannot reach the state URL: ${reason}`,
    });
    this.#state.change(body);
    answer(outgoing, observation);
  }

  /** Forwards a request to the provider, checks its answer (and the store after a cancel), records it, and answers Pact. */
  async forward(incoming: IncomingMessage, outgoing: ServerResponse): Promise<void> {
    const started = performance.now();
    const method = incoming.method ?? 'GET';
    const target = incoming.url ?? '/';
    const base = this.#base;
    const { path, query } = belowBase(target, base.pathname);
    const { authorization } = incoming.headers;
    const headers = forwardedHeaders(incoming, this.#options.apiKey);
    const body = await readBody(incoming);
    const send = () =>
      sendToTarget(this.#options, `${base.origin}${target}`, {
        method,
        headers,
        ...(body.length > 0 && { body: new Uint8Array(body) }),
      });
    const observation = await this.#send(send, {
      onStopped: this.#onStopped,
      unreachable: (reason) => `cannot reach the provider: ${reason}`,
    });
    const findings = await this.#findings({ method, path, query: query.slice(1), authorization }, observation);
    const exchange = judged({
      name: `${method} ${path}`,
      call: { method, path },
      observed: observation,
      findings,
      strict: this.#options.strict ?? false,
      started,
    });
    this.records.push({ method, path, query: pactQueryKey(query), authorization, state: this.#state.orders, exchange });
    answer(outgoing, observation);
  }

  async #findings(call: GuardedCall, observation: Observation): Promise<Finding[]> {
    // Each major's call against its own document (v2's page is no v1 call), and its query with it.
    const judgedCall = { method: call.method, ...majorOf(call.path), query: call.query };
    const key = pactKeyChoice(call.authorization, this.#options.apiKey);
    const side = isFailure(observation) ? undefined : await this.#pageSide(call, key);
    const { findings } = judgeCall({
      call: judgedCall,
      observed: observation,
      ...(side !== undefined && { model: side }),
    });
    if (isFailure(observation)) return findings;
    const model = mayChangeTheStore(call.method, call.path) ? await this.#state.model() : undefined;
    if (model !== undefined) findings.push(...(await this.#storeAfter(model, call, key)));
    return findings;
  }

  /**
   * The model's side of a page of v2's list in the provider state Pact set: which orders the page may
   * show. Pact matches a page's orders by type, so this is what holds a provider to the state's orders
   * (each once, ascending, exact past 2^53, the filter's, at most the limit). None for a call that
   * sends a cursor: it is the provider's (spec gap 54).
   */
  async #pageSide(call: GuardedCall, key: KeyChoice): Promise<ModelSide | undefined> {
    const { base, path } = majorOf(call.path);
    const route = matchRoute(call.method, path, base)?.route;
    const page = route === undefined ? undefined : documentedResponse(route, 200);
    if (page === undefined || schemaNameOf(page) !== 'OrderPage' || sendsCursor(call.query)) return undefined;
    const model = await this.#state.model();
    if (model === undefined) return undefined;
    const before = await model.orders();
    const answer = await model.call(call.method, `${call.path}${call.query === '' ? '' : `?${call.query}`}`, key);
    return answer === undefined
      ? undefined
      : { answer, before, after: await model.orders(), history: this.#state.history };
  }

  // The provider's orders after a call that may change them, compared with the model's after the same call.
  async #storeAfter(model: InterfaceModel, call: { method: string; path: string }, key: KeyChoice): Promise<Finding[]> {
    const { method, path } = call;
    const cancel = await model.call(method, path, key);
    const after = await model.orders();
    const list = listingCall();
    const listAnswer = await model.call(list.method, list.path, 'valid');
    let observed: Observation;
    try {
      observed = this.#noted(await sendCall(this.#options, list.method, list.path, 'valid'));
    } catch (error) {
      observed = { failure: (error as Error).message };
    }
    const side = { answer: listAnswer!, before: after, after, history: this.#state.history };
    const cancelled = cancel?.status === 204 ? cancelledOrderId(method, path) : undefined;
    return judgeCall({
      call: list,
      observed,
      model: side,
      // The mock's behaviour, which the specification leaves open (spec gap 21): advisory, as in the scenarios.
      ...(cancelled !== undefined && { step: listAfterCancel(cancelled) }),
      about: afterThisCall(),
    }).findings;
  }
}

/**
 * Starts the guard Pact's verifier talks to instead of the provider. It forwards every request with
 * the pact's development key swapped for the target's (the 401 interactions keep their missing or
 * wrong key) and Pact's state changes to the provider's state URL; reads each whole answer itself,
 * fail-closed, and checks it against the specification (so a redirect, a 204 with a body or a
 * truncated body is a violation, and Pact never hangs on what its own client cannot parse); and after
 * every DELETE, lists the provider's orders and compares them with the model's, so a cancel that
 * touches another order is caught although each Pact interaction is a single request. When the run
 * stops (its deadline, or a target that stopped answering), it calls `onStopped` with the reason.
 */
export async function startPactGuard(options: GuardOptions, onStopped: (reason: string) => void): Promise<PactGuard> {
  const guard = new Guard(options, onStopped);
  const server = createHttpServer((incoming, outgoing) => {
    guard.handle(incoming, outgoing).catch((error: unknown) => {
      if (!outgoing.headersSent)
        answer(outgoing, { failure: `petstore-verify's guard failed: ${(error as Error).message}` });
      else outgoing.destroy();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    records: guard.records,
    keptWaiting: () => guard.keptWaiting(),
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
