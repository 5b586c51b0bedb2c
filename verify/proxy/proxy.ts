import { createServer, type AddressInfo, type Socket } from 'node:net';
import { unreadableFinding } from '../../core/finding.js';
import { stringifyJson } from '../../core/stringify-json.js';
import { checkExchange } from './check-exchange.js';
import { bodyLimit } from '../../core/body-limit.js';
import { loadPrismOracle } from '../base/prism.js';
import type { PrismOracle } from '../../core/second-oracle.js';
import { ProxyExchangeLog, proxyVerdict, type ProxyExchange, type ProxyReport } from './proxy-report.js';
import { cutRecording, setKnownState } from './proxy-recording.js';
import { readRequestHead, type RawRequestHead, type RawResponseReader } from '../http/raw-response.js';
import type { ScenarioRecorder } from '../recorder/scenario-recorder.js';
import { Redaction } from '../base/redaction.js';
import { relayExchange, respondAndClose, upstreamOf, type Upstream } from './relay-exchange.js';

/** How to build a validating proxy. */
export interface ProxyOptions {
  /** The implementation to forward to: its base URL, ending with /v1 (for example https://staging.example.com/v1). */
  upstream: string;
  /** Check responses with Prism's validator too. Default: true. */
  prism?: boolean;
  /** Called once a response has been forwarded and checked. */
  onExchange?: (exchange: ProxyExchange) => void;
  /**
   * The largest response body to check, in bytes, as sent and with its content codings undone (it is
   * forwarded whatever its size); past it, a `body-too-large` finding. Default: `bodyLimit`, 32 MiB.
   */
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

/** A running validating proxy. */
export interface ValidatingProxy {
  /** Starts listening; resolves with the origin (the API is under `/v1`). */
  listen(port?: number, host?: string): Promise<string>;
  /** Stops listening and closes every open connection. */
  close(): Promise<void>;
  /** Everything seen so far; also served as JSON at `GET /__verify/report`. */
  report(): ProxyReport;
}

/** Where the proxy serves its report (`GET`), beside the API it forwards. */
export const reportPath = '/__verify/report';
/** Where a recording proxy starts a new file (`POST`, `?name=NAME` to name it). */
export const newRecordingPath = '/__record/new';

/** The proxy's listening server, its open connections, its oracle and its log. */
class ProxyServer {
  readonly #options: ProxyOptions;
  readonly #upstream: Upstream;
  readonly #checkLimit: number;
  readonly #log: ProxyExchangeLog;
  readonly #redaction: Redaction;
  readonly #sockets = new Set<Socket>();
  /** Exchanges under way: closing waits for each to be checked and recorded. */
  readonly #relays = new Set<Promise<void>>();
  #checking: Promise<void> = Promise.resolve();
  /** Set once closing has begun: an answer it cuts off is the proxy's doing, not the upstream's. */
  #closing = false;
  readonly #server = createServer((client) => this.#accept(client));
  #prism: PrismOracle | undefined;

  constructor(options: ProxyOptions) {
    this.#options = options;
    this.#upstream = upstreamOf(options.upstream);
    this.#checkLimit = options.checkLimit ?? bodyLimit;
    this.#log = new ProxyExchangeLog(this.#upstream.url, options.onExchange);
    this.#redaction =
      options.redaction ?? new Redaction({ urls: [options.upstream, options.recorder?.knownState?.stateUrl] });
  }

  async listen(listenPort = 4020, host = '127.0.0.1'): Promise<string> {
    if (this.#options.prism !== false) this.#prism = await loadPrismOracle();
    await setKnownState(this.#options.upstream, this.#options.recorder);
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
    if (recorder === undefined) return { ...log, ...proxyVerdict(log, { violations: log.violations }) };
    const recording = { ...recorder.current(), ...recorder.written() };
    const outcome = { violations: log.violations, againstContract: recording.disagreements, stopped: recording.failed };
    return { ...log, recording, ...proxyVerdict(log, outcome) };
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
      respondAndClose(client, 200, stringifyJson(this.report()), 'OK');
      return;
    }
    if (head.method === 'POST' && pathname === newRecordingPath) {
      void cutRecording(client, {
        recorder: this.#options.recorder,
        upstream: this.#options.upstream,
        name: new URLSearchParams(query).get('name') ?? undefined,
      });
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
        // One check at a time, in the order the answers ended: the recorder reads the exchanges in that order.
        const checked = this.#checking.then(() => this.#check(exchange, reader, { head, startedAt }));
        this.#checking = checked;
        return checked;
      },
      record: (exchange) => this.#log.record(exchange),
    });
    this.#relays.add(relay);
    void relay.then(() => this.#relays.delete(relay));
  }

  async #check(
    exchange: ProxyExchange,
    reader: RawResponseReader,
    { head, startedAt }: { head: RawRequestHead; startedAt: number },
  ): Promise<void> {
    if (this.#closing && !reader.complete) {
      exchange.unchecked = 'the proxy stopped before the answer ended';
      return;
    }
    const authorization = head.headers.find(([name]) => name.toLowerCase() === 'authorization')?.[1];
    // Read for v2's pages only (the report and the recording never show a query whole).
    const query = exchange.base === undefined ? undefined : (head.target.split('?')[1] ?? '').split('#')[0];
    const observed = await checkedSafely(exchange, reader, {
      prism: this.#prism,
      checkLimit: this.#checkLimit,
      authorization,
      recording: this.#options.recorder !== undefined,
      query,
    });
    this.#options.recorder?.record({
      method: exchange.method,
      operationPath: exchange.operationPath,
      base: exchange.base,
      query,
      authorization,
      status: exchange.status,
      observed,
      findings: exchange.violations,
      startedAt,
      endedAt: performance.now(),
    });
  }
}

/**
 * `checkExchange`, where whatever a check throws on is a finding on this exchange: the answer has gone to
 * the client already, and no answer of an upstream may end the proxy (issue 59).
 */
async function checkedSafely(
  exchange: ProxyExchange,
  reader: RawResponseReader,
  oracles: Parameters<typeof checkExchange>[2],
): ReturnType<typeof checkExchange> {
  try {
    return await checkExchange(exchange, reader, oracles);
  } catch (error) {
    exchange.violations.push(unreadableFinding('the proxy', error));
    return undefined;
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
