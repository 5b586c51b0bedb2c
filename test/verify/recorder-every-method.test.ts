// The recorder records a call of every operation of the route table, whatever its method: the next
// operation of the document may be a POST (a ship, say), and a recorder that knew only GET and DELETE
// counted such calls as skipped and inferred the state from the calls around them. Here the route
// table's cancel is a POST, so that a method the recorder never named is exercised in the fast project.
import { describe, expect, it, vi } from 'vitest';
import { ProviderHistory } from '../../core/compare.js';
import { recordableCall, type ExchangeToRecord } from '../../verify/recorder/recorded-call.js';
import { RecordedState } from '../../verify/recorder/recorded-state.js';
import { judgeSteps, type JudgedCalls } from '../../verify/recorder/step-judging.js';

vi.mock('../../spec/generated/contract.js', async (importOriginal) => {
  const original = await importOriginal<typeof import('../../spec/generated/contract.js')>();
  return {
    ...original,
    routes: original.routes.map((route) => (route.operation === 'cancelOrder' ? { ...route, method: 'POST' } : route)),
  };
});

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
    const call = recordableCall(exchange('POST', 3, 204), 1, undefined);
    expect(call).toMatchObject({ title: '1. cancel order 3', method: 'POST', path: '/store/orders/3' });
    const recording: JudgedCalls = {
      file: 'any-method.yaml',
      calls: [{ call: call!, judgement: undefined }],
      state: new RecordedState([{ id: 3n, status: 'shipped' }]),
      judgedIn: undefined,
      model: undefined,
      history: new ProviderHistory(),
      touched: new Set(),
      orderLines: new WeakMap(),
    };
    const [step] = await judgeSteps(recording);
    expect(step!.step).toMatchObject({ request: { method: 'POST', path: '/store/orders/3' }, expect: { status: 409 } });
    expect(step!.disagreements.map((finding) => finding.code)).toContain('status-unexpected');
  });

  it('still records nothing for a method no operation of that path has', () => {
    expect(recordableCall(exchange('DELETE', 3, 405), 1, undefined)).toBeUndefined();
    expect(recordableCall(exchange('PATCH', 3, 405), 1, undefined)).toBeUndefined();
  });
});
