import { isAcceptedKey } from '../../core/authorization.js';
import type { StoredOrder } from '../../mocks/store/order-store.js';
import { stepTarget, type ContractStep } from '../../core/scenario.js';
import { pageAgainstModel } from '../scenario/page-against-model.js';
import { toInt64 } from '../../core/int64.js';
import type { OrderInput } from '../../core/provider-state.js';
import { jsonBody, type Finding, type ObservedResponse } from '../../core/checks.js';
import { cancelledOrderId, ProviderHistory, settlesRace, type ModelAnswer } from '../../core/compare.js';
import { judgeCall } from '../../core/judge.js';
import { documentedResponse, isSafeMethod, routeOf, schemaNameOf } from '../../core/routes.js';
import { operationDefinitions, statusShowing } from '../../core/operation-definitions.js';
import { stepOf } from '../scenario/model-step.js';
import { InterfaceModel } from '../../mocks/pipeline/interface-model.js';
import { withoutQueries } from '../base/redaction.js';
import type { ExchangeToRecord, StepJudgement, RecordableCall, RecordingEntry, RecordedStep } from './recorded-call.js';
import type { RecordedState } from './recorded-state.js';
import { stepText } from './recording-text.js';
import { ShownModel } from './shown-model.js';

/** What judging a recording's steps reads and keeps: its calls, the state they are judged in, and the model. */
export interface JudgedCalls {
  file: string;
  calls: RecordingEntry[];
  state: RecordedState;
  /** The orders of the state the steps were judged in (its YAML is made when the file is written: `stateText`). */
  judgedIn: { orders: OrderInput[] } | undefined;
  model: InterfaceModel | undefined;
  /**
   * The store as the deployment showed it, once an answer left the model: the steps after it are judged
   * against it (one cause, one finding), their saved steps still against the model.
   */
  shown?: ShownModel | undefined;
  history: ProviderHistory;
  /** The ids earlier cancels named: a status given later must not change what they were judged in. */
  touched: Set<bigint>;
  /** Each order of the state as the file writes it. */
  orderLines: WeakMap<OrderInput, string>;
}

/**
 * The judgements of the calls judged so far, in order (the calls are judged first to last, so those
 * judged come before those not).
 */
export function judgements(calls: readonly RecordingEntry[]): StepJudgement[] {
  const judged: StepJudgement[] = [];
  for (const { judgement } of calls) {
    if (judgement === undefined) break;
    judged.push(judgement);
  }
  return judged;
}

// How many calls are judged: counted from the end, where the calls not yet judged are.
function judgedCount(calls: readonly RecordingEntry[]): number {
  let count = calls.length;
  while (count > 0 && calls[count - 1]!.judgement === undefined) count--;
  return count;
}

/**
 * Judges the recording's new step with the model seeded with the state inferred so far. A state that
 * only gives an order no earlier step named its status (from this step's answer) is set in the model;
 * any other change (the first list, an order added) judges every step again, and an earlier step whose
 * disagreements change is reported again. Returns the steps to report: the new one, and those.
 */
export async function judgeSteps(recording: JudgedCalls): Promise<RecordedStep[]> {
  const { calls } = recording;
  const orders = recording.state.orders();
  const given = recording.judgedIn === undefined ? undefined : addedStatuses(recording.judgedIn.orders, orders);
  const statuses = given?.some(([id]) => recording.touched.has(id)) ? undefined : given;
  // Each step's disagreements before this call, read only for the steps this call settles: a step that
  // only adds itself reads a few, not every earlier one (the whole list only when all are judged again).
  const disagreementsBefore = new Map<number, Finding[] | undefined>();
  const keepBefore = (step: number) => {
    if (!disagreementsBefore.has(step)) disagreementsBefore.set(step, calls[step]!.judgement?.disagreements);
  };
  if (statuses === undefined || recording.model === undefined) {
    for (let step = 0; step < calls.length; step++) keepBefore(step);
    recording.model = await InterfaceModel.seeded(orders);
    recording.shown = undefined;
    recording.history = new ProviderHistory();
    for (const recorded of calls) recorded.judgement = undefined;
    recording.touched = new Set();
  } else {
    // An order with no status is pending in the model already.
    for (const [id, status] of statuses)
      if (status !== 'pending')
        for (const model of [recording.model, recording.shown?.model]) await model?.setStatus(id, status);
  }
  if (statuses === undefined || statuses.length > 0) recording.judgedIn = { orders };
  const settled = new Set<number>();
  for (let index = judgedCount(calls); index < calls.length; index++) {
    const recorded = calls[index]!;
    keepBefore(index);
    recorded.judgement = await judgedStep(recording.model, recording.history, recorded.call, recording.shown);
    recording.shown = await ShownModel.after(recording.shown ?? recording.model, recorded.call, {
      found: recorded.judgement.found,
      history: recording.history,
    });
    for (const step of concurrentJudgedSteps(calls, index)) keepBefore(step);
    const cancelled = cancelledId(recorded.call);
    if (cancelled !== undefined) recording.touched.add(cancelled);
    for (const step of settleConcurrentSteps(calls, index)) settled.add(step);
  }
  // The steps to report: the new one, and each earlier one whose disagreements changed.
  const last = calls.length - 1;
  return [...settled]
    .sort((left, right) => left - right)
    .filter(
      (step) =>
        step === last ||
        findingsText(disagreementsBefore.get(step)) !== findingsText(calls[step]!.judgement!.disagreements),
    )
    .map((step) => ({
      file: recording.file,
      step: calls[step]!.judgement!.step,
      disagreements: calls[step]!.judgement!.disagreements,
      ...(step !== last && { again: true as const }),
    }));
}

/**
 * Settles what is held against the upstream for a step and the steps it ran at the same time as (its
 * request came before their answers ended, and theirs before its): such calls are judged in the order
 * their answers ended, which need not be the order the upstream took them in. Among cancels of one order
 * at once with an accepted key, a status is not held against the upstream when exactly one of them is a
 * 204 and the model, one call after another, has exactly one of them cancel it (an honest race; two 204s,
 * or a 204 for a shipped order, are bugs), a cancel the client aborted (status 0) counting as the one or
 * the other; a list at the same time as such cancels is not held to show the orders they name. Returns
 * the steps settled.
 */
export function settleConcurrentSteps(calls: readonly RecordingEntry[], index: number): number[] {
  const settled = [index, ...concurrentJudgedSteps(calls, index)];
  const judgementAt = (position: number) => calls[position]!.judgement!;
  for (const step of settled) {
    const { call } = calls[step]!;
    const judgement = judgementAt(step);
    // Only cancels with an accepted key change the store.
    const racing = concurrentJudgedSteps(calls, step).filter(
      (position) => acceptedCancel(calls[position]!.call) !== undefined,
    );
    const id = acceptedCancel(call);
    const sameOrder = [step, ...racing.filter((position) => acceptedCancel(calls[position]!.call) === id)];
    // An honest race (tolerance race-losers): the model, one call after another, has exactly one of them
    // cancel the order, and so has the upstream, in whatever order their answers ended.
    const oneCancels = (statuses: number[]) => settlesRace(statuses, [204], [404, 409]);
    const racedCancel =
      id !== undefined &&
      sameOrder.length > 1 &&
      answersSettleRace(sameOrder.map((position) => calls[position]!.call.exchange.status)) &&
      oneCancels(sameOrder.map((position) => judgementAt(position).judgedAs.status));
    // A list at the same time as cancels may leave out the orders they name, and only those (tolerance
    // list-during-cancels).
    const racedIds = new Set(racing.map((position) => acceptedCancel(calls[position]!.call)!));
    const { missing } = judgement.judgedAs;
    const racedList = isSafeMethod(call.method) && missing.length > 0 && missing.every((order) => racedIds.has(order));
    judgement.disagreements = judgement.found.filter(
      (finding) =>
        !(racedCancel && finding.code === 'status-unexpected') && !(racedList && finding.code === 'order-listed'),
    );
    judgement.step = withRecorded(judgement.step, call.exchange, judgement.disagreements);
    judgement.text = stepText(judgement.step);
  }
  return settled;
}

/**
 * Tolerance race-losers on the answers of cancels of one order at once, some of which the client aborted
 * (status 0: no answer came, but the deployment may have applied it): each aborted one may have been the
 * winner or a loser, whichever settles the race.
 */
function answersSettleRace(statuses: readonly number[]): boolean {
  const answered = statuses.filter((status) => status !== 0);
  const won = answered.filter((status) => status === 204).length;
  const aborted = statuses.length - answered.length;
  return (
    answered.every((status) => status === 204 || raceLosers.includes(status)) &&
    (won === 1 || (won === 0 && aborted > 0))
  );
}

const raceLosers = [404, 409];

/**
 * The judged steps whose call ran at the same time as step `index`'s (each request came before the
 * other's answer ended). Calls are kept in the order their answers ended, so the scan back stops at
 * the first that ended before this one's request came.
 */
export function concurrentJudgedSteps(calls: readonly RecordingEntry[], index: number): number[] {
  const { startedAt, endedAt } = calls[index]!.call.exchange;
  const found: number[] = [];
  for (let other = index - 1; other >= 0 && calls[other]!.call.exchange.endedAt > startedAt; other--) found.push(other);
  for (let other = index + 1; other < calls.length && calls[other]!.judgement !== undefined; other++)
    if (calls[other]!.call.exchange.startedAt < endedAt) found.push(other);
  return found;
}

function findingsText(findings: readonly Finding[] | undefined): string {
  return (findings ?? []).map(({ code, path, expected, actual }) => `${code} ${path} ${expected} ${actual}`).join('\n');
}

// The order a cancel with an accepted key names: one that can change the store.
function acceptedCancel(call: RecordableCall): bigint | undefined {
  return isAcceptedKey(call.key) ? cancelledId(call) : undefined;
}

// The order a cancel names, as the mock reads its path.
function cancelledId(call: RecordableCall): bigint | undefined {
  return cancelledOrderId(call.method, call.path);
}

/**
 * The statuses `after` gives orders that had none in `before` (the same orders, fields and all, in the
 * same order), or undefined when it changes anything else.
 */
export function addedStatuses(
  before: readonly OrderInput[],
  after: readonly OrderInput[],
): [bigint, 'pending' | 'shipped'][] | undefined {
  if (before.length !== after.length) return undefined;
  const given: [bigint, 'pending' | 'shipped'][] = [];
  for (const [index, order] of after.entries()) {
    const earlier = before[index]!;
    if (order === earlier) continue;
    const { status, ...fields } = order;
    const { status: statusBefore, ...fieldsBefore } = earlier;
    if (!sameFields(fields, fieldsBefore)) return undefined;
    if (status === statusBefore) continue;
    if (statusBefore !== undefined || (status !== 'pending' && status !== 'shipped')) return undefined;
    given.push([BigInt(order.id), status]);
  }
  return given;
}

/** Whether two orders have the same fields with the same values (each a number, bigint, string or boolean). */
export function sameFields(left: object, right: object): boolean {
  const entries = Object.entries(left);
  return (
    entries.length === Object.keys(right).length &&
    entries.every(([field, value]) => (right as Record<string, unknown>)[field] === value)
  );
}

/**
 * A call judged by the model, one after the calls before it: the step that replays it and what the model
 * found in the upstream's answer (none held yet: `settleConcurrentSteps` holds them). Once the deployment
 * showed a store the model does not hold (`shown`), the answer is judged against that store, and the step
 * still made from the model's answer.
 */
export async function judgedStep(
  model: InterfaceModel,
  history: ProviderHistory,
  call: RecordableCall,
  shown?: ShownModel,
): Promise<StepJudgement> {
  // A near path changes nothing and is no operation of the model: its step is the rule's (near-path-refusals).
  if (call.near !== undefined) {
    // The rule reads the status alone: the proxy reads no more of an answer at a path of no operation.
    const { status, observed = { status, headers: new Headers(), text: '', bodyUnknown: true } } = call.exchange;
    const { findings: found } = judgeCall({ call, observed, step: call.near });
    return { step: call.near, text: '', found, disagreements: [], judgedAs: { status: 0, missing: [] } };
  }
  const contract = await modelView(model, call);
  await shown?.before(call);
  const judged = shown === undefined ? contract : await modelView(shown.model, call);
  const { observed } = call.exchange;
  // The specification's findings (and Prism's) are the proxy's, once; the model's change with the state.
  const found =
    observed === undefined
      ? []
      : judgeCall({
          // Pages are judged below (pageFindings), from where each starts: not by their query alone.
          call: { ...call, base: call.v2?.base, query: undefined },
          observed,
          model: { ...judged, history },
        }).modelFindings;
  if (observed !== undefined) found.push(...(await pageFindings(shown?.model ?? model, call, judged.answer)));
  const judgedAs = { status: contract.answer.status, missing: missingFromList(judged.after, observed) };
  const step = stepOf(call, contract.answer, contract.before, contract.after);
  return {
    step: {
      ...step,
      name: call.title,
      ...(call.v2 !== undefined && {
        request: {
          ...step.request,
          base: call.v2.base,
          ...(call.v2.query !== undefined && { query: call.v2.query }),
          ...(call.v2.follows && { cursor: 'follow' as const }),
        },
      }),
    },
    text: '',
    found,
    disagreements: [],
    judgedAs,
  };
}

/**
 * A v2 page against the model's store, where the recording's state is known, from where the page
 * starts (`pageAgainstModel`); the findings the specification's check gave the exchange already
 * (what a page shows of itself) are not given twice.
 */
async function pageFindings(model: InterfaceModel, call: RecordableCall, answer: ModelAnswer): Promise<Finding[]> {
  const { v2, exchange } = call;
  if (v2?.storeKnown !== true || answer.operation !== 'listOrdersV2' || answer.status !== 200) return [];
  if (exchange.status !== 200 || exchange.observed === undefined || exchange.observed.bodyUnknown === true) return [];
  const body = jsonBody(exchange.observed);
  if (body === undefined) return [];
  const { findings } = pageAgainstModel({
    query: new URLSearchParams(exchange.query ?? ''),
    start: v2.start,
    body,
    store: await model.orders(),
  });
  const given = (finding: Finding) =>
    exchange.findings.some(
      (other) =>
        other.code === finding.code &&
        other.path === finding.path &&
        other.expected === finding.expected &&
        other.actual === finding.actual,
    );
  return findings.filter((finding) => !given(finding));
}

// A model's answer to a call, with its store before and after where a judgement reads it.
async function modelView(
  model: InterfaceModel,
  call: RecordableCall,
): Promise<{ answer: ModelAnswer; before: StoredOrder[]; after: StoredOrder[] }> {
  // The store is read only where a step's judgement reads it (whether a 404 is a cancelled order's,
  // which the 404 did not change; a list's orders), not at every step: a copy of thousands of orders.
  // A v2 call is asked with its query but the provider's cursor, which the model could not read.
  const answer = (
    call.v2 === undefined
      ? await model.call(call.method, call.path, call.key, '/v1')
      : await model.call(
          call.method,
          stepTarget({ method: call.method, path: call.path, query: call.v2.query }),
          call.key,
          call.v2.base,
        )
  )!;
  const documented = documentedResponse(routeOf(answer.operation), answer.status);
  const cancelsAgain =
    operationDefinitions[answer.operation].cancels !== undefined &&
    answer.status === statusShowing(answer.operation, 'cancelled');
  const read = cancelsAgain || (documented !== undefined && schemaNameOf(documented) === 'Order[]');
  const after = read ? await model.orders() : [];
  return { answer, before: cancelsAgain ? after : [], after };
}

/** The orders the model lists that a list the upstream answered leaves out. */
export function missingFromList(orders: readonly StoredOrder[], observed: ObservedResponse | undefined): bigint[] {
  if (orders.length === 0 || observed === undefined) return [];
  const body = jsonBody(observed);
  if (!Array.isArray(body)) return [];
  const listed = new Set(
    body.map((entry) =>
      entry !== null && typeof entry === 'object' && !Array.isArray(entry) ? toInt64(entry.id) : undefined,
    ),
  );
  return orders.filter((order) => order.status !== 'cancelled' && !listed.has(order.id)).map((order) => order.id);
}

/** A step with what the upstream answered beside it: its status, the proxy's findings and those held against it. */
export function withRecorded(
  step: ContractStep,
  exchange: ExchangeToRecord,
  disagreements: readonly Finding[],
): ContractStep {
  const all = [...exchange.findings, ...disagreements];
  return {
    ...step,
    recorded: {
      status: exchange.status,
      ...(all.length > 0 && {
        findings: all.map(({ code, path, expected, actual }) => ({
          code,
          path,
          expected: withoutQueries(expected),
          actual: withoutQueries(actual),
        })),
      }),
    },
  };
}
