import { KitError } from '../../core/errors.js';
import type { ErrorRecord } from '../../core/records.js';

/**
 * The codes of the errors the harness throws, and what each means.
 * @example
 * verifyErrorCodes.run_stopped // 'the run stopped sending: its deadline passed, or the target stopped answering'
 */
export const verifyErrorCodes = {
  invalid_base_url: 'a base URL the harness cannot use, such as one without /v1 for Pact verification',
  state_change_failed: 'a provider state change the target refused or did not answer',
  state_not_set: "the recorder's known state, which could not be set on the upstream",
  broker_refused: 'a Pact Broker that answered an error status: to a publication, or to a fetch of pacts',
  broker_unreachable:
    "a Pact Broker that could not be reached, or did not answer within the timeout or before the run's deadline",
  broker_invalid_answer: "a Pact Broker's answer that is not its HAL: no JSON, no link or list where the API has one",
  broker_foreign_origin:
    "a Pact Broker's link or redirect to another origin while credentials are set: they go to the broker's origin only, so it is not followed",
  invalid_pact_file: 'a pact file to publish that petstore-verify --pact would refuse (checkPactText): nothing is sent',
  invalid_consumer_pact:
    'a pact file to verify (--pact) that cannot be used: not JSON, nested too deep, an unknown Pact version, a wrong shape, or a state it cannot set',
  missing_optional_dependency: "an optional peer (Pact's core, Prism, fast-check) that is not installed",
  undecodable_body:
    'a response body in a Content-Encoding the harness did not ask for, or in more content codings than it undoes (4)',
  body_too_large:
    "a response body past the kit's bound (bodyLimit, 32 MiB), as sent or with its content codings undone: decoding stopped there",
  ENOTDIR: "a file where a folder is to be made (the file system's own code, kept for callers that test it)",
  invalid_baseline: 'a baseline file that cannot be read, is not JSON, or is not one --write-baseline writes',
  target_unreachable: 'a target that did not answer at all: refused, unknown host, unroutable',
  recording_refused: 'a folder the recorder cannot write to, or a name that is not a scenario name',
  invalid_har:
    'a HAR file petstore-verify har cannot judge: missing, over 32 MiB, not JSON, nested too deep, not a HAR, or over 20,000 entries',
  run_stopped: 'the run stopped sending: its deadline passed, or the target stopped answering',
  model_mismatch: "an exploration command whose answer differs from the model's (fast-check then shrinks the run)",
} as const;

/** A code of `verifyErrorCodes`. */
export type VerifyErrorCode = keyof typeof verifyErrorCodes;

/**
 * The codes of the Error records the validating proxy answers with itself (not the upstream's), with
 * their statuses and meanings.
 * @example
 * proxyErrorStatuses.upstream_unreachable.status // 502
 */
export const proxyErrorStatuses = {
  upstream_unreachable: { status: 502, meaning: 'the proxy cannot reach the upstream' },
  not_recording: { status: 404, meaning: '`POST /__record/new` to a proxy started without --record' },
  invalid_recording_name: { status: 400, meaning: '`POST /__record/new` with a name that is not a scenario name' },
  state_not_set: {
    status: 502,
    meaning: "`POST /__record/new` while the recorder's known state cannot be set again (the file goes on)",
  },
} as const;

/** A code of `proxyErrorStatuses`. */
export type ProxyErrorCode = keyof typeof proxyErrorStatuses;

/** The Error record the proxy answers with for one of its codes, its status from the table. */
export function proxyErrorRecord(code: ProxyErrorCode, message: string): ErrorRecord {
  return { code, message, status: proxyErrorStatuses[code].status };
}

/**
 * An error of the harness: a `KitError` whose code is one of `verifyErrorCodes`.
 * @example
 * throw new VerifyError('undecodable_body', 'br is not an encoding the harness asked for (gzip, deflate)');
 */
export class VerifyError extends KitError<VerifyErrorCode> {}
