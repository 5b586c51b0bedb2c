// A provider of the order interface written from scratch on raw sockets (not the kit's mock), with a
// switch for every way a real service can break the contract or honestly differ from the mock. Raw
// sockets, so that it can do at the HTTP level what no framework would let it: bytes after a 204, a
// body cut short, a gzip that is not gzip, a stall after the headers, HTTP/1.0 close-delimited bodies.
import { createServer, type Socket } from 'node:net';
import { gzipSync } from 'node:zlib';
import { parseInt64, toInt64 } from '../../core/int64.js';
import { parseJson } from '../../core/parse-json.js';
import { stringifyJson } from '../../core/stringify-json.js';

/** The key the hostile provider accepts. */
export const hostileKey = 'hostile-provider-key';

/** Every switch: off, the provider is correct. */
export interface Switches {
  // Honest variations: each must pass.
  charset?: boolean;
  fractionalShipDates?: boolean;
  offsetShipDates?: boolean;
  gzip?: boolean;
  chunked?: boolean;
  http10?: boolean;
  extraOrderFields?: boolean;
  extraErrorFields?: boolean;
  conflictWithoutBody?: boolean;
  reverseListOrder?: boolean;
  keepCancelledListed?: boolean;
  secondCancelConflict?: boolean;
  // Defects: each must fail.
  bytesAfter204?: boolean;
  fractionalId?: boolean;
  closeMidBody?: boolean;
  badGzip?: boolean;
  stallBody?: boolean;
  stallHeaders?: boolean;
  duplicateIds?: boolean;
  wrongField?: 'petId' | 'quantity' | 'complete' | 'shipDate';
  reviveOnSecondCancel?: boolean;
  lossyIds?: boolean;
  noChallenge?: boolean;
  basicChallenge?: boolean;
  acceptBasic?: boolean;
  petAcceptsAnyKey?: boolean;
  phantomOrder?: boolean;
  invalidUtf8?: boolean;
  byteOrderMark?: boolean;
  deprecationTrue?: boolean;
  sunsetSoon?: boolean;
  lookupBeforeAuth?: boolean;
  redirectList?: boolean;
  cancelRemovesNeighbour?: boolean;
  /** Accepts any Bearer token that starts with the key. */
  keyPrefixMatch?: boolean;
  /** Serves the list at `/store/orders/` (a trailing slash) without asking for a key. */
  openTrailingSlash?: boolean;
  /** A refused second cancel puts the cancelled order back into the list. */
  relistOnSecondCancel?: boolean;
  /** Keeps quantities in 32 bits: 4294967296 comes back as 0. */
  int32Quantity?: boolean;
  // Defects the fixed scenarios and the pact cannot reach: exploration must find them.
  /** Lists at most this many orders: a list that silently pages. */
  pageAfter?: number;
  /** In a store of more than this many orders, a cancel cancels the order after the one asked for. */
  wrongOrderAbove?: number;
  /** Refuses to cancel an order with a negative id (404). */
  refuseNegativeIds?: boolean;
  /** After this many successful cancels in one state, a cancel answers 204 and changes nothing. */
  leakAfterCancels?: number;
  /** Breaks the first list it answers (the preflight's), then answers honestly: cut short, badly framed or badly encoded. */
  firstListBroken?: 'cut' | 'framing' | 'encoding';
  /** Answers 500 to the list of an empty store. */
  emptyStoreErrors?: boolean;
  /**
   * Checks, waits, then cancels: concurrent cancels of one pending order all succeed. The wait lasts
   * until every connection open has sent its request, so requests sent at once have all been checked
   * before any cancel is written, however slowly the machine runs them.
   */
  nonAtomicCancel?: boolean;
  /** Sends these Content-Type field lines, each one on its own, instead of application/json (two fields, a broken parameter). */
  contentTypes?: readonly string[];
  /** Sends, for every list, the bytes this gives for the list's JSON, in its Content-Encoding: a gzip bomb, or an honest list padded to a size. */
  listBody?: (json: Buffer) => { body: Buffer<ArrayBuffer>; contentEncoding: string };
  /** Cancels a shipped order as if it were pending (204). */
  cancelShipped?: boolean;
  /** Never answers a cancel: lists and state changes are answered, so a run starts and cannot finish. */
  stallCancels?: boolean;
  // v2's list (GET /v2/store/orders). Honest variations: each must pass.
  /** Cursors that name a position (the count of orders given so far) instead of the last id. */
  v2OffsetCursor?: boolean;
  /** A full page always has a `nextCursor`, so a walk whose orders fill its pages ends with an empty page. */
  v2EmptyLastPage?: boolean;
  /**
   * Serves v1 at `bases.v1` and v2 at `bases.v2` (nowhere without it) rather than at /v1 and /v2, as a
   * deployment behind a gateway does (`{ v1: '/api/v1', v2: '/api/v2' }`); any other path but the
   * state URL is a 404. `args` give `bases.v1` as the base URL.
   */
  bases?: { v1: string; v2?: string };
  // v2's defects: each must fail.
  /** Ignores `status`: every order, whatever the filter. */
  v2FilterIgnoresStatus?: boolean;
  /** A page holds `limit` + 1 orders. */
  v2LimitOffByOne?: boolean;
  /** The next page starts at the last order of this one: it is given twice. */
  v2CursorRepeats?: boolean;
  /** The next page starts one order after the one it should: an order is never given. */
  v2CursorSkips?: boolean;
  /** v2's ids go through a JavaScript number: 9007199254740993 comes back as 9007199254740992. */
  v2RoundsIds?: boolean;
  /** v2's orders lack their `status`, which v2's document requires of each (`OrderWithStatus`). */
  v2OrderWithoutStatus?: boolean;
  /** Gives each page's orders in descending order of id. */
  v2PageDescending?: boolean;
  /** Takes a limit out of its bounds as the nearest bound (200) instead of refusing it (400). */
  v2ClampsLimit?: boolean;
  /** Serves v1 only: v2's list is a 404, as on a provider that has not added v2. */
  v1Only?: boolean;
  /** v1's list answers v2's page envelope (`{ orders, nextCursor }`) instead of an array: v1 broken while adding v2. */
  v1BrokenWithV2?: boolean;
}

interface StoredOrder {
  fields: Record<string, unknown>;
  id: bigint;
  status: 'pending' | 'shipped' | 'cancelled';
}

interface Answer {
  status: number;
  headers?: Record<string, string>;
  body?: unknown;
}

interface ParsedRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: Map<string, string>;
  body: string;
}

function parseRequest(buffer: Buffer): ParsedRequest | undefined {
  const end = buffer.indexOf('\r\n\r\n');
  if (end === -1) return undefined;
  const [requestLine = '', ...lines] = buffer.subarray(0, end).toString('latin1').split('\r\n');
  const headers = new Map<string, string>();
  for (const line of lines) {
    const colon = line.indexOf(':');
    const name = line.slice(0, colon).trim().toLowerCase();
    headers.set(
      name,
      headers.has(name) ? `${headers.get(name)}, ${line.slice(colon + 1).trim()}` : line.slice(colon + 1).trim(),
    );
  }
  const length = Number(headers.get('content-length') ?? 0);
  if (buffer.length < end + 4 + length) return undefined;
  const [method = 'GET', target = '/'] = requestLine.split(' ');
  return {
    method,
    path: target.split('?')[0]!,
    query: new URLSearchParams(target.split('?')[1] ?? ''),
    headers,
    body: buffer.subarray(end + 4, end + 4 + length).toString('utf8'),
  };
}

const reasons: Record<number, string> = {
  200: 'OK',
  400: 'Bad Request',
  204: 'No Content',
  302: 'Found',
  401: 'Unauthorized',
  404: 'Not Found',
  405: 'Method Not Allowed',
  409: 'Conflict',
  500: 'Internal Server Error',
};

/**
 * Starts a hostile provider on 127.0.0.1, port 0. Its state URL (`/__state`) takes Pact's state change.
 * @example
 * const provider = await startHostileProvider({ duplicateIds: true });
 * // petstore-verify ...provider.args
 */
export async function startHostileProvider(switches: Switches = {}) {
  const defaultStore = (): StoredOrder[] => [
    { fields: { id: 1n, petId: 101n, quantity: 1 }, id: 1n, status: 'pending' },
    { fields: { id: 2n, petId: 102n, quantity: 2 }, id: 2n, status: 'shipped' },
  ];
  let store: StoredOrder[] = defaultStore();
  const cancels = new Map<bigint, number>();
  const relisted = new Set<bigint>();
  let successfulCancels = 0;
  let firstListAnswered = false;

  // Connections open that have not sent a whole request yet, and what waits until there are none.
  const sending = new Set<Socket>();
  let waitingForRequests: (() => void)[] = [];
  function requestIn(socket: Socket): void {
    sending.delete(socket);
    if (sending.size > 0) return;
    const waiting = waitingForRequests;
    waitingForRequests = [];
    for (const resume of waiting) resume();
  }
  const everyRequestIn = () =>
    sending.size === 0 ? Promise.resolve() : new Promise<void>((resolve) => waitingForRequests.push(resolve));

  const error = (status: number, code: string, message: string, headers: Record<string, string> = {}): Answer => ({
    status,
    headers,
    body: { code, message, status, ...(switches.extraErrorFields && { traceId: 'abc-123', retryable: false }) },
  });

  function authenticated(request: ParsedRequest, isPetRead: boolean): Answer | undefined {
    const header = request.headers.get('authorization');
    const challenge: Record<string, string> = switches.noChallenge
      ? {}
      : { 'www-authenticate': switches.basicChallenge ? 'Basic realm="hostile"' : 'Bearer realm="hostile"' };
    if (header === undefined) return error(401, 'unauthorized', 'No API key.', challenge);
    if (switches.acceptBasic && /^basic /i.test(header)) return undefined;
    if (isPetRead && switches.petAcceptsAnyKey && /^bearer /i.test(header)) return undefined;
    if (switches.keyPrefixMatch && /^bearer /i.test(header) && header.slice(7).startsWith(hostileKey)) return undefined;
    const match = /^bearer (.+)$/i.exec(header);
    if (match === null || match[1] !== hostileKey) return error(401, 'unauthorized', 'Bad API key.', challenge);
    return undefined;
  }

  function listed(order: StoredOrder): Record<string, unknown> {
    const fields: Record<string, unknown> = {
      ...order.fields,
      ...(switches.extraOrderFields && { currency: 'EUR', note: null }),
    };
    if (typeof fields.shipDate === 'string') {
      if (switches.fractionalShipDates) fields.shipDate = new Date(fields.shipDate as string).toISOString();
      if (switches.offsetShipDates)
        fields.shipDate = new Date(fields.shipDate as string).toISOString().replace(/Z$/, '+00:00');
    }
    if (switches.wrongField === 'petId' && fields.petId !== undefined)
      fields.petId = BigInt(fields.petId as number) + 1n;
    if (switches.wrongField === 'quantity' && fields.quantity !== undefined)
      fields.quantity = Number(fields.quantity) + 1;
    if (switches.wrongField === 'complete' && fields.complete !== undefined) fields.complete = !fields.complete;
    if (switches.int32Quantity && fields.quantity !== undefined)
      fields.quantity = Number(BigInt.asIntN(32, BigInt(fields.quantity as number)));
    if (switches.wrongField === 'shipDate' && typeof fields.shipDate === 'string')
      fields.shipDate = new Date(Date.parse(fields.shipDate) + 86_400_000).toISOString();
    return fields;
  }

  function find(id: bigint): StoredOrder | undefined {
    // A lossy provider compares ids as JavaScript numbers: 9007199254740993 finds 9007199254740992.
    return switches.lossyIds
      ? store.find((order) => Number(order.id) === Number(id))
      : store.find((order) => order.id === id);
  }

  // v2's cursor, in an encoding of its own (not the kit's): hex of `status/after` (or `status@position`).
  const cursorOf = (status: string, mark: bigint | number) =>
    Buffer.from(`${status}${switches.v2OffsetCursor ? '@' : '/'}${mark}`).toString('hex');
  function readV2Cursor(cursor: string, status: string): bigint | undefined {
    if (!/^(?:[0-9a-f]{2})+$/.test(cursor)) return undefined;
    const match = /^([a-z*]+)[/@](-?[0-9]+)$/.exec(Buffer.from(cursor, 'hex').toString('latin1'));
    return match === null || match[1] !== status ? undefined : BigInt(match[2]!);
  }

  function listV2(query: URLSearchParams): Answer {
    const status = query.get('status') ?? undefined;
    const limitText = query.get('limit') ?? '20';
    const cursor = query.get('cursor') ?? undefined;
    if (status !== undefined && !['pending', 'shipped', 'cancelled'].includes(status))
      return error(400, 'invalid_parameter', 'No such status.');
    let limit = /^[0-9]{1,3}$/.test(limitText) ? Number(limitText) : 0;
    if (switches.v2ClampsLimit && /^[0-9]+$/.test(limitText)) limit = Math.min(100, Math.max(1, limit));
    if (limit < 1 || limit > 100) return error(400, 'invalid_parameter', 'The limit is 1 to 100.');
    const filter = switches.v2FilterIgnoresStatus ? '*' : (status ?? '*');
    const mark = cursor === undefined ? undefined : readV2Cursor(cursor, status ?? '*');
    if (cursor !== undefined && mark === undefined) return error(400, 'invalid_cursor', 'Not a cursor of ours.');
    const kept = [...store]
      .filter((order) => filter === '*' || order.status === filter)
      .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    let start = mark === undefined ? 0 : switches.v2OffsetCursor ? Number(mark) : kept.findIndex((o) => o.id > mark);
    if (start === -1) start = kept.length;
    const size = switches.v2LimitOffByOne ? limit + 1 : limit;
    const page = kept.slice(start, start + size);
    const given = switches.v2PageDescending ? [...page].reverse() : page;
    let next = start + page.length;
    if (switches.v2CursorRepeats) next--;
    if (switches.v2CursorSkips) next++;
    const more = switches.v2EmptyLastPage ? page.length === size : next < kept.length;
    const after = kept[next - 1]?.id ?? -1n;
    return {
      status: 200,
      body: {
        orders: given.map((order) => {
          const fields = { ...listed(order), ...(!switches.v2OrderWithoutStatus && { status: order.status }) };
          return switches.v2RoundsIds ? { ...fields, id: Number(order.id) } : fields;
        }),
        nextCursor: more ? cursorOf(status ?? '*', switches.v2OffsetCursor ? next : after) : null,
      },
    };
  }

  async function handle(request: ParsedRequest): Promise<Answer> {
    if (request.method === 'POST' && request.path === '/__state') {
      const change = parseJson(request.body) as { action?: string; params?: { orders?: Record<string, unknown>[] } };
      // Teardown returns to the provider's own data, as a real provider (and the kit's mock) does.
      if (change.action === 'teardown') store = defaultStore();
      else {
        store = (change.params?.orders ?? []).map((order) => {
          const { status, ...fields } = order;
          return { fields, id: toInt64(fields.id)!, status: (status ?? 'pending') as StoredOrder['status'] };
        });
        cancels.clear();
        relisted.clear();
        successfulCancels = 0;
      }
      return { status: 200, body: { orders: store.length } };
    }
    const cancel = /^\/v1\/store\/orders\/([^/]+)$/.exec(request.path);
    const pet = /^\/v1\/pets\/([^/]+)$/.exec(request.path);
    if (cancel !== null && request.method === 'DELETE') {
      if (switches.stallCancels) return new Promise<never>(() => undefined);
      const id = parseInt64(decodeURIComponent(cancel[1]!));
      if (switches.lookupBeforeAuth && (id === undefined || find(id) === undefined))
        return error(404, 'not_found', 'No such order.');
      const refused = authenticated(request, false);
      if (refused !== undefined) return refused;
      const order = id === undefined ? undefined : find(id);
      if (order === undefined) return error(404, 'not_found', 'No such order.');
      if (order.status === 'cancelled') {
        cancels.set(order.id, (cancels.get(order.id) ?? 0) + 1);
        if (switches.reviveOnSecondCancel) order.status = 'pending';
        if (switches.relistOnSecondCancel) relisted.add(order.id);
        return switches.secondCancelConflict
          ? error(409, 'conflict', 'Already cancelled.')
          : error(404, 'not_found', 'No such order.');
      }
      if (order.status === 'shipped' && !switches.cancelShipped)
        return switches.conflictWithoutBody ? { status: 409 } : error(409, 'conflict', 'Already shipped.');
      if (switches.refuseNegativeIds && order.id < 0n) return error(404, 'not_found', 'No such order.');
      successfulCancels++;
      if (switches.leakAfterCancels !== undefined && successfulCancels > switches.leakAfterCancels)
        return { status: 204 };
      if (switches.nonAtomicCancel) await everyRequestIn();
      if (switches.wrongOrderAbove !== undefined && store.length > switches.wrongOrderAbove) {
        const next = store[(store.indexOf(order) + 1) % store.length]!;
        if (next.status !== 'shipped') next.status = 'cancelled';
        return { status: 204 };
      }
      order.status = 'cancelled';
      if (switches.cancelRemovesNeighbour)
        store = store.filter((other) => other === order || other.id !== order.id + 1n);
      return { status: 204 };
    }
    if (request.path === '/v1/store/orders' && request.method === 'GET') {
      const refused = authenticated(request, false);
      if (refused !== undefined) return refused;
      if (switches.redirectList) return { status: 302, headers: { location: '/v1/store/orders-moved' } };
      if (switches.emptyStoreErrors && store.length === 0) return error(500, 'internal', 'Nothing to list.');
      let orders = store
        .filter((order) => switches.keepCancelledListed || order.status !== 'cancelled' || relisted.has(order.id))
        .map(listed);
      if (switches.pageAfter !== undefined) orders = orders.slice(0, switches.pageAfter);
      if (switches.reverseListOrder) orders = orders.reverse();
      if (switches.duplicateIds && orders.length > 0) orders.push(orders[0]!);
      if (switches.phantomOrder) orders.push({ id: 424242, petId: 1, quantity: 1 });
      if (switches.fractionalId && orders.length > 0) orders[0] = { ...orders[0], id: 2.5 };
      if (switches.v1BrokenWithV2) return { status: 200, body: { orders, nextCursor: null } };
      return { status: 200, body: orders };
    }
    if (request.path === '/v2/store/orders' && request.method === 'GET' && !switches.v1Only) {
      const refused = authenticated(request, false);
      return refused ?? listV2(request.query);
    }
    if (switches.openTrailingSlash && request.path === '/v1/store/orders/' && request.method === 'GET')
      return { status: 200, body: store.filter((order) => order.status !== 'cancelled').map(listed) };
    if (request.path === '/v1/store/orders-moved' && request.method === 'GET') {
      return { status: 200, body: store.filter((order) => order.status !== 'cancelled').map(listed) };
    }
    if (pet !== null && request.method === 'GET') {
      const refused = authenticated(request, true);
      if (refused !== undefined) return refused;
      return {
        status: 200,
        headers: {
          deprecation: switches.deprecationTrue ? 'true' : '@1767225600',
          sunset: switches.sunsetSoon ? 'soon' : 'Wed, 30 Jun 2027 23:59:59 GMT',
        },
        body: { id: toInt64(parseJson(decodeURIComponent(pet[1]!))) ?? pet[1] },
      };
    }
    return error(404, 'not_found', 'No such path.');
  }

  function write(socket: Socket, request: ParsedRequest, answer: Answer): void {
    const protocol = switches.http10 ? 'HTTP/1.0' : 'HTTP/1.1';
    const head = [`${protocol} ${answer.status} ${reasons[answer.status] ?? 'Status'}`, 'connection: close'];
    for (const [name, value] of Object.entries(answer.headers ?? {})) head.push(`${name}: ${value}`);
    const isApi = request.path.startsWith('/v1/') || request.path.startsWith('/v2/');
    if (answer.status === 204) {
      socket.end(`${head.join('\r\n')}\r\n\r\n${switches.bytesAfter204 ? '{"ok":true}' : ''}`);
      return;
    }
    if (answer.body === undefined) {
      socket.end(`${head.join('\r\n')}\r\ncontent-length: 0\r\n\r\n`);
      return;
    }
    if (isApi && switches.contentTypes !== undefined)
      for (const contentType of switches.contentTypes) head.push(`content-type: ${contentType}`);
    else head.push(`content-type: application/json${switches.charset ? '; charset=utf-8' : ''}`);
    let body = Buffer.from(stringifyJson(answer.body), 'utf8');
    if (isApi && switches.byteOrderMark) body = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), body]);
    if (isApi && switches.invalidUtf8 && answer.status === 200 && Array.isArray(answer.body))
      body = Buffer.concat([body.subarray(0, body.length - 1), Buffer.from(',"\xff"]', 'latin1')]);
    if (isApi && switches.gzip) {
      body = gzipSync(body);
      head.push('content-encoding: gzip');
    }
    if (isApi && switches.badGzip) head.push('content-encoding: gzip');
    const listing = isApi && answer.status === 200 && Array.isArray(answer.body);
    if (listing && switches.listBody !== undefined) {
      const sent = switches.listBody(body);
      body = sent.body;
      head.push(`content-encoding: ${sent.contentEncoding}`);
    }
    if (switches.stallHeaders && listing) {
      socket.write(`${head[0]}\r\n`);
      return;
    }
    if (listing && switches.firstListBroken !== undefined && !firstListAnswered) {
      firstListAnswered = true;
      const broken = switches.firstListBroken;
      const length = `content-length: ${body.length}`;
      if (broken === 'cut')
        socket.write(Buffer.concat([Buffer.from(`${head.join('\r\n')}\r\n${length}\r\n\r\n`), body.subarray(0, 3)]));
      else if (broken === 'framing')
        socket.write(`${head.join('\r\n')}\r\ntransfer-encoding: chunked\r\n\r\nzz\r\n${body.toString()}\r\n0\r\n\r\n`);
      else
        socket.write(
          Buffer.concat([Buffer.from(`${head.join('\r\n')}\r\ncontent-encoding: gzip\r\n${length}\r\n\r\n`), body]),
        );
      socket.destroy();
    } else if (switches.http10) {
      socket.end(Buffer.concat([Buffer.from(`${head.join('\r\n')}\r\n\r\n`), body]));
    } else if (switches.chunked) {
      socket.write(`${head.join('\r\n')}\r\ntransfer-encoding: chunked\r\n\r\n`);
      const half = Math.ceil(body.length / 2);
      for (const part of [body.subarray(0, half), body.subarray(half)])
        if (part.length > 0)
          socket.write(Buffer.concat([Buffer.from(`${part.length.toString(16)}\r\n`), part, Buffer.from('\r\n')]));
      socket.end('0\r\n\r\n');
    } else if ((switches.closeMidBody || switches.stallBody) && listing) {
      socket.write(
        Buffer.concat([
          Buffer.from(`${head.join('\r\n')}\r\ncontent-length: ${body.length}\r\n\r\n`),
          body.subarray(0, Math.floor(body.length / 2)),
        ]),
      );
      if (switches.closeMidBody) socket.destroy();
    } else {
      socket.end(Buffer.concat([Buffer.from(`${head.join('\r\n')}\r\ncontent-length: ${body.length}\r\n\r\n`), body]));
    }
  }

  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    sending.add(socket);
    socket.on('close', () => {
      sockets.delete(socket);
      requestIn(socket);
    });
    socket.on('error', () => socket.destroy());
    let buffer = Buffer.alloc(0);
    socket.on('data', (chunk: Buffer) => {
      buffer = Buffer.concat([buffer, chunk]);
      const request = parseRequest(buffer);
      if (request === undefined) return;
      const { bases } = switches;
      if (bases !== undefined && request.path !== '/__state')
        request.path = request.path.startsWith(`${bases.v1}/`)
          ? `/v1${request.path.slice(bases.v1.length)}`
          : bases.v2 !== undefined && request.path.startsWith(`${bases.v2}/`)
            ? `/v2${request.path.slice(bases.v2.length)}`
            : `/not-a-base${request.path}`;
      socket.removeAllListeners('data');
      requestIn(socket);
      handle(request)
        .catch(() => error(400, 'bad_request', 'Bad request.'))
        .then((answer) => write(socket, request, answer));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  return {
    origin,
    args: [
      '--base-url',
      `${origin}${switches.bases?.v1 ?? '/v1'}`,
      '--api-key',
      hostileKey,
      '--state-url',
      `${origin}/__state`,
    ],
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
