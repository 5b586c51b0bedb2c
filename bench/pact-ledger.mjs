// What keeping every distinct call for the consumer's pact (mocks/pact/pact-ledger.ts) costs a request:
// this build's mock against another build's (BEFORE_MOCKS: its dist/mocks/index.js, say one built
// before the ledger), in one process, alternating rounds, `mock.handle` with no network. Workloads:
// the list of 100 orders, and the cancel of a pending order among 100 (made pending again between
// batches, untimed). Prints each round's requests a second and the medians' ratio (this / before).
// `BEFORE_MOCKS=/path/to/old/dist/mocks/index.js node bench/pact-ledger.mjs [rounds] [seconds]`; needs `npm run build`.
import { pathToFileURL } from 'node:url';
import { rate } from './in-process.mjs';
import { key, median, orders } from './support.mjs';

const listUrl = 'http://petstore.test/v1/store/orders';
async function workloads(modulePath) {
  const { createOrderMock } = await import(pathToFileURL(modulePath).href);
  const listMock = createOrderMock({ seed: orders(100) });
  const cancelMock = createOrderMock({ seed: Array.from({ length: 100 }, (_, index) => ({ id: index + 1 })) });
  const cancelOrders = await cancelMock.collection();
  let nextId = 1;
  const restore = async () => {
    await cancelOrders.updateMany((query) => query.where({ status: 'cancelled' }), {
      data(order) {
        order.status = 'pending';
      },
    });
    if (nextId > 100) nextId = 1;
  };
  return {
    list: [() => listMock.handle(new Request(listUrl, { headers: key })), async () => {}],
    cancel: [
      () => cancelMock.handle(new Request(`${listUrl}/${nextId++}`, { method: 'DELETE', headers: key })),
      restore,
    ],
  };
}

const [rounds = 5, seconds = 2] = process.argv.slice(2).map(Number);
const before = process.env.BEFORE_MOCKS;
if (before === undefined) throw new Error('BEFORE_MOCKS: the dist/mocks/index.js of the build to compare with');
const builds = {
  before: await workloads(before),
  this: await workloads(new URL('../dist/mocks/index.js', import.meta.url).pathname),
};
for (const workload of ['list', 'cancel']) {
  const rates = { before: [], this: [] };
  for (let round = 0; round < rounds; round++)
    for (const name of round % 2 === 0 ? ['before', 'this'] : ['this', 'before']) {
      const [action, between] = builds[name][workload];
      rates[name].push(await rate(seconds, action, between));
    }
  const ratio = median(rates.this) / median(rates.before);
  console.log(
    `${workload}: before ${rates.before.map(Math.round).join(', ')}; this ${rates.this.map(Math.round).join(', ')} a second; medians' ratio ${ratio.toFixed(3)}`,
  );
}
