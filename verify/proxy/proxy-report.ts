import type { Finding } from '../../core/finding.js';
import type { Disagreement } from '../../core/second-oracle.js';
import type { WrittenRecordings } from '../recorder/scenario-recorder.js';
import { withoutCredentials } from '../base/redaction.js';

/** One request forwarded, and what the checks found in its response. */
export interface ProxyExchange {
  method: string;
  /** The path as the client sent it, its query shown as `?…` (a query can carry a token). */
  path: string;
  /** The operation's path below the base URL (`/store/orders`), or undefined when the request is for no operation of the spec. */
  operationPath?: string;
  /** `/v2` for a call of v2's operations (below `/v2` on the upstream's origin); else v1's. */
  base?: '/v2';
  /** The status, or 0 when no status line came. */
  status: number;
  violations: Finding[];
  disagreements: Disagreement[];
  /** Why the response was not checked, when it was not. */
  unchecked?: string;
  durationMs: number;
}

/** What the proxy has seen since it started: its console summary, `--json`, `GET /__verify/report` and exit code all come from it. */
export interface ProxyReport {
  /** The upstream's base URL, without its user information or query. */
  upstream: string;
  exchanges: number;
  checked: number;
  /**
   * The findings of the specification's checks, those `violated` lists; a recording's findings against
   * the contract are `recording.disagreements`, listed in `recording.against`. Either fails the run.
   */
  violations: number;
  disagreements: number;
  /** The most recent exchanges with a violation of the specification (at most 1,000). */
  violated: ProxyExchange[];
  /** With a recorder: the file being written and its steps so far, and what every file written holds. */
  recording?: { name: string; file: string; steps: number } & WrittenRecordings;
  /**
   * Why exchanges went unchecked, each reason with how many (`{ reason: 'upstream unreachable:
   * ECONNREFUSED', exchanges: 7 }`); reasons are values, so the report's redaction reaches them.
   */
  unchecked: { reason: string; exchanges: number }[];
  /**
   * `failed` once any violation was seen or the recording stopped (exit 1); else `not-run` when no
   * exchange was judged (exit 2: a proxy that judged nothing never passes); else `passed` (exit 0).
   */
  verdict: ProxyVerdict;
  /** The command's exit code for this verdict: 0, 1 or 2. */
  exitCode: 0 | 1 | 2;
  /** Why the verdict is not `passed`, one line (absent when it passed). */
  reason?: string;
}

/** A proxy's verdict: `not-run` when it judged no exchange. */
export type ProxyVerdict = 'passed' | 'failed' | 'not-run';

const mostViolatedKept = 1000;

/** The totals and the most recent violated exchanges: what `report()` says. */
export class ProxyExchangeLog {
  readonly #upstream: string;
  readonly #onExchange: ((exchange: ProxyExchange) => void) | undefined;
  readonly #totals = { exchanges: 0, checked: 0, violations: 0, disagreements: 0 };
  readonly #violated: ProxyExchange[] = [];
  readonly #unchecked = new Map<string, number>();

  constructor(upstream: URL, onExchange: ((exchange: ProxyExchange) => void) | undefined) {
    this.#upstream = withoutCredentials(upstream.href);
    this.#onExchange = onExchange;
  }

  record(exchange: ProxyExchange): void {
    const totals = this.#totals;
    totals.exchanges++;
    if (exchange.unchecked === undefined) totals.checked++;
    else this.#unchecked.set(exchange.unchecked, (this.#unchecked.get(exchange.unchecked) ?? 0) + 1);
    totals.violations += exchange.violations.length;
    totals.disagreements += exchange.disagreements.length;
    if (exchange.violations.length > 0) {
      this.#violated.push(exchange);
      if (this.#violated.length > mostViolatedKept) this.#violated.shift();
    }
    this.#onExchange?.(exchange);
  }

  report(): Omit<ProxyReport, 'verdict' | 'exitCode' | 'reason'> {
    return {
      upstream: this.#upstream,
      ...this.#totals,
      violated: [...this.#violated],
      unchecked: [...this.#unchecked].map(([reason, exchanges]) => ({ reason, exchanges })),
    };
  }
}

const plural = (count: number, noun: string) => `${count} ${noun}${count === 1 ? '' : 's'}`;

/**
 * The proxy's verdict from what it saw: failed on any finding (of the specification, of the contract
 * in a recording) or a recording that stopped; not-run, with one line saying why, when it judged no
 * exchange at all; else passed.
 * @example
 * proxyVerdict({ exchanges: 7, checked: 0, unchecked: [{ reason: 'upstream unreachable: ECONNREFUSED', exchanges: 7 }] }, { violations: 0 })
 * // { verdict: 'not-run', exitCode: 2, reason: 'no exchange was judged: 7 exchanges, 0 checked (7 upstream unreachable: ECONNREFUSED)' }
 */
export function proxyVerdict(
  seen: Pick<ProxyReport, 'exchanges' | 'checked' | 'unchecked'>,
  outcome: { violations: number; againstContract?: number; stopped?: string | undefined },
): Pick<ProxyReport, 'verdict' | 'exitCode' | 'reason'> {
  if (outcome.stopped !== undefined) return { verdict: 'failed', exitCode: 1, reason: outcome.stopped };
  const against = outcome.againstContract ?? 0;
  if (outcome.violations > 0 || against > 0) {
    const parts = [
      ...(outcome.violations > 0 ? [`${plural(outcome.violations, 'violation')} of the specification`] : []),
      ...(against > 0 ? [`${plural(against, 'finding')} against the contract in the recording`] : []),
    ];
    return { verdict: 'failed', exitCode: 1, reason: parts.join(', ') };
  }
  if (seen.checked > 0) return { verdict: 'passed', exitCode: 0 };
  const why = seen.unchecked.map(({ reason, exchanges }) => `${exchanges} ${reason}`);
  return {
    verdict: 'not-run',
    exitCode: 2,
    reason:
      seen.exchanges === 0
        ? 'no exchange was judged: no request came through the proxy'
        : `no exchange was judged: ${plural(seen.exchanges, 'exchange')}, 0 checked (${why.join('; ')})`,
  };
}
