// The recorder records a call of every operation of the route table, whatever its method: the next
// operation of the document may be a POST (a ship, say), and a recorder that knew only GET and DELETE
// counted such calls as skipped and inferred the state from the calls around them. Here the recorder is
// built on a route table whose cancel is a POST, a method the recorder never named.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProviderHistory } from '../../core/compare.js';
import type { ExchangeToRecord, recordableCall } from '../../verify/recorder/recorded-call.js';
import type { RecordedState } from '../../verify/recorder/recorded-state.js';
import type { JudgedCalls, judgeSteps } from '../../verify/recorder/step-judging.js';
import { removeBuiltRoutes, withRoutes } from '../support/with-routes.js';

interface Recorder {
  recordableCall: typeof recordableCall;
  judgeSteps: typeof judgeSteps;
  RecordedState: typeof RecordedState;
  ProviderHistory: typeof ProviderHistory;
}

let recorder: Recorder;

beforeAll(async () => {
  recorder = await withRoutes<Recorder>(
    (routes) => routes.map((route) => (route.operation === 'cancelOrder' ? { ...route, method: 'POST' } : route)),
    {
      recordableCall: 'verify/recorder/recorded-call.ts',
      judgeSteps: 'verify/recorder/step-judging.ts',
      RecordedState: 'verify/recorder/recorded-state.ts',
      ProviderHistory: 'core/compare.ts',
    },
  );
}, 60_000);
afterAll(removeBuiltRoutes);

const exchange = (method: string, id: number, status: number): ExchangeToRecord => ({
  method,
  operationPath: `/store/orders/${id}`,
  authorization: 'Bearer petstore-dev-key',
  status,
  observed: { status, headers: new Headers(), text: '' },
  findings: [],
  startedAt: id * 10,
  endedAt: id * 10 + 1,
});

describe('the recorder and an operation of any method', () => {
  it('records a POST of the route table as a step of its operation, and judges it', async () => {
    const call = recorder.recordableCall(exchange('POST', 3, 204), 1, undefined);
    expect(call).toMatchObject({ title: '1. cancel order 3', method: 'POST', path: '/store/orders/3' });
    const recording: JudgedCalls = {
      file: 'any-method.yaml',
      calls: [{ call: call!, judgement: undefined }],
      state: new recorder.RecordedState([{ id: 3n, status: 'shipped' }]),
      judgedIn: undefined,
      model: undefined,
      history: new recorder.ProviderHistory(),
      touched: new Set(),
      orderLines: new WeakMap(),
    };
    const [step] = await recorder.judgeSteps(recording);
    expect(step!.step).toMatchObject({ request: { method: 'POST', path: '/store/orders/3' }, expect: { status: 409 } });
    expect(step!.disagreements.map((finding) => finding.code)).toContain('status-unexpected');
  });

  it('still records nothing for a method no operation of that path has', () => {
    expect(recorder.recordableCall(exchange('DELETE', 3, 405), 1, undefined)).toBeUndefined();
    expect(recorder.recordableCall(exchange('PATCH', 3, 405), 1, undefined)).toBeUndefined();
  });
});
