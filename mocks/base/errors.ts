import { KitError, KitTypeError } from '../../core/errors.js';
import type { Finding } from '../../core/finding.js';
import type { ErrorRecord } from '../../core/records.js';
import type { Violation } from '../../core/schema-validator.js';
import { jsonReply, replyToResponse, type Reply } from './reply.js';

/**
 * Every error code the mock answers with, and its HTTP status: the one place where codes meet statuses.
 * @example
 * errorStatuses.order_already_shipped // 409
 */
export const errorStatuses = {
  missing_api_key: 401,
  invalid_api_key: 401,
  order_not_found: 404,
  order_already_shipped: 409,
  not_found: 404,
  method_not_allowed: 405,
  invalid_request: 400,
  invalid_parameter: 400,
  invalid_cursor: 400,
  invalid_json: 400,
  number_out_of_range: 400,
  invalid_orders: 400,
  duplicate_order_id: 400,
  order_limit_reached: 409,
  unknown_provider_state: 400,
  unknown_scenario: 404,
  invalid_fault: 400,
  unknown_fault: 404,
  fault_limit_reached: 409,
  invalid_session: 400,
  unknown_session: 404,
  session_limit_reached: 503,
  pact_contradicts_spec: 422,
  pact_conflict: 422,
  pact_limit_reached: 409,
  pact_too_large: 409,
  tests_overlap: 409,
  forbidden_origin: 403,
  forbidden_host: 403,
  missing_control_key: 401,
  invalid_control_key: 401,
  request_timeout: 408,
  payload_too_large: 413,
  headers_too_large: 431,
  internal_error: 500,
} as const;

export type ErrorCode = keyof typeof errorStatuses;

/**
 * The codes of the errors the mock throws at its user rather than answering over HTTP, and what each means.
 * @example
 * mockUsageErrorCodes.not_the_mock // 'the control client reached a server that does not answer as petstore-mock'
 */
export const mockUsageErrorCodes = {
  mock_unreachable:
    'the control client could not reach the server at all (connection refused, DNS, network), or got no answer within its timeout',
  not_the_mock:
    'the control client reached a server that does not answer as petstore-mock (another shape, or an answer that breaks off or does not finish within the timeout)',
  node_only: 'a function of the package root that needs Node.js, called in a browser',
  unreadable_seed_file: 'a seed file that cannot be read (missing, a folder, no permission)',
  invalid_seed_file: 'a seed file that is not valid JSON or YAML, or whose orders are invalid',
  missing_mock_server: "Playwright's mockMode 'server' without the address of a petstore-mock",
  unsupported_handler:
    "a handler the Playwright fixture's network.use() cannot run in the in-page mock (a WebSocket handler)",
  in_page_only: "a Playwright fixture of the in-page mock used in mockMode 'server'",
  missing_storybook_worker: 'withOrderMock in a story whose context has no msw-storybook-addon worker',
  invalid_option:
    "an option the mock cannot use (createOrderMock, createServer, the sessions, the journal and its filters, the keys, persistOrders, createControlClient, a pact's options, filter and dir)",
  fetch_cannot_carry:
    'a request Fetch cannot carry as written (a path with dot segments or backslashes), asked for as a Fetch Request',
  no_answer:
    "the in-page mock gave no answer to a request of its own namespace (a bug of the kit's Playwright fixture)",
  model_without_faults: 'a connection drop asked of the model, which injects no faults',
  no_msw_handlers:
    'createServer().mock.handlers where nothing loaded the MSW adapter: the standalone server starts without MSW (use createOrderMock)',
  pact_contradicts_spec:
    "a consumer pact with an interaction the specification or the model does not allow: nothing is written, and the error's findings say which",
  pact_conflict:
    'a consumer pact that answers the same request under the same provider state in two ways (in this run, or against the file it merges into): nothing is written, and the message names both',
  pact_limit_reached:
    "a consumer pact of more distinct calls than a session's pact holds (10,000, or 32 MiB of bodies): nothing is written rather than a pact without some",
  pact_too_large:
    "a consumer pact whose JSON text would pass the 64 MiB a pact may have (or the mock's maxPactBytes): refused as soon as the interactions built pass it, nothing is written",
  unmergeable_pact_file:
    "a file already at the pact's path that the new interactions cannot be merged into: not JSON, another consumer or provider, not Pact V4, or no list of interactions",
  tests_overlap:
    "a test said not to have passed (mock.testStarted's function) after another test began on the same mock: its calls cannot be told apart, and stay in the pact",
  pact_file_locked:
    "a pact file's lock held by another writer for longer than 30 s (a test run that died while writing leaves it: delete it)",
} as const;

export type MockUsageErrorCode = keyof typeof mockUsageErrorCodes;

/**
 * An error the mock throws at its user, with a code of `mockUsageErrorCodes`.
 * @example
 * throw new MockUsageError('node_only', 'createServer needs Node.js and is not available in a browser.');
 */
export class MockUsageError extends KitError<MockUsageErrorCode> {}

/** A finding of the judge on one interaction of the pact: the pact cannot be written while there is one. */
export interface PactFinding extends Finding {
  interaction: string;
}

/**
 * A consumer pact the contract does not allow (`mock.pact()`): its findings, as data, name each
 * interaction and what the judge found; no file is written.
 * @example
 * try { await mock.pact({ consumer: 'web-app' }); } catch (error) { if (error instanceof PactContradictsSpec) console.log(error.findings); }
 */
export class PactContradictsSpec extends MockUsageError {
  override name = 'PactContradictsSpec';
  readonly findings: readonly PactFinding[];

  constructor(message: string, findings: readonly PactFinding[]) {
    super('pact_contradicts_spec', message);
    this.findings = findings;
  }
}

/**
 * An option or argument the mock cannot use: a `TypeError`, with a code of `mockUsageErrorCodes`.
 * @example
 * throw new MockOptionError('invalid_option', 'maxOrders must be a whole number >= 0, not -1');
 */
export class MockOptionError extends KitTypeError<MockUsageErrorCode> {}

/**
 * An error the mock answers with: a code of `errorStatuses`, made into an Error record.
 * @example
 * throw new MockError('order_not_found', 'Order 42 not found.');
 */
export class MockError extends KitError<ErrorCode> {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly violations: readonly Violation[];
  /** The id the client probably meant, when it sent a float64 rounding of it; journaled, never in the body. */
  readonly probablyMeant: bigint | undefined;

  constructor(
    code: ErrorCode,
    message: string,
    options: { headers?: Record<string, string>; violations?: readonly Violation[]; probablyMeant?: bigint } = {},
  ) {
    super(code, message);
    this.name = 'MockError';
    this.status = errorStatuses[code];
    this.headers = options.headers ?? {};
    this.violations = options.violations ?? [];
    this.probablyMeant = options.probablyMeant;
  }

  toRecord(): ErrorRecord & { violations?: Violation[] } {
    const record: ErrorRecord & { violations?: Violation[] } = {
      code: this.code,
      message: this.message,
      status: this.status,
    };
    if (this.violations.length > 0) record.violations = [...this.violations];
    return record;
  }

  toReply(): Reply {
    return jsonReply(this.toRecord(), this.status, this.headers);
  }

  toResponse(): Response {
    return replyToResponse(this.toReply());
  }
}

/**
 * A `MockError` that only ever becomes an answer (a 401, a 404, a 409 the pipeline catches and
 * replies with), made without a stack trace: nobody reads one, and capturing it cost more than the
 * rest of such an answer. Where a stack cannot be left out (a browser's engine), it is kept.
 * @example
 * refusal('order_not_found', 'Order 42 not found.').toReply().status // 404
 */
export function refusal(...args: ConstructorParameters<typeof MockError>): MockError {
  const engine = Error as { stackTraceLimit?: number };
  const limit = engine.stackTraceLimit;
  if (typeof limit !== 'number') return new MockError(...args);
  engine.stackTraceLimit = 0;
  try {
    return new MockError(...args);
  } finally {
    engine.stackTraceLimit = limit;
  }
}

/** The 404 for a request no operation answers. */
export function noOperation(method: string, pathname: string, reason?: string): MockError {
  return refusal('not_found', `No operation at ${method} ${pathname}${reason ? `: ${reason}` : ''}.`);
}

/** Anything but a `MockError` is a bug of the mock: a 500 `internal_error` rather than a dropped request. */
export function errorToResponse(error: unknown): Response {
  return replyToResponse(errorToReply(error));
}

export function errorToReply(error: unknown): Reply {
  if (error instanceof MockError) return error.toReply();
  return new MockError(
    'internal_error',
    'The mock failed to answer this request; this is a bug in petstore-contract-kit.',
  ).toReply();
}
