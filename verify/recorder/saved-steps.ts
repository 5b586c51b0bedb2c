import { jsonBody } from '../../core/checks.js';
import { cancelledOrderId, settlesRace } from '../../core/compare.js';
import { toInt64 } from '../../core/int64.js';
import type { ContractStep } from '../../core/scenario.js';
import type { RecordingEntry } from './recorded-call.js';
import type { DroppedField, RecordedState } from './recorded-state.js';
import { stepText } from './recording-text.js';
import { concurrentJudgedSteps } from './step-judging.js';

/** A step of the saved file: one call's, or a `parallel` group's of identical cancels sent at once. */
export interface SavedStep {
  /** The step as the file writes it. */
  text: string;
  /** The calls it replays (their places in the recording, from 0): more than one for a `parallel` step. */
  calls: number[];
}

/** A finding of the judgement that replaying the saved file cannot show again, and why. */
export interface UnreplayableFinding {
  step: string;
  code: string;
  why: string;
}

// What the losers of a race of cancels may answer: the tolerance race-losers.
const losers = [404, 409];

/**
 * The steps of a recording's file, from its judged calls in order: cancels of one order with one key
 * choice, each sent before every other one was answered, become one step with `parallel: N` (the one
 * form of calls at once the scenario format has, and the only requests that race: a cancel changes the
 * store), expecting what the model gives them one after another: exactly one 204 and the others 404 or
 * 409 (tolerance race-losers), else every answer the same (409 for a shipped order). Any other call is
 * its own step, as judged.
 * @example
 * const steps = savedSteps(recording.calls);
 * steps.map(({ text }) => text).join('') // the file's `steps:`
 */
export function savedSteps(calls: readonly RecordingEntry[]): SavedStep[] {
  const saved: SavedStep[] = [];
  const grouped = new Set<number>();
  for (let index = 0; index < calls.length && calls[index]!.judgement !== undefined; index++) {
    if (grouped.has(index)) continue;
    const group = raceGroup(calls, index);
    for (const member of group) grouped.add(member);
    saved.push({
      text: group.length === 1 ? calls[index]!.judgement!.text : stepText(parallelStep(calls, group)),
      calls: group,
    });
  }
  return saved;
}

/**
 * The findings of a recording's judgement its saved file cannot replay: those on a call that ran at once
 * with a cancel the file sends before or after it rather than with it (the deployment answered while the
 * cancel was in flight; a replay sends them one after the other), and those on a listed order's field
 * the saved state dropped (an invalid value no provider state takes, so no replay lists it), and those on
 * a cancel of an order the state does not tell of (an inferred state where no answer showed whether it
 * was there: the saved state leaves it out, so a replay cancels an absent order).
 * The rest replay: a step expects what the contract requires, so a deployment that still breaks it
 * fails that step.
 * @example
 * for (const { step, code, why } of unreplayableFindings(recording.calls, recording.state)) console.log(`${step} [${code}]: ${why}`);
 */
export function unreplayableFindings(
  calls: readonly RecordingEntry[],
  state: Pick<RecordedState, 'dropped' | 'tellsOf'>,
): UnreplayableFinding[] {
  const dropped = state.dropped();
  const groupOf = new Map<number, number[]>();
  for (const { calls: group } of savedSteps(calls)) for (const call of group) groupOf.set(call, group);
  const found: UnreplayableFinding[] = [];
  for (const [index, group] of groupOf) {
    const { call, judgement } = calls[index]!;
    const findings = [...call.exchange.findings, ...judgement!.disagreements];
    if (findings.length === 0) continue;
    const droppedHere = droppedValues(calls[index]!, dropped);
    const replayable = findings.filter(({ code, path }) => {
      const value = droppedHere.get(path);
      if (value !== undefined)
        found.push({
          step: call.title,
          code,
          why: `a dropped value: ${value}, so the saved state does not hold it and no replay lists it`,
        });
      return value === undefined;
    });
    if (replayable.length === 0) continue;
    const id = cancelledOrderId(call.method, call.path);
    if (id !== undefined && call.near === undefined && !state.tellsOf(id, call.exchange.startedAt)) {
      const why = `an unknown state: no answer before it showed whether order ${id} was there, so the saved state leaves it out and a replay cancels an absent order`;
      for (const { code } of replayable) found.push({ step: call.title, code, why });
      continue;
    }
    const apart = concurrentJudgedSteps(calls, index).filter(
      (other) =>
        !group.includes(other) && cancelledOrderId(calls[other]!.call.method, calls[other]!.call.path) !== undefined,
    );
    if (apart.length === 0) continue;
    const names = apart.map((other) => calls[other]!.call.title).join(', ');
    const why = `a race: it ran at once with ${names}, which the saved file sends one after the other (a parallel step repeats one request)`;
    for (const { code } of replayable) found.push({ step: call.title, code, why });
  }
  return found;
}

// The paths in a list's body (`/0/shipDate`) of the fields the saved state dropped, each with why.
function droppedValues({ call }: RecordingEntry, dropped: readonly DroppedField[]): Map<string, string> {
  const values = new Map<string, string>();
  const body =
    dropped.length === 0 || call.exchange.observed === undefined ? undefined : jsonBody(call.exchange.observed);
  if (!Array.isArray(body)) return values;
  for (const [index, entry] of body.entries()) {
    if (entry === null || typeof entry !== 'object' || Array.isArray(entry)) continue;
    const id = toInt64(entry.id);
    for (const field of dropped)
      if (field.id !== undefined && field.id === id && field.field !== 'id')
        values.set(`/${index}/${field.field}`, `order ${id}'s ${field.field} (${field.reason})`);
  }
  return values;
}

// How many later calls a race is looked for among: calls at once are few (a browser opens 6 connections
// a host over HTTP/1.1), and the files of a HAR of 20,000 calls are made in linear time.
const raceWindow = 64;

// The calls from `index` on that make one parallel step: identical cancels, each at once with every
// other. A call between them whose answer ended in between is saved after the step (it was at once with
// them: the race rules allow it either order), unless it cancels the same order another way (another
// key choice): then the step ends before it, since the store it finds depends on the order.
function raceGroup(calls: readonly RecordingEntry[], index: number): number[] {
  const first = calls[index]!.call;
  const group = [index];
  const id = cancelledOrderId(first.method, first.path);
  if (first.near !== undefined || id === undefined || first.exchange.aborted === true) return group;
  const end = Math.min(calls.length, index + 1 + raceWindow);
  for (let next = index + 1; next < end && calls[next]!.judgement !== undefined; next++) {
    const { call } = calls[next]!;
    const identical =
      call.near === undefined &&
      call.exchange.aborted !== true &&
      call.method === first.method &&
      call.path === first.path &&
      call.key === first.key;
    const atOnce = group.every((member) => {
      const other = calls[member]!.call.exchange;
      return other.startedAt < call.exchange.endedAt && call.exchange.startedAt < other.endedAt;
    });
    if (identical && atOnce) group.push(next);
    else if (cancelledOrderId(call.method, call.path) === id) break;
  }
  return group;
}

// One step sending the group's request N times at once, expecting what the model answered them.
function parallelStep(calls: readonly RecordingEntry[], group: readonly number[]): ContractStep {
  const judged = group.map((member) => calls[member]!.judgement!);
  const first = judged[0]!.step;
  const statuses = judged.map((judgement) => judgement.judgedAs.status);
  const [winner = 0] = statuses;
  const expect = settlesRace(statuses, [204], losers)
    ? { status: 204, others: losers }
    : { status: statuses.every((status) => status === winner) ? winner : [...new Set(statuses)] };
  const recorded = judged.map((judgement) => judgement.step.recorded);
  const findings = recorded.flatMap((answer) => answer?.findings ?? []);
  const numbers = group.map((member) => calls[member]!.call.title.split('.')[0]).join(', ');
  return {
    name: `${numbers}. ${first.name.replace(/^\d+\. /, '')}, ${group.length} times at once`,
    request: first.request,
    parallel: group.length,
    expect,
    recorded: {
      status: recorded[0]?.status ?? 0,
      statuses: recorded.map((answer) => answer?.status ?? 0),
      ...(findings.length > 0 && { findings }),
    },
  };
}
