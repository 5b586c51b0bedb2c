// The recorder's work per step does not grow with the steps before it (speed itself is measured in
// bench/recorder-steps.mjs, never timed here): each entry's judgement is read through a counting
// getter, and the reads a new step costs stay flat however many steps came before.
import { describe, expect, it } from 'vitest';
import { ProviderHistory } from '../../core/compare.js';
import type { ExchangeToRecord, RecordingEntry, StepJudgement } from '../../verify/recorder/recorded-call.js';
import { recordableCall } from '../../verify/recorder/recorded-call.js';
import { RecordedState } from '../../verify/recorder/recorded-state.js';
import { judgeSteps, type JudgedCalls } from '../../verify/recorder/step-judging.js';

const cancel = (id: number, status: number): ExchangeToRecord => ({
  method: 'DELETE',
  operationPath: `/store/orders/${id}`,
  authorization: 'Bearer petstore-dev-key',
  status,
  observed: { status, headers: new Headers(), text: '' },
  findings: [],
  startedAt: id * 10,
  endedAt: id * 10 + 1,
});

// An entry whose judgement is read through a getter that counts each read.
function countedEntry(exchange: ExchangeToRecord, number: number, reads: { count: number }): RecordingEntry {
  let judgement: StepJudgement | undefined;
  return {
    call: recordableCall(exchange, number, undefined)!,
    get judgement() {
      reads.count++;
      return judgement;
    },
    set judgement(value) {
      judgement = value;
    },
  };
}

// Judges `count` cancels of different orders, each after the ones before; the reads each step cost.
async function readsPerStep(count: number, status: number, knownState?: { id: bigint }[]): Promise<number[]> {
  const reads = { count: 0 };
  const recording: JudgedCalls = {
    file: 'walked.yaml',
    calls: [],
    state: new RecordedState(knownState),
    judgedIn: undefined,
    model: undefined,
    history: new ProviderHistory(),
    touched: new Set(),
    orderLines: new WeakMap(),
  };
  const perStep: number[] = [];
  for (let id = 1; id <= count; id++) {
    const exchange = cancel(id, status);
    recording.calls.push(countedEntry(exchange, id, reads));
    const before = reads.count;
    const reported = await judgeSteps(recording);
    perStep.push(reads.count - before);
    expect(reported.map(({ step }) => step.name)).toEqual([`${id}. cancel order ${id}`]);
  }
  return perStep;
}

describe('the recorder walks a constant number of steps per new step', () => {
  it('a cancel in a known state reads a few judgements, not every earlier one', async () => {
    const known = Array.from({ length: 120 }, (_, index) => ({ id: BigInt(index + 1) }));
    const perStep = await readsPerStep(120, 204, known);
    // The last steps cost what the first ones did: a walk of the earlier steps would cost ~100 more.
    expect(Math.max(...perStep.slice(-10))).toBeLessThanOrEqual(Math.max(...perStep.slice(1, 11)));
    expect(Math.max(...perStep)).toBeLessThan(20);
  });

  it('a refused cancel (nothing inferred) reads a few judgements too', async () => {
    const perStep = await readsPerStep(120, 404);
    expect(Math.max(...perStep.slice(-10))).toBeLessThanOrEqual(Math.max(...perStep.slice(1, 11)));
    expect(Math.max(...perStep)).toBeLessThan(20);
  });
});
