import { connect as connectTcp, createServer, type AddressInfo, type Socket } from 'node:net';
import { connect as connectTls } from 'node:tls';
import { stringifyJson } from '../core/stringify-json.js';
import type { ErrorRecord } from '../core/records.js';
import { matchRoute } from '../core/routes.js';
import type { Finding, ObservedResponse } from './checks.js';
import { judgeCall } from './judge.js';
import { loadPrismOracle, type Disagreement, type PrismOracle } from './prism.js';
import { RawResponseReader, readRequestHead, type RawRequestHead } from './raw-response.js';
import { hopByHopFields } from './hop-by-hop-fields.js';
import { responseText } from './response-text.js';
import { RecordingError, type ScenarioRecorder, type WrittenRecordings } from './recorder/scenario-recorder.js';
import { Redaction, withoutCredentials, withoutQueries } from './redaction.js';
import { changeProviderState } from './run.js';

/** How to build a validating proxy. */
export interface ProxyOptions {
  /** The implementation to forward to: its base URL, ending with /v1 (for example https://staging.example.com/v1). */
  upstream: string;
  /** Check responses with Prism's validator too. Default: true. */
  prism?: boolean;
  /** Called once a response has been forwarded and checked. */
  onExchange?: (exchange: ProxyExchange) => void;
  /** The largest response body to keep for checking, in bytes (it is forwarded whatever its size). Default: 32 MiB. */
  checkLimit?: number;
  /**
   * Records what passes as scenario files (`ScenarioRecorder.open`): each call of an operation a step, in
   * the order the upstream answered; `POST /__record/new` starts a new file. Closing the proxy waits for
   * every step to be on disk. A recorder with a known state has the proxy set it on the upstream through
   * its state URL before listening (`listen` rejects when it cannot), and again before each new file.
   */
  recorder?: ScenarioRecorder;
  /**
   * What the report must not carry: the upstream's user information and query values are always
   * taken out; give the secrets the proxy's users hold (an API key) to take them out too.
   */
  redaction?: Redaction;
}

/** One request forwarded, and what the checks found in its response. */
export interface ProxyExchange {
  method: string;
  /** The path as the client sent it, its query shown as `?…` (a query can carry a token). */
  path: string;
  /** The operation's path below the base URL (`/store/orders`), or undefined when the request is for no operation of the spec. */
  operationPath?: string;
  /** The status, or 0 when no status line came. */
  status: number;
  violations: Finding[];
  disagreements: Disagreement[];
  /** Why the response was not checked, when it was not. */
  unchecked?: string;
  durationMs: number;
}

/** What the proxy has seen since it started: its console summary, `--json`, `GET /__verify/report` and exit code all come from it. */
export interface ProxyReport {
  /** The upstream's base URL, without its user information or query. */
  upstream: string;
  exchanges: number;
  checked: number;
  /** Every finding held against the upstream: the specification's checks' (`violated`) and, recording, the contract's (`recording.against`). */
  violations: number;
  disagreements: number;
  /** The most recent exchanges with a violation of the specification (at most 1,000). */
  violated: ProxyExchange[];
  /** With a recorder: the file being written and its steps so far, and what every file written holds. */
  recording?: { name: string; file: string; steps: number } & WrittenRecordings;
  /** `failed` once any violation was seen or the recording stopped: the command then exits 1. */
  verdict: 'passed' | 'failed';
}

/** A running validating proxy. */
export interface ValidatingProxy {
  /** Starts listening; resolves with the origin (the API is under `/v1`). */
  listen(port?: number, host?: string): Promise<string>;
  /** Stops listening and closes every open connection. */
  close(): Promise<void>;
  /** Everything seen so far; also served as JSON at `GET /__verify/report`. */
  report(): ProxyReport;
}

// Transfer-Encoding stays: the body's bytes are forwarded as they come. Host is the upstream's, and
// the proxy's own credentials (RFC 9110 §11.7) go no further.
const notForwarded = new Set([...hopByHopFields, 'proxy-authenticate', 'proxy-authorization', 'host']);
/** Where the proxy serves its report (`GET`), beside the API it forwards. */
export const reportPath = '/__verify/report';
/** Where a recording proxy starts a new file (`POST`, `?name=NAME` to name it). */
export const newRecordingPath = '/__record/new';
const violatedKept = 1000;
// How long, after a response is complete, the proxy still listens for bytes after its end before closing.
const trailingGrace = 30;

function respond(socket: Socket, status: number, body: string, reason: string): void {
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
  );
}

/** The implementation the proxy forwards to, read once from its base URL. */
interface Upstream {
  url: URL;
  /** The base URL's path, without a trailing slash (`/v1`, `/api/v1`). */
  basePath: string;
  secure: boolean;
  port: number;
}

function upstreamOf(href: string): Upstream {
  const url = new URL(href);
  const secure = url.protocol === 'https:';
  return {
    url,
    basePath: url.pathname.replace(/\/+$/, ''),
    secure,
    port: Number(url.port || (secure ? 443 : 80)),
  };
}

/** The totals and the most recent violated exchanges: what `report()` says. */
class ExchangeLog {
  readonly #upstream: string;
  readonly #onExchange: ((exchange: ProxyExchange) => void) | undefined;
  readonly #totals = { exchanges: 0, checked: 0, violations: 0, disagreements: 0 };
  readonly #violated: ProxyExchange[] = [];

  constructor(upstream: URL, onExchange: ((exchange: ProxyExchange) => void) | undefined) {
    this.#upstream = withoutCredentials(upstream.href);
    this.#onExchange = onExchange;
  }

  record(exchange: ProxyExchange): void {
    const totals = this.#totals;
    totals.exchanges++;
    if (exchange.unchecked === undefined) totals.checked++;
    totals.violations += exchange.violations.length;
    totals.disagreements += exchange.disagreements.length;
    if (exchange.violations.length > 0) {
      this.#violated.push(exchange);
      if (this.#violated.length > violatedKept) this.#violated.shift();
    }
    this.#onExchange?.(exchange);
  }

  report(): Omit<ProxyReport, 'verdict'> {
    return { upstream: this.#upstream, ...this.#totals, violated: [...this.#violated] };
  }
}

type ReadResponse = ReturnType<RawResponseReader['result']>;

/** Why a response cannot be judged against the spec: a violation, or a reason it is left unchecked. */
function unjudgeable(
  read: ReadResponse,
  checkLimit: number,
): { violation: Finding } | { unchecked: string } | undefined {
  if (read.malformed !== undefined)
    return {
      violation: {
        code: 'no-answer',
        path: '',
        expected: 'an HTTP/1.1 response',
        actual: `one the proxy cannot read: ${read.malformed}`,
      },
    };
  if (read.status === undefined || !read.complete)
    return {
      violation: {
        code: 'no-answer',
        path: '',
        expected: 'a whole response',
        actual:
          read.status === undefined
            ? 'the connection closed before the status line'
            : 'the connection closed before the whole body came',
      },
    };
  if (read.overLimit) return { unchecked: `the body is over the check limit of ${checkLimit} bytes` };
  return undefined;
}

/** The response as the checks read it, or the violation of a body that cannot be decoded. */
function observedOf(read: ReadResponse & { status: number }): ObservedResponse | { violation: Finding } {
  const headers = new Headers();
  for (const [name, value] of read.headers) headers.append(name, value);
  try {
    const { text, invalidUtf8 } = responseText(read.body, headers.get('content-encoding') ?? undefined);
    return {
      status: read.status,
      headers,
      text,
      ...(invalidUtf8 && { invalidUtf8 }),
      ...(read.trailingBytes && { trailingBytes: true }),
    };
  } catch (error) {
    return {
      violation: {
        code: 'no-answer',
        path: 'content-encoding',
        expected: 'a body encoded as its Content-Encoding says',
        actual: `one that cannot be decoded (${(error as Error).message})`,
      },
    };
  }
}

/** Checks what the reader read for an exchange, with the harness's checks and Prism's, into the exchange. */
function checkExchange(
  exchange: ProxyExchange,
  reader: RawResponseReader,
  oracles: { prism: PrismOracle | undefined; checkLimit: number },
): ObservedResponse | undefined {
  const { method, operationPath } = exchange;
  const read = reader.result();
  if (operationPath === undefined || matchRoute(method, operationPath) === undefined) {
    exchange.unchecked = 'no operation of the specification';
    return undefined;
  }
  const problem = unjudgeable(read, oracles.checkLimit);
  const observed = problem ?? observedOf(read as ReadResponse & { status: number });
  if ('unchecked' in observed) exchange.unchecked = observed.unchecked;
  else if ('violation' in observed) exchange.violations.push(observed.violation);
  else {
    const judgement = judgeCall({ call: { method, path: operationPath }, observed, prism: oracles.prism });
    exchange.disagreements = judgement.disagreements;
    exchange.violations.push(...judgement.findings);
    return observed;
  }
  return undefined;
}

/** Where a request goes: under `/v1`, to the upstream's base path (an operation's path); else to the upstream's origin. */
function routeRequest(path: string, upstream: Upstream): { operationPath?: string; targetPath: string } {
  const [pathname = '/', search = ''] = path.split(/(?=\?)/);
  const underApi = pathname === '/v1' || pathname.startsWith('/v1/');
  const operationPath = underApi ? pathname.slice('/v1'.length) || '/' : undefined;
  const targetPath = `${underApi ? `${upstream.basePath}${operationPath}` : pathname}${search}`;
  return { targetPath, ...(operationPath !== undefined && { operationPath }) };
}

/** The request head sent upstream: the new target and Host, the client's fields but the per-connection ones. */
function upstreamHead(head: RawRequestHead, targetPath: string, upstream: Upstream): string {
  const connectionFields = new Set(
    head.headers
      .filter(([name]) => name.toLowerCase() === 'connection')
      .flatMap(([, value]) => value.split(','))
      .map((name) => name.trim().toLowerCase()),
  );
  const fields = head.headers.filter(
    ([name]) => !notForwarded.has(name.toLowerCase()) && !connectionFields.has(name.toLowerCase()),
  );
  return [
    `${head.method} ${targetPath} HTTP/1.1`,
    `host: ${upstream.url.host}`,
    ...fields.map(([name, value]) => `${name}: ${value}`),
    'connection: close',
    '',
    '',
  ].join('\r\n');
}

function connectUpstream(upstream: Upstream): Socket {
  const { hostname } = upstream.url;
  return upstream.secure
    ? connectTls({ host: hostname, port: upstream.port, servername: hostname })
    : connectTcp({ host: hostname, port: upstream.port });
}

function newExchange(method: string, path: string, operationPath: string | undefined): ProxyExchange {
  return {
    method,
    path,
    status: 0,
    violations: [],
    disagreements: [],
    durationMs: 0,
    ...(operationPath !== undefined && { operationPath }),
  };
}

/** What one exchange needs: the client's connection and head, and where it goes, is checked and is recorded. */
interface RelayOptions {
  client: Socket;
  head: RawRequestHead;
  /** The bytes of the body that came with the head. */
  bodyStart: Buffer;
  upstream: Upstream;
  checkLimit: number;
  check: (exchange: ProxyExchange, reader: RawResponseReader) => void;
  record: (exchange: ProxyExchange) => void;
}

/** Once the upstream is connected: the request's head and the body's first bytes, then the rest as the client sends it. */
function sendOnConnect(link: { server: Socket; client: Socket; upstream: Upstream; bytes: readonly Buffer[] }): void {
  const { server, client } = link;
  server.on(link.upstream.secure ? 'secureConnect' : 'connect', () => {
    for (const bytes of link.bytes) if (bytes.length > 0) server.write(bytes);
    client.pipe(server, { end: false });
    client.resume();
  });
}

/**
 * Forwards one exchange: the request to the upstream, its response back byte for byte as it comes,
 * then checks and records it once the response is over (or answers 502 when the upstream cannot be reached).
 */
function relayExchange({ client, head, bodyStart, upstream, checkLimit, check, record }: RelayOptions): Promise<void> {
  let ended = () => {};
  const over = new Promise<void>((resolve) => {
    ended = resolve;
  });
  const started = performance.now();
  const { method, target: path } = head;
  const { targetPath, operationPath } = routeRequest(path, upstream);
  const requestHead = upstreamHead(head, targetPath, upstream);
  const exchange = newExchange(method, withoutQueries(path), operationPath);
  const reader = new RawResponseReader(method, checkLimit);
  const server = connectUpstream(upstream);
  let answered = false;
  let finished = false;
  let grace: NodeJS.Timeout | undefined;
  const finish = () => {
    if (finished) return;
    finished = true;
    clearTimeout(grace);
    reader.close();
    exchange.status = reader.result().status ?? 0;
    check(exchange, reader);
    exchange.durationMs = performance.now() - started;
    record(exchange);
    client.end();
    server.destroy();
    ended();
  };
  sendOnConnect({ server, client, upstream, bytes: [Buffer.from(requestHead), bodyStart] });
  server.on('data', (chunk: Buffer) => {
    answered = true;
    client.write(chunk);
    reader.push(chunk);
    // Once the response is whole, a moment more for bytes after its end, then the exchange is over.
    if (reader.complete && grace === undefined) grace = setTimeout(finish, trailingGrace);
  });
  server.on('end', finish);
  server.on('close', finish);
  server.on('error', (error: NodeJS.ErrnoException) => {
    if (answered) return finish();
    finished = true;
    const reason = error.code ?? error.message;
    answerUnreachable(client, upstream, reason);
    record({
      ...exchange,
      status: 502,
      unchecked: `upstream unreachable: ${reason}`,
      durationMs: performance.now() - started,
    });
    ended();
  });
  // A client that goes away takes its upstream connection with it.
  client.on('close', () => {
    if (!finished) server.destroy();
  });
  return over;
}

function answerUnreachable(client: Socket, upstream: Upstream, reason: string): void {
  const record502: ErrorRecord = {
    code: 'upstream_unreachable',
    message: `The proxy cannot reach ${upstream.url.origin}: ${reason}.`,
    status: 502,
  };
  if (!client.destroyed) respond(client, 502, stringifyJson(record502), 'Bad Gateway');
}

/** The proxy's listening server, its open connections, its oracle and its log. */
class ProxyServer {
  readonly #options: ProxyOptions;
  readonly #upstream: Upstream;
  readonly #checkLimit: number;
  readonly #log: ExchangeLog;
  readonly #redaction: Redaction;
  readonly #sockets = new Set<Socket>();
  /** Exchanges under way: closing waits for each to be checked and recorded. */
  readonly #relays = new Set<Promise<void>>();
  /** Set once closing has begun: an answer it cuts off is the proxy's doing, not the upstream's. */
  #closing = false;
  readonly #server = createServer((client) => this.#accept(client));
  #prism: PrismOracle | undefined;

  constructor(options: ProxyOptions) {
    this.#options = options;
    this.#upstream = upstreamOf(options.upstream);
    this.#checkLimit = options.checkLimit ?? 32 * 1024 * 1024;
    this.#log = new ExchangeLog(this.#upstream.url, options.onExchange);
    this.#redaction =
      options.redaction ?? new Redaction({ urls: [options.upstream, options.recorder?.knownState?.stateUrl] });
  }

  async listen(listenPort = 4020, host = '127.0.0.1'): Promise<string> {
    if (this.#options.prism !== false) this.#prism = await loadPrismOracle();
    await this.#setKnownState();
    const server = this.#server;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(listenPort, host, () => {
        server.off('error', reject);
        resolve();
      });
    });
    const address = server.address() as AddressInfo;
    return `http://${address.family === 'IPv6' ? `[${address.address}]` : address.address}:${address.port}`;
  }

  async close(): Promise<void> {
    this.#closing = true;
    await new Promise<void>((resolve) => {
      for (const socket of this.#sockets) socket.destroy();
      this.#server.close(() => resolve());
    });
    await Promise.all(this.#relays);
    await this.#options.recorder?.close();
  }

  report(): ProxyReport {
    return this.#redaction.value(this.#unredactedReport());
  }

  #unredactedReport(): ProxyReport {
    const recorder = this.#options.recorder;
    const log = this.#log.report();
    if (recorder === undefined) return { ...log, verdict: log.violations > 0 ? 'failed' : 'passed' };
    const recording = { ...recorder.current(), ...recorder.written() };
    const violations = log.violations + recording.disagreements;
    const failed = violations > 0 || recording.failed !== undefined;
    return { ...log, violations, recording, verdict: failed ? 'failed' : 'passed' };
  }

  /** Reads a connection's request head, then serves the report or relays the exchange. */
  #accept(client: Socket): void {
    this.#sockets.add(client);
    client.on('close', () => this.#sockets.delete(client));
    client.on('error', () => client.destroy());
    let buffered = Buffer.alloc(0);
    const onData = (chunk: Buffer) => {
      buffered = Buffer.concat([buffered, chunk]);
      const head = readRequestHead(buffered);
      if (head === undefined) return;
      client.off('data', onData);
      client.pause();
      this.#serve(client, head, buffered.subarray(head.length));
    };
    client.on('data', onData);
  }

  #serve(client: Socket, head: RawRequestHead, bodyStart: Buffer): void {
    const [pathname, query = ''] = head.target.split('?');
    if (head.method === 'GET' && pathname === reportPath) {
      respond(client, 200, stringifyJson(this.report()), 'OK');
      return;
    }
    if (head.method === 'POST' && pathname === newRecordingPath) {
      void this.#cutRecording(client, new URLSearchParams(query).get('name') ?? undefined);
      return;
    }
    const startedAt = performance.now();
    const relay = relayExchange({
      client,
      head,
      bodyStart,
      upstream: this.#upstream,
      checkLimit: this.#checkLimit,
      check: (exchange, reader) => {
        if (this.#closing && !reader.complete) {
          exchange.unchecked = 'the proxy stopped before the answer ended';
          return;
        }
        const observed = checkExchange(exchange, reader, { prism: this.#prism, checkLimit: this.#checkLimit });
        this.#options.recorder?.record({
          method: exchange.method,
          operationPath: exchange.operationPath,
          authorization: head.headers.find(([name]) => name.toLowerCase() === 'authorization')?.[1],
          status: exchange.status,
          observed,
          findings: exchange.violations,
          startedAt,
          endedAt: performance.now(),
        });
      },
      record: (exchange) => this.#log.record(exchange),
    });
    this.#relays.add(relay);
    void relay.then(() => this.#relays.delete(relay));
  }

  /** Sets the recorder's known state on the upstream, when it has one. @throws Error saying where and why it failed. */
  async #setKnownState(): Promise<void> {
    const known = this.#options.recorder?.knownState;
    if (known === undefined) return;
    await changeProviderState(
      { baseUrl: this.#options.upstream, apiKey: '', stateUrl: known.stateUrl },
      known.orders,
      'setup',
    ).catch((error: Error) => {
      throw new Error(`cannot set the state of scenario ${known.scenario}: ${error.message}`);
    });
  }

  /**
   * Starts a new recording file: 201 with its name and file, 400 for a name that is none, 404 when not
   * recording; with a known state, 502 when it cannot be set again (the file goes on).
   */
  async #cutRecording(client: Socket, name: string | undefined): Promise<void> {
    const recorder = this.#options.recorder;
    if (recorder === undefined) {
      const record: ErrorRecord = {
        code: 'not_recording',
        message: 'The proxy was started without --record.',
        status: 404,
      };
      respond(client, 404, stringifyJson(record), 'Not Found');
      return;
    }
    try {
      if (name !== undefined) recorder.checkName(name);
      await this.#setKnownState();
      respond(client, 201, stringifyJson(recorder.cut(name)), 'Created');
    } catch (error) {
      const record: ErrorRecord =
        error instanceof RecordingError
          ? { code: 'invalid_recording_name', message: `${error.message}.`, status: 400 }
          : {
              code: 'state_not_set',
              message: `${(error as Error).message}; the recording goes on in ${recorder.current().file}.`,
              status: 502,
            };
      respond(client, record.status, stringifyJson(record), record.status === 400 ? 'Bad Request' : 'Bad Gateway');
    }
  }
}

/**
 * A proxy to put in front of any implementation of the order interface: it forwards every request
 * unchanged (requests under `/v1` to the upstream base URL, others to its origin; only the request
 * target, `Host` and the per-connection fields change), passes every response back byte for byte as
 * the upstream sent it (a 204 followed by stray bytes included), and checks each response for an
 * operation of the spec with the harness's checks and Prism's validator, reporting violations
 * (truncated and undecodable responses included) through `onExchange` and `report()`. Each
 * connection carries one exchange.
 * @example
 * const proxy = createValidatingProxy({ upstream: 'https://staging.example.com/v1', onExchange: console.log });
 * const origin = await proxy.listen(4020, '127.0.0.1'); // point the frontend at `${origin}/v1`
 */
export function createValidatingProxy(options: ProxyOptions): ValidatingProxy {
  const proxy = new ProxyServer(options);
  return {
    listen: (port, host) => proxy.listen(port, host),
    close: () => proxy.close(),
    report: () => proxy.report(),
  };
}
