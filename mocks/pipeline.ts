import { getResponse, type RequestHandler } from 'msw';
import { pathSegments, routesAtPath, type OperationName, type Route } from '../core/routes.js';
import { controlPathOf, matchControlRoute } from './control.js';
import type { ControlAccess } from './control-access.js';
import { MockError, errorToReply, noOperation } from './errors.js';
import type { MockSession } from './mock-session.js';
import type { MockRequest } from './mock-request.js';
import { operations } from './operations.js';
import { networkError, replyOfResponse, type NetworkError, type Reply, type RequestHead } from './reply.js';
import { sessionHeader, type SessionRegistry } from './sessions.js';

/** What the pipeline answers: a reply, or a dropped connection (a fault with `network: true`). */
export type Answer = Reply | NetworkError;

/**
 * The one function from a request to an answer, before any transport: routing by the route table,
 * the bearer check, 404 and 405 with `Allow`, HEAD and OPTIONS, the control plane, sessions, faults,
 * the journal and logging. `undefined` for a request outside the mock's namespaces (the API's base
 * path and `/__mock`), unless `answerEverything` asks for a 404 Error record instead.
 * @example
 * const answer = await mock.handle(new Request('http://localhost/v1/store/orders/3', { method: 'DELETE', headers }));
 * // { status: 409, headers: { 'content-type': 'application/json' }, body: '{"code":"order_already_shipped",...}' }
 */
export type HandleRequest = (
  request: MockRequest,
  options?: { answerEverything?: boolean },
) => Promise<Answer | undefined>;

/** What the pipeline is built from: the mock's parts, made once by `createOrderMock`. */
export interface PipelineParts {
  sessions: SessionRegistry<MockSession>;
  authenticate: (request: RequestHead) => MockError | undefined;
  petDeprecation: Date;
  petSunset: Date;
  /** The one base URL to answer (a trailing slash is ignored); undefined answers `/v1` on any origin. */
  baseUrl: string | undefined;
  /** Whether to answer the control plane under `/__mock`. */
  control: boolean;
  /** Who may use the control plane (the standalone server's guard); undefined lets every caller. */
  controlAccess: ControlAccess | undefined;
  /** Whether calls are journaled at all (a journal size of 0: no). */
  journal: boolean;
  /** The clock of the journal's times, in milliseconds since the epoch. */
  now: () => number;
  /** One line a request (method, path, status, milliseconds; never a header). */
  log: ((line: string) => void) | undefined;
  /** A line about a client's mistake the mock noticed, said once a session (a float64-rounded id). */
  warn: ((line: string) => void) | undefined;
  /** The user's MSW handlers, asked before the kit's own (read at each request: they may be set after the pipeline). */
  userHandlers: () => readonly RequestHandler[];
}

/** Where a request falls: the API below its base path, the control plane below `/__mock`, or neither. */
type Namespace = { kind: 'api' | 'control'; path: string };

const methodsWithGet = (methods: readonly string[]) => (methods.includes('GET') ? [...methods, 'HEAD'] : [...methods]);

function decodable(path: string): boolean {
  if (!path.includes('%')) return true;
  try {
    decodeURIComponent(path);
    return true;
  } catch {
    return false;
  }
}

function bodyLength(body: Reply['body']): number {
  if (body === null) return 0;
  if (typeof body === 'string') return new TextEncoder().encode(body).byteLength;
  return body.reduce((total, part) => total + part.byteLength, 0);
}

// HEAD answers what GET would, without the content: the same Content-Length (RFC 9110 §9.3.2, §8.6).
function withoutContent(reply: Reply): Reply {
  return {
    status: reply.status,
    headers: { ...reply.headers, 'content-length': String(bodyLength(reply.body)) },
    body: null,
  };
}

function options204(allow: string): Reply {
  return { status: 204, headers: { allow }, body: null };
}

/**
 * What the journal entry needs, noted as the call is answered: the operation, as soon as the route is
 * known (a call that fails is journaled with it), and the session, once it is chosen (the call is
 * journaled there, even if the session ends meanwhile: an ended session is not created again).
 */
interface CallNote {
  operation: OperationName | null;
  session?: MockSession;
  /** The exact id the client probably meant, when it sent a float64 rounding of one (a 404). */
  probablyMeant?: bigint;
}

const fetchForbiddenMethods = new Set(['CONNECT', 'TRACE', 'TRACK']);

const notDecodable = 'the path is not valid percent-encoded UTF-8';

function methodNotAllowed(method: string, pathname: string, methods: readonly string[], allow: string): MockError {
  return new MockError(
    'method_not_allowed',
    `Method ${method} is not allowed on ${pathname}: use ${methods.join(' or ')}.`,
    {
      headers: { allow },
    },
  );
}

/** The methods a path allows, GET's HEAD included, and the `Allow` header that lists them with OPTIONS. */
function allowedMethods(methods: readonly string[]): { methods: string[]; allow: string } {
  const allowed = methodsWithGet(methods);
  return { methods: allowed, allow: [...allowed, 'OPTIONS'].join(', ') };
}

/** The operation a method and a path below the base path call, or null for none (HEAD and OPTIONS call none). */
function operationAt(method: string, path: string): OperationName | null {
  return routesAtPath(pathSegments(path)).find(({ route }) => route.method === method)?.route.operation ?? null;
}

/**
 * What a control key does not guard: a preflight (browsers send it without credentials) and the
 * control page itself, which holds no data and asks for the key.
 */
function needsNoControlKey(method: string, path: string): boolean {
  return method === 'OPTIONS' || ((method === 'GET' || method === 'HEAD') && (path === '/' || path === ''));
}

// `/__mock` is the control page's folder: its address ends with a slash.
function controlPageRedirect(url: URL): Reply {
  return { status: 308, headers: { location: `/__mock/${url.search}` }, body: null };
}

/** The mock's one request pipeline; see `HandleRequest`. Each step is one method. */
class RequestPipeline {
  readonly #parts: PipelineParts;
  readonly #base: URL | undefined;
  readonly #basePath: string;

  constructor(parts: PipelineParts) {
    this.#parts = parts;
    this.#base = parts.baseUrl === undefined ? undefined : new URL(parts.baseUrl);
    this.#basePath = this.#base === undefined ? '/v1' : this.#base.pathname.replace(/\/+$/, '');
  }

  async handle(request: MockRequest, options: { answerEverything?: boolean } = {}): Promise<Answer | undefined> {
    const started = performance.now();
    let url: URL;
    try {
      url = new URL(request.url);
    } catch {
      return new MockError('invalid_request', 'The request target is not a valid path.').toReply();
    }
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
    if (request.method === 'HEAD' && answer !== networkError) answer = withoutContent(answer);
    const status = answer === networkError ? 'network' : answer.status;
    if (namespace?.kind === 'api') this.#record(request, pathname, status, call);
    this.#parts.log?.(`${request.method} ${pathname} ${status} ${(performance.now() - started).toFixed(1)}ms`);
    return answer;
  }

  // The user's handlers first, then the kit's own routes.
  async #answer(
    request: MockRequest,
    url: URL,
    namespace: Namespace | undefined,
    call: CallNote,
    answerEverything: boolean,
  ): Promise<Answer | undefined> {
    // Who may use the control plane is checked before anyone answers there, the user's handlers too.
    if (namespace?.kind === 'control') this.#guardControl(request, namespace.path);
    if (request.pathAsWritten !== undefined)
      return this.#refuseAsWritten(request, request.pathAsWritten, namespace, answerEverything);
    const users = await this.#userAnswer(request);
    if (users !== undefined) {
      if (namespace?.kind === 'api') call.operation = operationAt(request.method, namespace.path);
      return users;
    }
    if (namespace?.kind === 'api') return this.#answerApi(request, url, namespace.path, call);
    if (namespace?.kind === 'control') return this.#answerControl(request, url, namespace.path);
    return answerEverything ? noOperation(request.method, url.pathname).toReply() : undefined;
  }

  /** Whether a URL falls in the mock's namespaces (the API below its base path, or `/__mock`): what the MSW handler matches. */
  covers(url: string): boolean {
    try {
      return this.#namespaceOf(new URL(url)) !== undefined;
    } catch {
      return false;
    }
  }

  /**
   * Journals a call of the API that something else answered (a handler the user put in front of the
   * kit's with `server.use()`), with its operation and status, in the session its header names.
   */
  recordAnswered(request: MockRequest, status: number | 'network'): void {
    const url = new URL(request.url);
    const namespace = this.#namespaceOf(url);
    if (namespace?.kind !== 'api') return;
    this.#record(request, url.pathname, status, { operation: operationAt(request.method, namespace.path) });
  }

  #namespaceOf(url: URL, pathname = url.pathname): Namespace | undefined {
    const sameOrigin = this.#base === undefined || url.origin === this.#base.origin;
    if (!sameOrigin) return undefined;
    if (pathname.startsWith(`${this.#basePath}/`)) return { kind: 'api', path: pathname.slice(this.#basePath.length) };
    const controlPath = this.#parts.control ? controlPathOf(pathname) : undefined;
    if (controlPath !== undefined) return { kind: 'control', path: controlPath };
    return undefined;
  }

  // A path with a dot segment or a backslash names no resource of the mock, whatever URL parsing makes of it
  // (spec gap 32): 404 like any unknown path of its namespace, the key checked first under the API.
  // The user's handlers are not asked: a Fetch Request cannot carry the path as written.
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

  // The bearer check first, then the error: a caller without a key learns nothing of the paths.
  #refuseAfterBearerCheck(request: MockRequest, failure: MockError): never {
    throw this.#parts.authenticate(request) ?? failure;
  }

  async #answerApi(request: MockRequest, url: URL, path: string, call: CallNote): Promise<Answer> {
    const method = request.method;
    if (!decodable(path)) this.#refuseAfterBearerCheck(request, noOperation(method, url.pathname, notDecodable));
    const candidates = routesAtPath(pathSegments(path));
    if (candidates.length === 0) this.#refuseAfterBearerCheck(request, noOperation(method, url.pathname));
    const { methods, allow } = allowedMethods(candidates.map(({ route }) => route.method));
    if (method === 'OPTIONS') return options204(allow);
    const match = candidates.find(({ route }) => route.method === (method === 'HEAD' ? 'GET' : method));
    if (match === undefined)
      this.#refuseAfterBearerCheck(request, methodNotAllowed(method, url.pathname, methods, allow));
    if (match.route.method === method) call.operation = match.route.operation;
    return this.#answerOperation(request, match.route, decodeURIComponent(match.parameter), call);
  }

  async #answerOperation(request: MockRequest, route: Route, parameter: string, call: CallNote): Promise<Answer> {
    const session = this.#parts.sessions.forRequest(request);
    call.session = session;
    // The session's faults first: they stand for the network and the servers in front of the provider.
    const faulted = session.applyFaults(route.operation);
    if (faulted !== undefined) {
      const injected = await faulted;
      if (injected !== undefined) return injected;
    }
    const { authenticate, petDeprecation, petSunset } = this.#parts;
    return operations[route.operation](
      { store: session.store, authenticate, petDeprecation, petSunset, conflictBody: session.settings().conflictBody },
      request,
      parameter,
    );
  }

  // A refused caller learns nothing, and changes nothing.
  #guardControl(request: MockRequest, path: string): void {
    const refused = this.#parts.controlAccess?.refusal(request, {
      keyNeeded: !needsNoControlKey(request.method, path),
    });
    if (refused !== undefined) throw refused;
  }

  async #answerControl(request: MockRequest, url: URL, path: string): Promise<Answer> {
    const method = request.method;
    if (path === '') return controlPageRedirect(url);
    if (!decodable(path)) throw noOperation(method, url.pathname, notDecodable);
    const matched = matchControlRoute(pathSegments(path));
    if (matched === undefined) throw noOperation(method, url.pathname);
    const { methods, allow } = allowedMethods(Object.keys(matched.route.methods));
    if (method === 'OPTIONS') return options204(allow);
    const answer = matched.route.methods[method === 'HEAD' ? 'GET' : method];
    if (answer === undefined) throw methodNotAllowed(method, url.pathname, methods, allow);
    const sessions = this.#parts.sessions;
    // A read (GET, HEAD) never starts a session: it sees a session in use, or a fresh one not kept.
    const reads = method === 'GET' || method === 'HEAD';
    return answer({
      request,
      url,
      parameter: decodeURIComponent(matched.parameter),
      sessions,
      session: () => (reads ? sessions.peek(request) : sessions.forRequest(request)),
    });
  }

  async #userAnswer(request: MockRequest): Promise<Answer | undefined> {
    const handlers = this.#parts.userHandlers();
    // A method Fetch cannot carry (CONNECT, TRACE, TRACK) makes no Request for MSW: the kit answers it.
    if (handlers.length === 0 || fetchForbiddenMethods.has(request.method.toUpperCase())) return undefined;
    const fetchRequest = request instanceof Request ? request.clone() : await request.toRequest?.();
    if (fetchRequest === undefined) return undefined;
    let response: Response | undefined;
    try {
      response = await getResponse([...handlers], fetchRequest);
    } catch (error) {
      // The user's code, not the kit's: say whose handler failed, and why.
      throw new MockError(
        'internal_error',
        `A handler of yours (the handlers option) threw: ${String((error as Error)?.message ?? error)}`,
      );
    }
    return response === undefined ? undefined : replyOfResponse(response);
  }

  // The session whose journal holds a call answered before its session was chosen (a 401, 404 or 405, or
  // the user's handlers): the one its header names, or the default one. None for a name that cannot be
  // used (invalid, or past the session limit): such a call is refused for every session, and journaled in none.
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

  // A client that lost an id's precision: journaled with the call, and said in the log once a session.
  #noteRounding(url: URL, call: CallNote, error: MockError): void {
    call.probablyMeant = error.probablyMeant;
    if (call.session?.firstRoundingHint())
      this.#parts.warn?.(
        `${url.pathname}: order ${error.probablyMeant} was probably meant; the client lost the last digits of an id beyond 2^53 (said once a session; see the journal's probablyMeant)`,
      );
  }

  #record(request: MockRequest, pathname: string, status: number | 'network', call: CallNote): void {
    const { sessions, journal, authenticate, now } = this.#parts;
    if (!journal) return;
    const session = call.session ?? this.#journalSession(request);
    if (session === undefined) return;
    const name = request.headers.get(sessionHeader);
    const header = request.headers.get('authorization');
    session.recordCall({
      method: request.method,
      path: pathname,
      operation: call.operation,
      status,
      session: session === sessions.default ? null : name,
      time: now(),
      authorization: header === null ? 'none' : authenticate(request) === undefined ? 'valid' : 'invalid',
      ...(call.probablyMeant === undefined ? {} : { probablyMeant: String(call.probablyMeant) }),
    });
  }
}

/** The mock's one pipeline: `handle`, and what its adapters ask of it besides. */
export interface Pipeline {
  handle: HandleRequest;
  /** Whether a URL falls in the mock's namespaces (the API below its base path, or `/__mock`). */
  covers(url: string): boolean;
  /** Journals a call of the API that a handler in front of the kit's answered; any other call is ignored. */
  recordAnswered(request: MockRequest, status: number | 'network'): void;
}

/**
 * Builds the mock's one request pipeline (see `HandleRequest`). The MSW handlers, the standalone
 * server and the harness's model all answer through it.
 * @example
 * const { handle } = createPipeline(parts);
 * await handle(new Request('http://localhost/v1/store/orders')) // 401 missing_api_key
 */
export function createPipeline(parts: PipelineParts): Pipeline {
  const pipeline = new RequestPipeline(parts);
  return {
    handle: (request, options) => pipeline.handle(request, options),
    covers: (url) => pipeline.covers(url),
    recordAnswered: (request, status) => pipeline.recordAnswered(request, status),
  };
}
