import type { RequestHandler } from 'msw';
import { matchRoute, pathSegments, routesAtPath, type OperationName, type Route } from '../../core/routes.js';
import { operationDefinitions, statusShowing } from '../../core/operation-definitions.js';
import { controlPathOf, matchControlRoute } from '../control/control.js';
import {
  allowedMethods,
  decodable,
  headReply,
  methodNotAllowed,
  notDecodable,
  options204,
  routeFor,
} from './method-rules.js';
import type { ControlAccess } from '../control/control-access.js';
import type { InteractionJudge } from '../pact/interaction-judge.js';
import { MockError, errorToReply, noOperation } from '../base/errors.js';
import { keptAnswer, type AuthorizationSeen, type KeptAnswer, type RecordedCall } from '../journal/journal.js';
import type { MockSession } from '../session/mock-session.js';
import { heldAsOf } from './held-as-of.js';
import type { MockRequest } from '../base/mock-request.js';
import { operate } from '../session/operations.js';
import { networkError, replyOfResponse, type NetworkError, type Reply, type RequestHead } from '../base/reply.js';
import { RequestTarget } from '../base/request-target.js';
import { majorBase } from '../../core/major-base.js';
import { sessionHeader, type SessionRegistry } from '../session/sessions.js';

/** What the pipeline answers: a reply, or a dropped connection (a fault with `network: true`). */
export type Answer = Reply | NetworkError;

/**
 * The one function from a request to an answer, before any transport. `undefined` for a request
 * outside `/v1` and `/__mock`, unless `answerEverything` asks for a 404 instead.
 * @example
 * const answer = await mock.handle(new Request('http://localhost/v1/store/orders/3', { method: 'DELETE', headers }));
 * // { status: 409, headers: { 'content-type': 'application/json' }, body: '{"code":"order_already_shipped",...}' }
 */
export type HandleRequest = (
  request: MockRequest,
  options?: { answerEverything?: boolean },
) => Promise<Answer | undefined>;

/** What the pipeline is built from, made once by `createOrderMock`. */
export interface PipelineParts {
  sessions: SessionRegistry<MockSession>;
  authenticate: (request: RequestHead) => MockError | undefined;
  petDeprecation: Date;
  petSunset: Date;
  /** Undefined answers `/v1` on any origin. */
  baseUrl: string | undefined;
  control: boolean;
  /** Undefined lets every caller use the control plane. */
  controlAccess: ControlAccess | undefined;
  /** The judge of a pact's interactions and the most bytes of JSON text a pact may have, for `GET /__mock/pact`. */
  pact: { judge: InteractionJudge; maxBytes: number };
  journal: boolean;
  now: () => number;
  log: ((line: string) => void) | undefined;
  warn: ((line: string) => void) | undefined;
  /** Read at each request, since they may be set after the pipeline is made. */
  userHandlers: () => readonly RequestHandler[];
}

// An API call's `base` is its major's base path in the route table (`/v1`, `/v2`), whatever the mock's own.
type Namespace = { kind: 'api'; path: string; base: string } | { kind: 'control'; path: string };

/** Where a request goes: its target, and the part of the mock that answers it. */
interface Where {
  url: RequestTarget;
  namespace: Namespace | undefined;
  answerEverything: boolean;
}

// Noted while the call is answered, so that a call that fails is journaled with its operation, and in
// its session even if that session ends meanwhile.
interface CallNote {
  operation: OperationName | null;
  /** The operation's path parameter as written (the order a call names), whoever answered it. */
  parameter?: string;
  session?: MockSession;
  probablyMeant?: bigint;
  /** Set when a handler of the user's or a fault answered instead of the kit's operation. */
  by?: 'handler' | 'fault';
}

const fetchForbiddenMethods = new Set(['CONNECT', 'TRACE', 'TRACK']);

// Browsers send a preflight without credentials, and the control page holds no data: it asks for the key.
function needsNoControlKey(method: string, path: string): boolean {
  return method === 'OPTIONS' || ((method === 'GET' || method === 'HEAD') && (path === '/' || path === ''));
}

// `/__mock` is the control page's folder: its address ends with a slash.
function controlPageRedirect(url: URL): Reply {
  return { status: 308, headers: { location: `/__mock/${url.search}` }, body: null };
}

// A call a handler of the user's answered: its operation and the parameter it names, from the route table.
function handlerCall(method: string, path: string, base: string): CallNote {
  const match = matchRoute(method, path, base);
  const call: CallNote = { operation: match?.route.operation ?? null, by: 'handler' };
  if (match?.parameter !== undefined) call.parameter = match.parameter;
  return call;
}

class RequestPipeline {
  readonly #parts: PipelineParts;
  readonly #base: URL | undefined;
  readonly basePath: string;
  /** Each major's base path as this mock serves it, and the route table's: v2 beside v1 (`/api/v1`, `/api/v2`). */
  readonly #majors: readonly { path: string; base: string }[];

  constructor(parts: PipelineParts) {
    this.#parts = parts;
    this.#base = parts.baseUrl === undefined ? undefined : new URL(parts.baseUrl);
    this.basePath = this.#base === undefined ? '/v1' : this.#base.pathname.replace(/\/+$/, '');
    // v2 is served where v1's last segment is v2; a base path that does not end with /v1 serves v1 alone.
    const beside = majorBase(this.basePath, '/v2');
    this.#majors = [
      { path: this.basePath, base: '/v1' },
      ...(beside === undefined ? [] : [{ path: beside, base: '/v2' }]),
    ];
  }

  async handle(request: MockRequest, options: { answerEverything?: boolean } = {}): Promise<Answer | undefined> {
    const started = this.#parts.log === undefined ? 0 : performance.now();
    const url = RequestTarget.of(request);
    if (url === undefined) return new MockError('invalid_request', 'The request target is not a valid path.').toReply();
    const pathname = request.pathAsWritten ?? url.pathname;
    const namespace = this.#namespaceOf(url, pathname);
    const call: CallNote = { operation: null };
    let answer: Answer | undefined;
    try {
      answer = await this.#answer(request, url, namespace, call, options.answerEverything === true);
    } catch (error) {
      answer = errorToReply(error);
      if (error instanceof MockError && error.probablyMeant !== undefined) this.#noteRounding(url, call, error);
    }
    if (answer === undefined) return undefined;
    if (request.method === 'HEAD' && answer !== networkError) answer = headReply(answer);
    const status = answer === networkError ? 'network' : answer.status;
    if (namespace?.kind === 'api') this.#record(request, { pathname, status, call, answer });
    this.#parts.log?.(`${request.method} ${pathname} ${status} ${(performance.now() - started).toFixed(1)}ms`);
    return answer;
  }

  // Not async, like the operations: an answer known at once is not wrapped in a promise at every level.
  // A refusal is thrown at once, and `handle` catches it like a rejection.
  #answer(
    request: MockRequest,
    url: RequestTarget,
    namespace: Namespace | undefined,
    call: CallNote,
    answerEverything: boolean,
  ): Answer | undefined | Promise<Answer | undefined> {
    // Who may use the control plane is checked before anyone answers there, the user's handlers too.
    if (namespace?.kind === 'control') this.#guardControl(request, namespace.path);
    if (request.pathAsWritten !== undefined)
      return this.#refuseAsWritten(request, request.pathAsWritten, namespace, answerEverything);
    const where = { url, namespace, answerEverything };
    if (this.#parts.userHandlers().length > 0) return this.#answerAfterUsers(request, where, call);
    return this.#answerKits(request, where, call);
  }

  async #answerAfterUsers(request: MockRequest, where: Where, call: CallNote): Promise<Answer | undefined> {
    const users = await this.#userAnswer(request);
    if (users === undefined) return await this.#answerKits(request, where, call);
    call.by = 'handler';
    if (where.namespace?.kind === 'api')
      Object.assign(call, handlerCall(request.method, where.namespace.path, where.namespace.base));
    return users;
  }

  #answerKits(request: MockRequest, where: Where, call: CallNote): Answer | undefined | Promise<Answer | undefined> {
    const { url, namespace } = where;
    if (namespace?.kind === 'api') return this.#answerApi(request, url, namespace, call);
    if (namespace?.kind === 'control') return this.#answerControl(request, url, namespace.path);
    return where.answerEverything ? noOperation(request.method, url.pathname).toReply() : undefined;
  }

  covers(url: string): boolean {
    try {
      return this.#namespaceOf(RequestTarget.ofUrl(new URL(url))) !== undefined;
    } catch {
      return false;
    }
  }

  recordAnswered(request: MockRequest, status: number | 'network', answer?: KeptAnswer): void {
    const url = RequestTarget.ofUrl(new URL(request.url));
    const namespace = this.#namespaceOf(url);
    if (namespace?.kind !== 'api') return;
    this.#record(request, {
      pathname: url.pathname,
      status,
      call: handlerCall(request.method, namespace.path, namespace.base),
      ...(answer !== undefined && { kept: answer }),
    });
  }

  #namespaceOf(url: RequestTarget, pathname = url.pathname): Namespace | undefined {
    const sameOrigin = this.#base === undefined || url.url.origin === this.#base.origin;
    if (!sameOrigin) return undefined;
    for (const major of this.#majors) {
      if (!pathname.startsWith(`${major.path}/`)) continue;
      const path = pathname.slice(major.path.length);
      // Below /v2 the mock takes only the paths of v2's operations (any method, for a 405): an app's
      // calls to another service's /v2 on another origin stay MSW's unhandled requests (spec gap 51).
      if (major.base !== '/v1' && routesAtPath(pathSegments(path), major.base).length === 0) continue;
      return { kind: 'api', path, base: major.base };
    }
    const controlPath = this.#parts.control ? controlPathOf(pathname) : undefined;
    if (controlPath !== undefined) return { kind: 'control', path: controlPath };
    return undefined;
  }

  // A dot segment or a backslash names no resource (spec gap 32). The user's handlers are not asked:
  // a Fetch Request cannot carry the path as written.
  #refuseAsWritten(
    request: MockRequest,
    pathname: string,
    namespace: Namespace | undefined,
    answerEverything: boolean,
  ): undefined {
    const failure = noOperation(request.method, pathname);
    if (namespace?.kind === 'api') this.#refuseAfterBearerCheck(request, failure);
    if (namespace !== undefined || answerEverything) throw failure;
    return undefined;
  }

  // The bearer check comes first, so that a caller without a key learns nothing of the paths.
  #refuseAfterBearerCheck(request: MockRequest, failure: MockError): never {
    throw this.#parts.authenticate(request) ?? failure;
  }

  #answerApi(
    request: MockRequest,
    url: RequestTarget,
    { path, base }: { path: string; base: string },
    call: CallNote,
  ): Answer | Promise<Answer> {
    const method = request.method;
    if (!decodable(path)) this.#refuseAfterBearerCheck(request, noOperation(method, url.pathname, notDecodable));
    const candidates = routesAtPath(pathSegments(path), base);
    if (candidates.length === 0) this.#refuseAfterBearerCheck(request, noOperation(method, url.pathname));
    if (method === 'OPTIONS') return options204(allowedMethods(candidates.map(({ route }) => route.method)).allow);
    const match = routeFor(candidates, method === 'HEAD' ? 'GET' : method);
    if (match === undefined) {
      const { methods, allow } = allowedMethods(candidates.map(({ route }) => route.method));
      this.#refuseAfterBearerCheck(request, methodNotAllowed(method, url.pathname, methods, allow));
    }
    if (match.route.method === method) call.operation = match.route.operation;
    if (match.parameter !== undefined) call.parameter = match.parameter;
    return this.#answerOperation(request, match.route, decodeURIComponent(match.parameter), call);
  }

  #answerOperation(request: MockRequest, route: Route, parameter: string, call: CallNote): Answer | Promise<Answer> {
    const session = this.#parts.sessions.forRequest(request);
    call.session = session;
    // Faults come first: they stand for the network and the servers in front of the provider.
    const faulted = session.applyFaults(route.operation);
    if (faulted !== undefined) return this.#answerAfterFault(faulted, { request, route, parameter, call, session });
    return this.#operate(request, route, parameter, session);
  }

  async #answerAfterFault(
    faulted: Promise<Answer | undefined>,
    pending: { request: MockRequest; route: Route; parameter: string; call: CallNote; session: MockSession },
  ): Promise<Answer> {
    const injected = await faulted;
    if (injected === undefined)
      return await this.#operate(pending.request, pending.route, pending.parameter, pending.session);
    pending.call.by = 'fault';
    return injected;
  }

  #operate(request: MockRequest, route: Route, parameter: string, session: MockSession): Reply | Promise<Reply> {
    const { authenticate, petDeprecation, petSunset } = this.#parts;
    return operate(
      route.operation,
      { store: session.store, authenticate, petDeprecation, petSunset, conflictBody: session.conflictBody },
      { request, parameter, query: () => new URL(request.url).search.slice(1) },
    );
  }

  #guardControl(request: MockRequest, path: string): void {
    const refused = this.#parts.controlAccess?.refusal(request, {
      keyNeeded: !needsNoControlKey(request.method, path),
    });
    if (refused !== undefined) throw refused;
  }

  async #answerControl(request: MockRequest, target: RequestTarget, path: string): Promise<Answer> {
    const method = request.method;
    const url = target.url;
    if (path === '') return controlPageRedirect(url);
    if (!decodable(path)) throw noOperation(method, url.pathname, notDecodable);
    const matched = matchControlRoute(pathSegments(path));
    if (matched === undefined) throw noOperation(method, url.pathname);
    const { methods, allow } = allowedMethods(Object.keys(matched.route.methods));
    if (method === 'OPTIONS') return options204(allow);
    const answer = matched.route.methods[method === 'HEAD' ? 'GET' : method];
    if (answer === undefined) throw methodNotAllowed(method, url.pathname, methods, allow);
    const sessions = this.#parts.sessions;
    // A read never starts a session.
    const reads = method === 'GET' || method === 'HEAD';
    return answer({
      request,
      url,
      parameter: decodeURIComponent(matched.parameter),
      basePath: this.basePath,
      pact: this.#parts.pact,
      warn: this.#parts.warn,
      sessions,
      session: () => (reads ? sessions.peek(request) : sessions.forRequest(request)),
    });
  }

  async #userAnswer(request: MockRequest): Promise<Answer | undefined> {
    const handlers = this.#parts.userHandlers();
    // Fetch cannot carry CONNECT, TRACE or TRACK, so MSW cannot be asked.
    if (handlers.length === 0 || fetchForbiddenMethods.has(request.method.toUpperCase())) return undefined;
    const fetchRequest = request instanceof Request ? request.clone() : await request.toRequest?.();
    if (fetchRequest === undefined) return undefined;
    let response: Response | undefined;
    try {
      // Loaded when a handler of the user's is first asked: the standalone server starts without MSW.
      const { getResponse } = await import('msw');
      response = await getResponse([...handlers], fetchRequest);
    } catch (error) {
      throw new MockError(
        'internal_error',
        `A handler of yours (the handlers option) threw: ${String((error as Error)?.message ?? error)}`,
      );
    }
    return response === undefined ? undefined : replyOfResponse(response);
  }

  // For a call answered before its session was chosen. A name that cannot be used journals the call nowhere.
  #journalSession(request: MockRequest): MockSession | undefined {
    const { sessions } = this.#parts;
    const name = request.headers.get(sessionHeader);
    if (name === null) return sessions.default;
    try {
      return sessions.resolve(name);
    } catch {
      return undefined;
    }
  }

  #noteRounding(url: RequestTarget, call: CallNote, error: MockError): void {
    call.probablyMeant = error.probablyMeant;
    if (call.session?.firstRoundingHint())
      this.#parts.warn?.(
        `${url.pathname}: order ${error.probablyMeant} was probably meant; the client lost the last digits of an id beyond 2^53 (said once a session; see the journal's probablyMeant)`,
      );
  }

  #record(
    request: MockRequest,
    recorded: { pathname: string; status: number | 'network'; call: CallNote; answer?: Answer; kept?: KeptAnswer },
  ): void {
    const { sessions, journal, now } = this.#parts;
    if (!journal) return;
    const { call, answer } = recorded;
    const session = call.session ?? this.#journalSession(request);
    if (session === undefined) return;
    const entry: RecordedCall = {
      method: request.method,
      path: recorded.pathname,
      ...queryOf(request.url),
      operation: call.operation,
      status: recorded.status,
      session: session === sessions.default ? null : request.headers.get(sessionHeader),
      time: now(),
      authorization: this.#authorizationSeen(request, call, recorded.status),
    };
    if (call.probablyMeant !== undefined) entry.probablyMeant = String(call.probablyMeant);
    if (recorded.kept !== undefined) entry.answer = recorded.kept;
    else if (answer !== undefined && answer !== networkError) entry.answer = keptAnswer(answer, call.by ?? 'kit');
    if (call.by === 'handler' && call.operation !== null && operationDefinitions[call.operation].statusWhenHeld) {
      const heldAs = heldAsOf(session, call.parameter);
      if (heldAs !== undefined) entry.heldAs = heldAs;
    } else if (call.operation !== null && refusedAsCancelled(call.operation, recorded.status)) {
      // The kit's own refusal of an order it holds as cancelled: the pact states that order so, not an empty store.
      if (heldAsOf(session, call.parameter) === 'cancelled') entry.heldAs = 'cancelled';
    }
    session.recordCall(entry);
  }

  // An operation of the kit's checks the key before anything else, and answers 401 only for it: what it
  // answered says what it found. Other calls (a fault, a handler of yours, OPTIONS) are checked here.
  #authorizationSeen(request: MockRequest, call: CallNote, status: number | 'network'): AuthorizationSeen {
    const header = request.headers.get('authorization');
    if (header === null) return 'none';
    const checked = call.operation !== null && call.by === undefined && status !== 'network';
    if (checked) return status === 401 ? 'invalid' : 'valid';
    return this.#parts.authenticate(request) === undefined ? 'valid' : 'invalid';
  }
}

/** The mock's pipeline, as its adapters use it. */
export interface Pipeline {
  handle: HandleRequest;
  covers(url: string): boolean;
  /** Journals a call of the API that a handler in front of the kit's answered, with its answer when known. */
  recordAnswered(request: MockRequest, status: number | 'network', answer?: KeptAnswer): void;
  /** The path of the base URL, `/v1` unless the mock was given another. */
  readonly basePath: string;
}

/** Builds the mock's one request pipeline: the MSW handlers and the standalone server both answer through it. */
export function createPipeline(parts: PipelineParts): Pipeline {
  const pipeline = new RequestPipeline(parts);
  return {
    handle: (request, options) => pipeline.handle(request, options),
    covers: (url) => pipeline.covers(url),
    recordAnswered: (request, status, answer) => pipeline.recordAnswered(request, status, answer),
    basePath: pipeline.basePath,
  };
}

/** The query string of a call's URL, without its `?`, as the journal keeps it; nothing for none. */
function queryOf(url: string): { query?: string } {
  const start = url.indexOf('?');
  if (start === -1) return {};
  const end = url.indexOf('#', start);
  const query = url.slice(start + 1, end === -1 ? undefined : end);
  return query === '' ? {} : { query };
}

/** Whether a status is how an operation that cancels refuses an order already cancelled (its 404). */
function refusedAsCancelled(operation: OperationName, status: number | 'network'): boolean {
  return operationDefinitions[operation].cancels !== undefined && status === statusShowing(operation, 'cancelled');
}
