// Big stores: the standalone mock with 100,000 orders against the same mock with its default seed,
// measured in the same run, alternating, as ratios (issue 15's goals):
// - the first answer after start with 100,000 orders (`--seed`, JSON), against the default's;
// - resident memory, against the default's;
// - `PUT /__mock/orders` of the 100,000 orders into a default mock, and a new session of a mock
//   started with them: their time against the default's first answer, their memory against the default's;
// - the list and cancel times at 100,000 orders (cancels of the first orders and of the last ones).
// Used by bench/run.mjs; `node bench/scale.mjs [rounds] [cli]` runs it alone (cli: another build's
// dist/bin/petstore-mock.js, to compare with). Needs `npm run build`.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { key, median, mockCli, orders, startMock } from './support.mjs';

const time = async (action) => {
  const began = performance.now();
  const result = await action();
  return { ms: performance.now() - began, result };
};

async function answered(response) {
  const bytes = (await response.arrayBuffer()).byteLength;
  return { status: response.status, bytes };
}

/**
 * Measures `rounds` rounds, each: a default mock; a mock started with `count` orders (its first
 * answer, a new session, lists, cancels); a default mock given the same orders by PUT. Medians.
 */
export async function measureBigStores({ count = 100_000, rounds = 5, cli = mockCli } = {}) {
  const directory = await mkdtemp(join(tmpdir(), 'petstore-scale-'));
  try {
    const seedOrders = orders(count, 3);
    const body = JSON.stringify(seedOrders);
    const seedFile = join(directory, `orders-${count}.json`);
    await writeFile(seedFile, body);
    const samples = [];
    for (let round = 0; round < rounds; round++) {
      const sample = {};
      const plain = await startMock([], cli);
      sample.defaultFirstAnswer = plain.firstAnswerMs;
      sample.defaultRss = await plain.rss();
      await plain.stop();

      const big = await startMock(['--seed', seedFile], cli);
      sample.firstAnswer = big.firstAnswerMs;
      sample.rss = await big.rss();
      const session = await time(async () =>
        answered(await fetch(`${big.api}/store/orders`, { headers: { ...key, 'x-mock-session': `fresh-${round}` } })),
      );
      if (session.result.status !== 200) throw new Error(`a new session answered ${session.result.status}`);
      sample.sessionFirstAnswer = session.ms;
      sample.sessionRss = await big.rss();
      const lists = [];
      for (let run = 0; run < 11; run++) {
        const list = await time(async () => answered(await fetch(`${big.api}/store/orders`, { headers: key })));
        lists.push(list.ms);
        sample.listBytes = list.result.bytes;
      }
      sample.list = median(lists);
      // Ids 2, 5, 8, … are pending (one in three is shipped, from id 1). The first cancel creates the store's records.
      const cancels = [];
      const listsAfterCancel = [];
      for (let id = 2; cancels.length < 201; id += 3) {
        const cancel = await time(async () =>
          answered(await fetch(`${big.api}/store/orders/${id}`, { method: 'DELETE', headers: key })),
        );
        if (cancel.result.status !== 204) throw new Error(`cancel of ${id} answered ${cancel.result.status}`);
        cancels.push(cancel.ms);
        if (cancels.length % 40 === 2)
          listsAfterCancel.push(
            (await time(async () => answered(await fetch(`${big.api}/store/orders`, { headers: key })))).ms,
          );
      }
      sample.firstCancel = cancels[0];
      sample.cancel = median(cancels.slice(1));
      sample.listAfterCancel = median(listsAfterCancel);
      sample.rssAfterChanges = await big.rss();
      // The store's cancel searches its collection from the first record: the last orders are the dearest.
      const lastCancels = [];
      for (let id = count; lastCancels.length < 21; id--) {
        if ((id - 1) % 3 === 0) continue;
        const cancel = await time(async () =>
          answered(await fetch(`${big.api}/store/orders/${id}`, { method: 'DELETE', headers: key })),
        );
        if (cancel.result.status !== 204) throw new Error(`cancel of ${id} answered ${cancel.result.status}`);
        lastCancels.push(cancel.ms);
      }
      sample.cancelLast = median(lastCancels);
      sample.listAfterLastCancel = (
        await time(async () => answered(await fetch(`${big.api}/store/orders`, { headers: key })))
      ).ms;
      await big.stop();

      const target = await startMock([], cli);
      const put = await time(async () =>
        answered(await fetch(`${target.origin}/__mock/orders`, { method: 'PUT', body })),
      );
      if (put.result.status !== 204) throw new Error(`PUT answered ${put.result.status}`);
      sample.put = put.ms;
      sample.listAfterPut = (
        await time(async () => answered(await fetch(`${target.api}/store/orders`, { headers: key })))
      ).ms;
      sample.putRss = await target.rss();
      await target.stop();
      samples.push(sample);
    }
    const result = { count, rounds };
    for (const name of Object.keys(samples[0])) result[name] = median(samples.map((sample) => sample[name]));
    // The worst memory a big store reached in each round, against the default's of that round.
    result.rssAboveDefault = median(
      samples.map((sample) => Math.max(sample.rss, sample.sessionRss, sample.rssAfterChanges) - sample.defaultRss),
    );
    result.putRssAboveDefault = median(samples.map((sample) => sample.putRss - sample.defaultRss));
    result.firstAnswerRatio = median(samples.map((sample) => sample.firstAnswer / sample.defaultFirstAnswer));
    result.putRatio = median(samples.map((sample) => sample.put / sample.defaultFirstAnswer));
    result.sessionRatio = median(samples.map((sample) => sample.sessionFirstAnswer / sample.defaultFirstAnswer));
    return result;
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
}

/** The goals of issues 15 and 20 as table rows: goal, measured, met or not. */
export function bigStoreGoals(big) {
  const yes = (met) => (met ? 'met' : 'not met');
  const count = big.count.toLocaleString('en-US');
  const slowestCancel = Math.max(big.cancel, big.cancelLast);
  const slowestList = Math.max(big.listAfterCancel, big.listAfterLastCancel);
  return [
    [
      `first answer with ${count} orders within 3× the default's`,
      `${big.firstAnswerRatio.toFixed(2)}× (${big.firstAnswer.toFixed(0)} ms against ${big.defaultFirstAnswer.toFixed(0)} ms)`,
      yes(big.firstAnswerRatio <= 3),
    ],
    [
      `resident memory with ${count} orders within 160 MiB of the default's`,
      `+${big.rssAboveDefault.toFixed(0)} MiB (worst of: started, new session, after 201 cancels)`,
      yes(big.rssAboveDefault <= 160),
    ],
    [
      `a cancel at ${count} orders within 100 ms`,
      `${slowestCancel.toFixed(1)} ms (the last orders; ${big.cancel.toFixed(2)} ms for the first ones)`,
      yes(slowestCancel <= 100),
    ],
    [`a list after a change at ${count} orders within 0.5 s`, `${slowestList.toFixed(0)} ms`, yes(slowestList <= 500)],
    [
      `PUT /__mock/orders of ${count} orders within 3× the default's first answer`,
      `${big.putRatio.toFixed(2)}× (${big.put.toFixed(0)} ms)`,
      yes(big.putRatio <= 3),
    ],
    [
      `resident memory after that PUT within 60 MiB of the default's`,
      `+${big.putRssAboveDefault.toFixed(0)} MiB`,
      yes(big.putRssAboveDefault <= 60),
    ],
    [
      `a new session of a mock of ${count} orders: first answer within 3× the default's`,
      `${big.sessionRatio.toFixed(2)}× (${big.sessionFirstAnswer.toFixed(0)} ms)`,
      yes(big.sessionRatio <= 3),
    ],
  ];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const big = await measureBigStores({ rounds: Number(process.argv[2] ?? 5), cli: process.argv[3] });
  console.log(JSON.stringify(big, (_, value) => (typeof value === 'number' ? Number(value.toFixed(2)) : value), 2));
  for (const [goal, measured, met] of bigStoreGoals(big)) console.log(`${met.padEnd(8)} ${goal}: ${measured}`);
}
