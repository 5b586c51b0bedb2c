// Every bound of the standalone mock reached at its default, and what the server then holds in memory
// (issue 26): 100 named sessions, each with 100 faults in force and a full journal (1,000 calls),
// and 500,000 orders across the sessions, their records created (a cancel in each big session).
// Also: how long another session's request waits while `GET /__mock/orders` writes 250,000 orders.
// `node bench/bounds.mjs` (needs `npm run build`); prints a Markdown table for bench/RESULTS.md.
import { key, median, orders, startMock } from './support.mjs';

const sessions = 100;
const faultsPerSession = 100;
const journalSize = 1_000;
const maxOrders = 500_000;
const bigSession = 250_000;

async function inParallel(count, width, task) {
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < count) await task(next++);
    }),
  );
}

const mock = await startMock();
const control = (path, init = {}) => fetch(`${mock.origin}/__mock${path}`, init);
const rssAtStart = await mock.rss();

// 100 sessions, each with 100 faults (on the pet read, so the lists below are answered) and 1,000 calls journaled.
const faults = JSON.stringify(Array.from({ length: faultsPerSession }, () => ({ operation: 'readPet', status: 503 })));
await inParallel(sessions, 8, async (index) => {
  const headers = { 'x-mock-session': `s${index}` };
  const added = await control('/faults', { method: 'POST', headers, body: faults });
  if (added.status !== 201) throw new Error(`faults of s${index}: ${added.status}`);
  const oneMore = await control('/faults', { method: 'POST', headers, body: '{"operation":"readPet","status":503}' });
  if (oneMore.status !== 409) throw new Error(`the 101st fault answered ${oneMore.status}`);
});
const calls = sessions * journalSize;
await inParallel(calls, 16, async (index) => {
  const response = await fetch(`${mock.api}/store/orders`, { headers: { 'x-mock-session': `s${index % sessions}` } });
  await response.arrayBuffer();
});
const rssWithSessions = await mock.rss();

// 500,000 orders in all: the sessions on the seed hold its orders each; the big sessions take what is left.
const seedSize = (await (await control('/orders')).json()).length;
let room = maxOrders - (sessions + 1) * seedSize;
const big = [];
for (let index = 0; room > 0; index++) {
  const count = Math.min(bigSession, room + seedSize);
  const body = JSON.stringify(orders(count, 3));
  const response = await control('/orders', { method: 'PUT', headers: { 'x-mock-session': `s${index}` }, body });
  if (response.status !== 204)
    throw new Error(`PUT of ${count} orders answered ${response.status}: ${await response.text()}`);
  room -= count - seedSize;
  big.push(`s${index}`);
}
// s99 holds the seed's 100 orders: 101 in their place would pass the limit by one.
const refused = await control('/orders', {
  method: 'PUT',
  headers: { 'x-mock-session': 's99' },
  body: JSON.stringify(orders(101)),
});
if (refused.status !== 409) throw new Error(`an order past the limit answered ${refused.status}`);
for (const name of big) {
  const cancel = await fetch(`${mock.api}/store/orders/2`, {
    method: 'DELETE',
    headers: { ...key, 'x-mock-session': name },
  });
  if (cancel.status !== 204) throw new Error(`cancel in ${name} answered ${cancel.status}`);
}
const rssAtBounds = await mock.rss();

// Another session's list while GET /__mock/orders writes 250,000 orders.
const waits = [];
let written = 0;
for (let round = 0; round < 3; round++) {
  const whole = control('/orders', { headers: { 'x-mock-session': big[0] } }).then(async (response) => {
    written = (await response.arrayBuffer()).byteLength;
    return performance.now();
  });
  let done = false;
  whole.then(() => (done = true));
  while (!done) {
    const began = performance.now();
    await (await fetch(`${mock.api}/store/orders`, { headers: { ...key, 'x-mock-session': 'probe' } })).arrayBuffer();
    waits.push(performance.now() - began);
  }
  await whole;
}
await mock.stop();

const row = (what, value) => `| ${what} | ${value} |`;
console.log(
  [
    `Measured ${new Date().toISOString()} by \`node bench/bounds.mjs\` (Node ${process.version}).`,
    '',
    '| at the default bounds | |',
    '|---|---|',
    row('RSS after start-up (default seed)', `${rssAtStart.toFixed(0)} MiB`),
    row(
      `RSS with ${sessions} sessions, ${faultsPerSession} faults and ${journalSize} journaled calls each`,
      `${rssWithSessions.toFixed(0)} MiB`,
    ),
    row(
      `RSS with that and ${maxOrders.toLocaleString('en')} orders, records created (${big.length} sessions of up to ${bigSession.toLocaleString('en')})`,
      `${rssAtBounds.toFixed(0)} MiB`,
    ),
    row(
      `another session's list while \`GET /__mock/orders\` writes ${bigSession.toLocaleString('en')} orders (${(written / 1048576).toFixed(0)} MiB): median / worst of ${waits.length}`,
      `${median(waits).toFixed(1)} ms / ${Math.max(...waits).toFixed(0)} ms`,
    ),
  ].join('\n'),
);
