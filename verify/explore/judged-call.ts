// One call on both sides, judged, and recorded as a step of the run and of the scenario it would save.
import type { StoredOrder } from '../../mocks/store/order-store.js';
import type { KeyChoice } from '../../core/authorization.js';
import type { ContractStep } from '../../core/scenario.js';
import { judgeCall } from '../../core/judge.js';
import type { ModelAnswer } from '../../core/compare.js';
import type { Observation } from '../../core/observation.js';
import type { CheckedExchange } from '../base/results.js';
import { judged, sendCall } from '../provider/run.js';
import { stopAtDifference, type ExplorationModel, type ExplorationTarget } from './exploration.js';

/** One call on both sides, judged: the model's answer, the provider's, the spec, Prism, the model comparison. */
export async function judgedCall(
  model: ExplorationModel,
  target: ExplorationTarget,
  name: string,
  call: { method: string; path: string; key: KeyChoice },
): Promise<{ exchange: CheckedExchange; answer: ModelAnswer; before: StoredOrder[] }> {
  const started = performance.now();
  const before = model.orders;
  const [observed, answer] = await Promise.all([
    sendCall(target.options, call.method, call.path, call.key),
    model.mock.call(call.method, call.path, call.key),
  ]);
  model.orders = await model.mock.orders();
  const findings = judge(target, call, observed, answer!, before, model.orders);
  // Exploration compares with the model strictly: an advisory finding stops a run too.
  const exchange = judged({
    name,
    call,
    observed,
    findings: findings.findings,
    disagreements: findings.disagreements,
    strict: true,
    started,
  });
  return { exchange, answer: answer!, before };
}

export function judge(
  target: ExplorationTarget,
  call: { method: string; path: string },
  observed: Observation,
  answer: ModelAnswer,
  before: StoredOrder[],
  after: StoredOrder[],
) {
  return judgeCall({ call, observed, model: { answer, before, after, history: target.history }, prism: target.prism });
}

/** Records a judged call in the run's log and as a step of the scenario it would save, and stops the run on a violation. */
/** A step's name without the number `record` gave it. */
export function unnumbered(name: string): string {
  return name.replace(/^\d+\.\s*/, '');
}

export function record(target: ExplorationTarget, exchange: CheckedExchange, step: ContractStep): void {
  const numbered = { ...exchange, name: `${target.steps.length + 1}. ${exchange.name}` };
  target.steps.push(numbered);
  target.saved.push({ ...step, name: numbered.name });
  if (exchange.violations.length > 0) stopAtDifference(target, numbered.name);
}
