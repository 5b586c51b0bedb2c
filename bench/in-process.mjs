// In-process, per request: the kit's mock against a bare MSW handler that answers the same bytes,
// in one process, alternating, over no network at all (MSW intercepts; `mock.handle` needs none):
// - `mock.handle(request)` (the pipeline alone) against `getResponse` over the bare handler;
// - `getResponse` over the kit's handlers (what `setupServer` calls) against the same over the bare one;
// - `fetch` under one `setupServer`, given the kit's handlers or the bare one in turn (`resetHandlers`).
// Workloads: the list of 100 orders (`GET /v1/store/orders`, the body read whole) and the cancel of a
// pending order among 100 (`DELETE /v1/store/orders/{id}`, ids 1 to 100 in turn, 204). Requests are
// timed in batches of 50; between batches, untimed, the cancelled orders are made pending again
// through the store's collection, so every cancel searches the same 100 orders.
// Used by bench/run.mjs; `node bench/in-process.mjs [rounds] [seconds]` runs it alone (MOCKS_MODULE: another
// build's dist/mocks/index.js, to compare with). Needs `npm run build`.
import { fileURLToPath } from 'node:url';
import { getResponse, http } from 'msw';
import { setupServer } from 'msw/node';
import { key, median, orders } from './support.mjs';

const origin = 'http://petstore.test';
const listUrl = `${origin}/v1/store/orders`;
const batch = 50;

/** Runs `action` in batches for about `seconds` of timed work, `between()` untimed after each batch; requests a second. */
export async function rate(seconds, action, between) {
  // A short warm-up, then the measured span.
  for (let index = 0; index < 4 * batch; index++) {
    await action();
    if ((index + 1) % batch === 0) await between();
  }
  let count = 0;
  let timed = 0;
  while (timed < seconds * 1000) {
    const began = performance.now();
    for (let index = 0; index < batch; index++) await action();
    timed += performance.now() - began;
    count += batch;
    await between();
  }
  return count / (timed / 1000);
}

/**
 * Measures `rounds` rounds of `seconds` each for every way and workload, alternating; medians of the
 * requests a second, and each kit way's ratio to the bare handler measured in the same round.
 */
export async function measureInProcess({ rounds = 3, seconds = 2, mocks = '../dist/mocks/index.js' } = {}) {
  const { createOrderMock } = await import(mocks);
  const listMock = createOrderMock({ seed: orders(100) });
  const listAnswer = await listMock.handle(new Request(listUrl, { headers: key }));
  const listBytes = Buffer.concat(listAnswer.body);
  const bare = [
    http.get(
      `${origin}/v1/store/orders`,
      () => new Response(listBytes, { headers: { 'content-type': 'application/json' } }),
    ),
    http.delete(`${origin}/v1/store/orders/:id`, () => new Response(null, { status: 204 })),
  ];
  const cancelMock = createOrderMock({ seed: Array.from({ length: 100 }, (_, index) => ({ id: index + 1 })) });
  const cancelOrders = await cancelMock.collection();
  let nextId = 1;
  // After each batch: the cancelled orders pending again, ids from 1 again once all 100 were cancelled.
  const restore = async () => {
    if (nextId <= 100) return;
    await cancelOrders.updateMany((q) => q.where({ status: 'cancelled' }), {
      data: (order) => {
        order.status = 'pending';
      },
    });
    nextId = 1;
  };
  const cancelRequest = () => new Request(`${origin}/v1/store/orders/${nextId++}`, { method: 'DELETE', headers: key });
  const listRequest = () => new Request(listUrl, { headers: key });
  const check = (status, expected) => {
    if (status !== expected) throw new Error(`answered ${status}, not ${expected}`);
  };

  const server = setupServer();
  server.listen({ onUnhandledRequest: 'error' });
  const ways = {
    'bare MSW handler (getResponse)': {
      list: async () => {
        const response = await getResponse(bare, listRequest());
        check(response.status, 200);
        await response.arrayBuffer();
      },
      cancel: async () => check((await getResponse(bare, cancelRequest())).status, 204),
    },
    'mock.handle': {
      list: async () => check((await listMock.handle(listRequest())).status, 200),
      cancel: async () => check((await cancelMock.handle(cancelRequest())).status, 204),
    },
    "getResponse over the kit's handlers": {
      list: async () => {
        const response = await getResponse(listMock.handlers, listRequest());
        check(response.status, 200);
        await response.arrayBuffer();
      },
      cancel: async () => check((await getResponse(cancelMock.handlers, cancelRequest())).status, 204),
    },
    'setupServer, bare MSW handler': {
      handlers: { list: bare, cancel: bare },
      list: async () => {
        const response = await fetch(listUrl, { headers: key });
        check(response.status, 200);
        await response.arrayBuffer();
      },
      cancel: async () =>
        check((await fetch(`${origin}/v1/store/orders/${nextId++}`, { method: 'DELETE', headers: key })).status, 204),
    },
  };
  ways["setupServer, the kit's handlers"] = {
    handlers: { list: listMock.handlers, cancel: cancelMock.handlers },
    list: ways['setupServer, bare MSW handler'].list,
    cancel: ways['setupServer, bare MSW handler'].cancel,
  };

  const samples = {};
  for (const name of Object.keys(ways)) samples[name] = { list: [], cancel: [] };
  try {
    for (let round = 0; round < rounds; round++) {
      for (const workload of ['list', 'cancel']) {
        for (const [name, way] of Object.entries(ways)) {
          if (way.handlers) server.resetHandlers(...way.handlers[workload]);
          samples[name][workload].push(await rate(seconds, way[workload], restore));
        }
      }
    }
  } finally {
    server.close();
  }
  const result = {};
  for (const [name, { list, cancel }] of Object.entries(samples)) {
    const bareOf = name.startsWith('setupServer') ? 'setupServer, bare MSW handler' : 'bare MSW handler (getResponse)';
    const ratios = (workload, values) => median(values.map((value, round) => value / samples[bareOf][workload][round]));
    result[name] = {
      list: median(list),
      cancel: median(cancel),
      listRatio: ratios('list', list),
      cancelRatio: ratios('cancel', cancel),
      against: bareOf,
    };
  }
  return { rounds, seconds, ways: result };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const rounds = Number(process.argv[2] ?? 3);
  const seconds = Number(process.argv[3] ?? 2);
  const { ways } = await measureInProcess({ rounds, seconds, mocks: process.env.MOCKS_MODULE });
  console.log('| way | list req/s | × bare | cancel req/s | × bare |');
  console.log('|---|---|---|---|---|');
  for (const [name, way] of Object.entries(ways))
    console.log(
      `| ${name} | ${way.list.toFixed(0)} | ${way.listRatio.toFixed(2)} | ${way.cancel.toFixed(0)} | ${way.cancelRatio.toFixed(2)} |`,
    );
}
