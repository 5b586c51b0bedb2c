// What one exchange with a target gave, and a failure to answer as a finding: what the judge reads,
// whichever way the exchange was made (the harness's client, Pact's verifier, the proxy, the mock).
import type { ObservedResponse } from './checks.js';
import { bodyTooLargeFinding } from './body-limit.js';
import type { Finding } from './finding.js';

/**
 * A request the target did not answer completely: reset, truncated, undecodable, not HTTP, or too
 * slow. The harness reports it as a violation with `failure`, one line.
 */
export interface TargetFailure {
  failure: string;
  /** Set when no whole answer came in time. */
  timedOut?: boolean;
  /** Set when not even the headers came in time: nothing answered. */
  silent?: boolean;
  /** Set when the request was not sent because the run had stopped (`failure` says why). */
  runStopped?: boolean;
  /** Set when the body passed the kit's bound (`bodyLimit`), as sent or decoded: reading stopped there. */
  tooLarge?: boolean;
}

/** What one exchange with the target gave: a whole response, or a failure of the target. */
export type Observation = ObservedResponse | TargetFailure;

/** Whether an observation is a failure of the target rather than a response. */
export function isFailure(observation: Observation): observation is TargetFailure {
  return 'failure' in observation;
}

/**
 * A failure of the target as a finding (rule `no-answer`; `run-stopped` when the run stopped before
 * it was sent; `body-too-large` past the kit's bound); `about` names the call when it is not the
 * exchange's own.
 */
export function failureFinding(failure: TargetFailure, about?: string): Finding {
  if (failure.tooLarge) return { ...bodyTooLargeFinding(failure.failure), ...(about !== undefined && { about }) };
  return {
    ...(failure.runStopped
      ? { code: 'run-stopped', expected: 'the run to finish' }
      : { code: 'no-answer', expected: 'a whole answer in time' }),
    path: '',
    actual: failure.failure,
    ...(about !== undefined && { about }),
  };
}
