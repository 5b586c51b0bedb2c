// The one place a call the harness observed is judged: every suite, the proxy and the recorder ask it,
// and none of them puts checks together of its own.
import type { StoredOrder } from './records.js';
import type { ContractStep } from './scenario.js';
import { checkAgainstSpec, checkResponse, type Finding } from './checks.js';
import { compareWithModel, type ModelAnswer, type ProviderHistory } from './compare.js';
import { unreadableFinding } from './finding.js';
import { failureFinding, isFailure, type Observation } from './observation.js';
import { withSecondOracle, type Disagreement, type PrismOracle } from './second-oracle.js';

/** What the model made of the same call in the same state: the other side of the comparison. */
export interface ModelSide {
  answer: ModelAnswer;
  /** The model's store before the call and after it. */
  before: readonly StoredOrder[];
  after: StoredOrder[];
  /** What the provider has answered before in this state (a cancelled order's later 404s and 409s). */
  history: ProviderHistory;
}

/** One observed call and what to judge it against. */
export interface CallToJudge {
  /**
   * The call; `base` is its major's base path (`/v1` unless given), `path` the path below it without
   * the query, `query` the query as sent without its `?` (`''` for none). Given, a page of v2's list is
   * compared with the model's store by it (a walk's first page, or a cursor's page); left out by a caller
   * that judges each page itself from where it starts (the scenario runner, the recorder).
   */
  call: { method: string; path: string; base?: string; query?: string | undefined };
  /** The provider's answer, or why none came whole. */
  observed: Observation;
  /** A scenario step's own expectations (its status, body, listed ids, headers), beside the specification's. */
  step?: ContractStep | undefined;
  /** The model's side: then the answer is compared with what the contract requires in that state. */
  model?: ModelSide | undefined;
  /** Prism's validator as a second oracle, where asked. */
  prism?: PrismOracle | undefined;
  /** The call the findings are about, when it is not the exchange's own (`after this call, GET /store/orders`). */
  about?: string;
}

/** What the judge found: the findings (the specification's, the step's, the model's, Prism's) and where Prism disagrees. */
export interface CallJudgement {
  findings: Finding[];
  /** The model's findings alone, for what judges the same answer again in another state (the recorder). */
  modelFindings: Finding[];
  disagreements: Disagreement[];
}

/**
 * Judges one observed call: a failure to answer is its one finding; else the answer against the
 * specification (Ajv), the step's expectations when there is a step, the model's answer when there is
 * a model (with the tolerance table's allowances), and Prism's validator when given.
 */
export function judgeCall(input: CallToJudge): CallJudgement {
  const { call, observed, step, model, about } = input;
  const named = (findings: Finding[]) =>
    about === undefined ? findings : findings.map((finding) => ({ ...finding, about }));
  if (isFailure(observed)) return { findings: [failureFinding(observed, about)], modelFindings: [], disagreements: [] };
  let findings: Finding[];
  let modelFindings: Finding[];
  try {
    findings =
      step === undefined
        ? checkAgainstSpec(call.method, call.path, observed, call.base)
        : checkResponse(step, observed);
    modelFindings =
      model === undefined
        ? []
        : compareWithModel({ path: call.path, query: call.query, ...model, observed }, model.history);
  } catch (error) {
    // An answer the kit's own checks cannot read is a finding on it: no answer ends a run or a proxy.
    return { findings: named([unreadableFinding("the kit's checks", error)]), modelFindings: [], disagreements: [] };
  }
  findings.push(...modelFindings);
  // Prism reads the body it is given: an unknown one would read as an empty one, a disagreement of nobody's.
  const prism = observed.bodyUnknown === true ? undefined : input.prism;
  const disagreements = withSecondOracle(prism, call.method, call.path, observed, findings);
  return { findings: named(findings), modelFindings: named(modelFindings), disagreements };
}
