import type { Finding } from '../core/finding.js';
import type { Disagreement } from '../core/second-oracle.js';
import type { WrittenRecordings } from './recorder/scenario-recorder.js';
import { withoutCredentials } from './redaction.js';

/** One request forwarded, and what the checks found in its response. */
export interface ProxyExchange {
  method: string;
  /** The path as the client sent it, its query shown as `?…` (a query can carry a token). */
  path: string;
  /** The operation's path below the base URL (`/store/orders`), or undefined when the request is for no operation of the spec. */
  operationPath?: string;
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
  /** Every finding held against the upstream: the specification's checks' (`violated`) and, recording, the contract's (`recording.against`). */
  violations: number;
  disagreements: number;
  /** The most recent exchanges with a violation of the specification (at most 1,000). */
  violated: ProxyExchange[];
  /** With a recorder: the file being written and its steps so far, and what every file written holds. */
  recording?: { name: string; file: string; steps: number } & WrittenRecordings;
  /** `failed` once any violation was seen or the recording stopped: the command then exits 1. */
  verdict: 'passed' | 'failed';
}

const mostViolatedKept = 1000;

/** The totals and the most recent violated exchanges: what `report()` says. */
export class ProxyExchangeLog {
  readonly #upstream: string;
  readonly #onExchange: ((exchange: ProxyExchange) => void) | undefined;
  readonly #totals = { exchanges: 0, checked: 0, violations: 0, disagreements: 0 };
  readonly #violated: ProxyExchange[] = [];

  constructor(upstream: URL, onExchange: ((exchange: ProxyExchange) => void) | undefined) {
    this.#upstream = withoutCredentials(upstream.href);
    this.#onExchange = onExchange;
  }

  record(exchange: ProxyExchange): void {
    const totals = this.#totals;
    totals.exchanges++;
    if (exchange.unchecked === undefined) totals.checked++;
    totals.violations += exchange.violations.length;
    totals.disagreements += exchange.disagreements.length;
    if (exchange.violations.length > 0) {
      this.#violated.push(exchange);
      if (this.#violated.length > mostViolatedKept) this.#violated.shift();
    }
    this.#onExchange?.(exchange);
  }

  report(): Omit<ProxyReport, 'verdict'> {
    return { upstream: this.#upstream, ...this.#totals, violated: [...this.#violated] };
  }
}
