// What the mock's everyday refusals cost in process: `mock.handle` of a list without a key (401), a
// list with a wrong key (401), a cancel of an unknown order (404) and of a shipped one (409), in turn,
// `count` requests in all after 2,000 of warm-up; CPU (user + sys) of the loop. The suite's explorations
// and hostile runs answer thousands of these. In process, against a built dist/ (`npm run build` first).
// Usage: node bench/refusals.mjs [count, default 40000] [dist folder, default ../dist]
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const count = Number(process.argv[2] ?? 40_000);
const dist = resolve(process.argv[3] ?? new URL('../dist', import.meta.url).pathname);
const { createOrderMock } = await import(pathToFileURL(`${dist}/mocks/index.js`).href);

const mock = createOrderMock();
const base = 'http://127.0.0.1/v1/store/orders';
const requests = [
  () => new Request(base),
  () => new Request(base, { headers: { authorization: 'Bearer wrong-key' } }),
  () => new Request(`${base}/99`, { method: 'DELETE', headers: { authorization: 'Bearer petstore-dev-key' } }),
  () => new Request(`${base}/3`, { method: 'DELETE', headers: { authorization: 'Bearer petstore-dev-key' } }),
];
const expected = [401, 401, 404, 409];

async function send(total) {
  for (let index = 0; index < total; index++) {
    const reply = await mock.handle(requests[index % requests.length]());
    if (reply?.status !== expected[index % requests.length]) throw new Error(`unexpected answer ${reply?.status}`);
  }
}

await send(2_000);
const start = process.cpuUsage();
await send(count);
const used = process.cpuUsage(start);
const ms = (used.user + used.system) / 1000;
console.log(`${count} refusals: ${ms.toFixed(0)} ms CPU, ${((ms * 1000) / count).toFixed(1)} µs each`);
