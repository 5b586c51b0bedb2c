// Seeded protocol abuse over raw sockets: pipelines that end in a malformed request, CONNECT held
// open, unknown expectations, request-smuggling shapes, heads cut off midway, dot segments and
// invalid bytes in the target. Every sequence is built from requests that must change nothing (a
// cancel without a key, of a shipped order, smuggled, cut off or written with a path no route has),
// so that after the run the store must be exactly as seeded. One kind does change a store: a cancel
// with the key, each in a session of its own, followed on its connection by a request whose framing
// is broken (chunks, Content-Length with Transfer-Encoding, bad chunk sizes): its cancel must be either
// answered or not applied (spec gap 42). PROTOCOL_ABUSE_SEED replays a run, PROTOCOL_ABUSE_RUNS widens it.
import { existsSync, readdirSync } from 'node:fs';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendRaw, startServer } from '../support/support.js';

const seed = Number(process.env.PROTOCOL_ABUSE_SEED ?? 20261125);
const runs = Number(process.env.PROTOCOL_ABUSE_RUNS ?? 300);

/** A tiny LCG (Numerical Recipes' constants): the same seed draws the same sequences on every machine. */
function randomStream(start: number) {
  let state = start >>> 0;
  const next = () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 4294967296;
  };
  const below = (count: number) => Math.floor(next() * count);
  return { below, pick: <T>(items: readonly T[]): T => items[below(items.length)]! };
}
type Random = ReturnType<typeof randomStream>;

const key = 'Authorization: Bearer petstore-dev-key';
// Orders 1, 2 and 5 are pending (a cancel with the key would take them); 3 has shipped.
const seedOrders = [{ id: 1 }, { id: 2 }, { id: 3, status: 'shipped' as const }, { id: 5 }];
const pending = ['1', '2', '5'] as const;

/** One request's bytes: a request line, header fields, and a body, each line ended as given. */
function request(line: string, fields: readonly string[], body = '', end = '\r\n'): string {
  return [line, 'Host: 127.0.0.1', ...fields].map((part) => part + end).join('') + end + body;
}

/** Requests that change nothing whatever the server makes of them, each complete and kept alive. */
function harmless(random: Random): string {
  const id = random.pick(pending);
  return random.pick([
    () => request('GET /v1/store/orders HTTP/1.1', [key]),
    () => request('GET /v1/pets/7 HTTP/1.1', [key]),
    () => request(`DELETE /v1/store/orders/${id} HTTP/1.1`, []),
    () => request(`DELETE /v1/store/orders/${id} HTTP/1.1`, ['Authorization: Bearer wrong']),
    () => request('DELETE /v1/store/orders/3 HTTP/1.1', [key]),
    () => request('DELETE /v1/store/orders/999 HTTP/1.1', [key]),
    () => request(`OPTIONS /v1/store/orders/${id} HTTP/1.1`, ['Access-Control-Request-Method: DELETE']),
    () => request('POST /v1/store/orders HTTP/1.1', [key, 'Content-Length: 2'], '{}'),
    () => request('GET /__mock/orders HTTP/1.1', []),
  ])();
}

/** A cancel of a pending order, with the key: it would change the store if the server ever took it. */
const cancelLine = (random: Random) => `DELETE /v1/store/orders/${random.pick(pending)} HTTP/1.1`;

const malformed = (random: Random) =>
  random.pick([
    'GARBAGE\r\n\r\n',
    `${cancelLine(random)}\r\nHost: x\r\n${key}\r\nNo colon here\r\n\r\n`,
    `${cancelLine(random).replace('HTTP/1.1', 'HTTP/1.1 extra')}\r\nHost: x\r\n${key}\r\n\r\n`,
    `${cancelLine(random)}\r\nHost: x\r\n${key}\r\nContent-Length: -1\r\n\r\n`,
  ]);

const dotSegments = ['..', '.', '%2e', '%2E', '%2e%2e', '.%2E', '%2E.', '%2e.'];

/** A target that would name a pending order once its dot segments were resolved. */
function dotTarget(random: Random): string {
  const id = random.pick(pending);
  const dot = random.pick(dotSegments);
  const twoDots = dot.replace(/%2e/gi, '.') === '..';
  if (twoDots) return random.pick([`/v1/pets/${dot}/store/orders/${id}`, `/v1/store/orders/x/${dot}/${id}`]);
  return random.pick([
    `/v1/store/orders/${dot}/${id}`,
    `/v1/store/${dot}/orders/${id}`,
    `/v1/${dot}/store/orders/${id}`,
  ]);
}

// Bytes a request target may not hold (RFC 9112 §3.2, RFC 3986 §2), put anywhere in a pending order's path.
const invalidBytes = ['\x00', '\x01', '\x7f', '\x80', '\xff', '\\', '"', '<', '>', '^', '`', '{', '|', '}', ' '];

function invalidTarget(random: Random): string {
  const path = `/v1/store/orders/${random.pick(pending)}`;
  if (random.below(3) === 0) {
    // A slash written as a backslash, which URL parsing reads as a slash.
    const slashes = [...path.matchAll(/\//g)].map((match) => match.index);
    const at = random.pick(slashes.slice(1));
    return `${path.slice(0, at)}\\${path.slice(at + 1)}`;
  }
  // Inside the path, never at its end: a space there would only end the target (RFC 9112 §3 lets a parser take it so).
  const at = 1 + random.below(path.length - 1);
  return path.slice(0, at) + random.pick(invalidBytes) + path.slice(at);
}

/** Request-smuggling shapes around a cancel with the key: each must be refused whole. */
function smuggled(random: Random): string {
  const line = cancelLine(random);
  const hidden = `${cancelLine(random)}\r\nHost: x\r\n${key}\r\n\r\n`;
  return random.pick([
    () => request(line, [key, 'Content-Length: 4', 'Transfer-Encoding: chunked'], `0\r\n\r\n${hidden}`),
    () => request(line, [key, 'Transfer-Encoding: chunked', 'Content-Length: 0'], `0\r\n\r\n${hidden}`),
    () => request(line, [key, 'Content-Length: 0', `Content-Length: ${hidden.length}`], hidden),
    () => request(line, [key, 'Transfer-Encoding: chunked, identity'], `0\r\n\r\n${hidden}`),
    () => request(line, [key, 'Transfer-Encoding: identity, chunked, identity'], '0\r\n\r\n'),
    () => request(line, ['Authorization: Bearer', ' petstore-dev-key', 'Connection: close']),
    () => request(line, [key, 'X-Note: one', '\tfolded', 'Connection: close']),
    () => request(line, [key, 'Connection: close'], '', '\n'),
    () => `${line}\r\nHost: x\n${key}\r\nConnection: close\r\n\r\n`,
    () => request(line, [key, 'Transfer-Encoding: chunked'], `5x\r\nhello\r\n0\r\n\r\n${hidden}`),
    () => request(line, [key, 'Transfer-Encoding: chunked'], `${'f'.repeat(random.pick([17, 20, 40]))}\r\nhello`),
  ])();
}

/** Requests whose framing Node's parser refuses once their head is read: each follows a whole request. */
function brokenFraming(random: Random): string {
  const hidden = `${cancelLine(random)}\r\nHost: x\r\n${key}\r\n\r\n`;
  const line = random.pick(['POST /v1/store/orders HTTP/1.1', 'GET /v1/store/orders HTTP/1.1', cancelLine(random)]);
  return random.pick([
    () => request(line, ['Transfer-Encoding: chunked'], 'zz\r\n'),
    () => request(line, [key, 'Transfer-Encoding: chunked'], `5x\r\nhello\r\n0\r\n\r\n${hidden}`),
    () => request(line, [key, 'Transfer-Encoding: chunked'], `${'f'.repeat(random.pick([17, 20, 40]))}\r\nhello`),
    () => request(line, ['Transfer-Encoding: chunked'], '-1\r\n'),
    () => request(line, ['Transfer-Encoding: chunked'], '2\r\n{}XX0\r\n\r\n'),
    () => request(line, [key, 'Content-Length: 4', 'Transfer-Encoding: chunked'], `0\r\n\r\n${hidden}`),
    () => request(line, [key, 'Transfer-Encoding: chunked', 'Content-Length: 0'], `0\r\n\r\n${hidden}`),
    () => request(line, [key, 'Content-Length: 1', 'Content-Length: 2'], '{}'),
    () => request(line, [key, 'Transfer-Encoding: chunked, identity'], `0\r\n\r\n${hidden}`),
  ])();
}

type Ending = 'read' | 'held' | 'end' | 'destroy';
interface Sequence {
  kind: string;
  bytes: string;
  /** How the client ends: read until the server closes, hold its side open until then, or close after writing. */
  ending: Ending;
  /** A cancel that changes a store if applied: its session, the order, and how many requests precede it. */
  cancels?: { session: string; order: string; position: number };
}

let sessionsNamed = 0;

const kinds: readonly ((random: Random) => Sequence)[] = [
  (random) => {
    const before = Array.from({ length: 1 + random.below(3) }, () => harmless(random)).join('');
    return { kind: 'pipelined, then malformed', bytes: before + malformed(random), ending: 'read' };
  },
  (random) => {
    const tunnel = random.below(2) === 0 ? '' : `${cancelLine(random)}\r\nHost: x\r\n${key}\r\n\r\n`;
    const bytes = `CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n${tunnel}`;
    return { kind: 'CONNECT to a host, held open', bytes, ending: 'held' };
  },
  (random) => {
    const tunnel = random.below(2) === 0 ? '' : `${cancelLine(random)}\r\nHost: x\r\n${key}\r\n\r\n`;
    const target = random.pick(['/v1/store/orders', `/v1/store/orders/${random.pick(pending)}`, '/v1/nothing']);
    const bytes = `CONNECT ${target} HTTP/1.1\r\nHost: x\r\n${key}\r\n\r\n${tunnel}`;
    return { kind: 'CONNECT to a path', bytes, ending: random.pick(['read', 'held'] as const) };
  },
  (random) => {
    const expectation = random.pick(['teapot', '100-continuez', 'x=y', '', 'continue']);
    const bytes = random.pick([
      () => request(`DELETE /v1/store/orders/${random.pick(pending)} HTTP/1.1`, [`Expect: ${expectation}`]),
      () => request('DELETE /v1/store/orders/3 HTTP/1.1', [key, `Expect: ${expectation}`]),
      () => request('GET /v1/store/orders HTTP/1.1', [key, `Expect: ${expectation}`]),
    ])();
    return {
      kind: 'an unknown Expect',
      bytes: bytes + request('GET /v1/pets/1 HTTP/1.1', ['Connection: close']),
      ending: 'read',
    };
  },
  (random) => ({ kind: 'request smuggling', bytes: smuggled(random), ending: 'read' }),
  (random) => {
    const position = random.below(3);
    const before = Array.from({ length: position }, () => harmless(random)).join('');
    const order = random.pick(pending);
    const session = `applied-${sessionsNamed++}`;
    const cancel = request(`DELETE /v1/store/orders/${order} HTTP/1.1`, [key, `X-Mock-Session: ${session}`]);
    const ending = random.pick(['read', 'held'] as const);
    const cancels = { session, order, position };
    return { kind: 'a cancel, then broken framing', bytes: before + cancel + brokenFraming(random), ending, cancels };
  },
  (random) => {
    const head = request(cancelLine(random), [key, 'X-Slow: yes']);
    const cut = 1 + random.below(head.length - 1);
    return {
      kind: 'a head cut off midway',
      bytes: head.slice(0, cut),
      ending: random.pick(['end', 'destroy'] as const),
    };
  },
  (random) => {
    const count = 1 + random.below(3);
    const lines = Array.from({ length: count }, (_, index) =>
      request(`DELETE ${dotTarget(random)} HTTP/1.1`, index === count - 1 ? [key, 'Connection: close'] : [key]),
    );
    return { kind: 'dot segments', bytes: lines.join(''), ending: 'read' };
  },
  (random) => ({
    kind: 'invalid bytes in the target',
    bytes: request(`DELETE ${invalidTarget(random)} HTTP/1.1`, [key, 'Connection: close']),
    ending: 'read',
  }),
];

interface Outcome {
  sequence: Sequence;
  received: string;
  error: string | undefined;
}

/** Plays one sequence on a fresh socket and resolves once the socket has closed, with what came back. */
function play(port: number, sequence: Sequence): Promise<Outcome> {
  return new Promise((resolve) => {
    const socket = connect({ port, host: '127.0.0.1', allowHalfOpen: sequence.ending === 'held' });
    let received = '';
    let error: string | undefined;
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => (received += chunk));
    socket.on('error', (failure: NodeJS.ErrnoException) => (error = failure.code ?? failure.message));
    // Held open: the client keeps its side until the server has ended its own, then lets go.
    socket.on('end', () => sequence.ending === 'held' && socket.destroy());
    socket.on('close', () => resolve({ sequence, received, error }));
    socket.on('connect', () =>
      socket.write(Buffer.from(sequence.bytes, 'latin1'), () => {
        if (sequence.ending === 'end') socket.end();
        if (sequence.ending === 'destroy') socket.destroy();
      }),
    );
  });
}

/**
 * The statuses of the answers in what a socket received, or why it is not a run of answers: each
 * must begin with a status line, and be whole (its Content-Length of body) unless the connection was reset.
 */
function answersIn(outcome: Outcome): number[] | string {
  const statuses: number[] = [];
  let rest = outcome.received;
  while (rest.length > 0) {
    const status = /^HTTP\/1\.1 (\d{3}) [^\r\n]*\r\n/.exec(rest);
    if (status === null) return `an answer without a status line: ${JSON.stringify(rest.slice(0, 80))}`;
    statuses.push(Number(status[1]));
    const end = rest.indexOf('\r\n\r\n');
    const length = Number(/\r\ncontent-length: *(\d+)/i.exec(rest.slice(0, end))?.[1] ?? 0);
    if (end === -1 || rest.length < end + 4 + length)
      return outcome.error === 'ECONNRESET' ? statuses : `an answer cut short: ${JSON.stringify(rest.slice(0, 80))}`;
    rest = rest.slice(end + 4 + length);
  }
  return statuses;
}

const hasProc = existsSync('/proc/self/fd');
const descriptors = () => readdirSync('/proc/self/fd').length;

/** Turns of the event loop until the condition holds, at most `turns` of them; whether it held. */
async function within(turns: number, condition: () => boolean): Promise<boolean> {
  for (let turn = 0; turn < turns; turn++) {
    if (condition()) return true;
    await new Promise((resolve) => setImmediate(resolve));
  }
  return condition();
}

describe(`protocol abuse: ${runs} seeded raw-socket sequences (seed ${seed}, PROTOCOL_ABUSE_SEED replays)`, () => {
  let mock: Awaited<ReturnType<typeof startServer>>;
  let port: number;
  let descriptorsBefore = 0;
  let seededOrders: unknown;
  let outcomes: Outcome[] = [];

  beforeAll(async () => {
    mock = await startServer({ seed: seedOrders, journalSize: 100_000, sessions: { limit: runs } });
    port = Number(new URL(mock.origin).port);
    descriptorsBefore = hasProc ? descriptors() : 0;
    seededOrders = await sendRaw(mock.origin, { method: 'GET', path: '/__mock/orders' });
    const random = randomStream(seed);
    const sequences = Array.from({ length: runs }, () => random.pick(kinds)(random));
    // Ten clients at a time: the server meets several abusers at once, and the run stays short.
    for (let start = 0; start < sequences.length; start += 10)
      outcomes.push(...(await Promise.all(sequences.slice(start, start + 10).map((sequence) => play(port, sequence)))));
  });
  afterAll(async () => {
    outcomes = [];
    await mock?.close();
  });

  const described = (outcome: Outcome, index: number) =>
    `sequence ${index} (${outcome.sequence.kind}, seed ${seed}): ${JSON.stringify(outcome.sequence.bytes)}`;

  it('answers every sequence with whole answers that begin with a status line, none a 5xx', () => {
    const problems = outcomes.flatMap((outcome, index) => {
      const answers = answersIn(outcome);
      if (typeof answers === 'string') return [`${described(outcome, index)}: ${answers}`];
      return answers.filter((status) => status >= 500).map((status) => `${described(outcome, index)}: ${status}`);
    });
    expect(problems).toEqual([]);
  });

  it.skipIf(!hasProc)(
    'lets go of every socket once the clients have closed theirs (Linux: /proc/self/fd; skipped where /proc is absent)',
    async () => {
      // The server's side of each socket goes once it has written its answer or seen the client leave.
      const settled = await within(100_000, () => descriptors() <= descriptorsBefore + 4);
      expect(settled, `${descriptors()} descriptors open, ${descriptorsBefore} before the run`).toBe(true);
    },
  );

  it('leaves the store exactly as seeded', async () => {
    expect(await sendRaw(mock.origin, { method: 'GET', path: '/__mock/orders' })).toEqual(seededOrders);
  });

  it('answers every cancel it applies, whatever broken request follows it on its connection', async () => {
    const problems: string[] = [];
    for (const [index, outcome] of outcomes.entries()) {
      const cancels = outcome.sequence.cancels;
      if (cancels === undefined) continue;
      const headers = { 'x-mock-session': cancels.session };
      const orders = await sendRaw(mock.origin, { method: 'GET', path: '/__mock/orders', headers });
      const journal = await sendRaw(mock.origin, { method: 'GET', path: '/__mock/requests?status=204', headers });
      if (orders === 'connection dropped' || journal === 'connection dropped')
        throw new Error('the control plane dropped');
      const order = (JSON.parse(orders.body) as { id: number; status: string }[]).find(
        (stored) => String(stored.id) === cancels.order,
      );
      const applied = order?.status === 'cancelled';
      const journaled = (JSON.parse(journal.body) as unknown[]).length;
      const answers = answersIn(outcome);
      const answered = typeof answers !== 'string' && answers[cancels.position] === 204;
      if (applied !== answered || journaled !== (applied ? 1 : 0))
        problems.push(`${described(outcome, index)}: applied ${applied}, journaled ${journaled}, answered ${answered}`);
    }
    expect(outcomes.some((outcome) => outcome.sequence.cancels !== undefined)).toBe(true);
    expect(problems).toEqual([]);
  });

  it('journals no successful cancel', async () => {
    const journal = await sendRaw(mock.origin, { method: 'GET', path: '/__mock/requests?operation=cancelOrder' });
    if (journal === 'connection dropped') throw new Error('the journal could not be read');
    const cancels = JSON.parse(journal.body) as { path: string; status: number }[];
    // The sequences that got a 204 besides their preflights' (an OPTIONS answers 204): where to look first.
    const answered204 = outcomes.flatMap((outcome, index) => {
      const answers = answersIn(outcome);
      const preflights = outcome.sequence.bytes.match(/OPTIONS \//g)?.length ?? 0;
      const noContent = typeof answers === 'string' ? 0 : answers.filter((status) => status === 204).length;
      return noContent > preflights ? [described(outcome, index)] : [];
    });
    expect(
      cancels.filter((entry) => entry.status === 204),
      answered204.join('\n'),
    ).toEqual([]);
  });
});

// The shapes as first reported (issue 48): the cancel came back nowhere, yet it was applied and journaled as 204.
describe('a cancel followed on its connection by a request whose framing is broken', () => {
  const cancel = `DELETE /v1/store/orders/2 HTTP/1.1\r\nHost: x\r\n${key}\r\n\r\n`;
  it.each([
    ['a bad chunk size', 'POST /v1/store/orders HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n'],
    [
      'a chunk size past 64 bits',
      'POST /v1/store/orders HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nfffffffffffffffffffff\r\n',
    ],
    [
      'Content-Length with Transfer-Encoding',
      'POST /v1/store/orders HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n',
    ],
  ])('answers the cancel (204) before the 400, when it is followed by %s', async (_shape, broken) => {
    const mock = await startServer({ seed: seedOrders });
    try {
      const outcome = await play(Number(new URL(mock.origin).port), {
        kind: 'fixed',
        bytes: cancel + broken,
        ending: 'read',
      });
      expect(answersIn(outcome)).toEqual([204, 400]);
      const orders = await sendRaw(mock.origin, { method: 'GET', path: '/__mock/orders' });
      expect(orders !== 'connection dropped' && JSON.parse(orders.body)[1]).toMatchObject({
        id: 2,
        status: 'cancelled',
      });
    } finally {
      await mock.close();
    }
  });
});
