import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { developmentApiKey, type KeyChoice } from '../mocks/authorization.js';
import { parseJson, stringifyJson } from '../spec/json.js';
import type { ErrorRecord } from '../spec/records.js';
import { checkAgainstSpec, type Finding } from './checks.js';
import { compareWithModel, ProviderHistory } from './compare.js';
import { InterfaceModel } from './model.js';
import { isFailure, type Observation } from './observe.js';
import { judged, RunStopped, sendCall, sendToTarget, type TargetOptions } from './run.js';
import type { CheckedExchange } from './results.js';

/** The path the guard takes Pact's state changes at, before it forwards them to the provider's state URL. */
export const guardStatePath = '/__petstore-verify/provider-state';

/** One request Pact sent through the guard, with the provider state it was sent in and what the guard found. */
export interface GuardRecord {
  method: string;
  /** The path below the base URL. */
  path: string;
  /** The `Authorization` header as Pact sent it (before the key swap). */
  authorization: string | undefined;
  /** The orders of the provider state set before the request, as JSON text (ids exact), if any. */
  state: string | undefined;
  exchange: CheckedExchange;
}

/** A running guard between Pact's verifier and the provider. */
export interface PactGuard {
  /** The guard's origin: Pact's provider base URL is this, plus the provider's path before /v1. */
  origin: string;
  records: GuardRecord[];
  close(): Promise<void>;
}

// RFC 9110 §7.6.1, and what the guard rewrites (it answers with the decoded body it read).
const notForwarded = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'host',
  'content-length',
  'content-encoding',
]);

async function readBody(incoming: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of incoming) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

function keyChoiceOf(authorization: string | undefined): KeyChoice {
  if (authorization === undefined) return 'none';
  return authorization === `Bearer ${developmentApiKey}` ? 'valid' : 'wrong';
}

function answer(outgoing: ServerResponse, observation: Observation): void {
  if (isFailure(observation)) {
    const record: ErrorRecord = {
      code: 'target_failed',
      message: `petstore-verify could not read the provider's answer: ${observation.failure}`,
      status: 502,
    };
    const body = stringifyJson(record);
    outgoing.writeHead(502, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
    outgoing.end(body);
    return;
  }
  const headers: Record<string, string> = {};
  observation.headers.forEach((value, name) => {
    if (!notForwarded.has(name)) headers[name] = value;
  });
  outgoing.writeHead(observation.status, headers);
  outgoing.end(observation.status === 204 || observation.status === 304 ? undefined : observation.text);
}

/**
 * Starts the guard Pact's verifier talks to instead of the provider. It forwards every request with
 * the pact's development key swapped for the target's (the 401 interactions keep their missing or
 * wrong key) and Pact's state changes to the provider's state URL; reads each whole answer itself,
 * fail-closed, and checks it against the specification (so a redirect, a 204 with a body or a
 * truncated body is a violation, and Pact never hangs on what its own client cannot parse); and after
 * every DELETE, lists the provider's orders and compares them with the model's, so a cancel that
 * touches another order is caught although each Pact interaction is a single request. When the run
 * stops (its deadline, or a target that stopped answering), it calls `onStopped` with the reason.
 * @example
 * const guard = await startPactGuard({ baseUrl, apiKey, stateUrl });
 */
export async function startPactGuard(
  options: TargetOptions & { stateUrl: string },
  onStopped: (reason: string) => void,
): Promise<PactGuard> {
  const base = new URL(options.baseUrl.replace(/\/+$/, ''));
  const records: GuardRecord[] = [];
  let state: string | undefined;
  let model: InterfaceModel | undefined;
  let history = new ProviderHistory();

  async function changeState(incoming: IncomingMessage, outgoing: ServerResponse): Promise<void> {
    const body = await readBody(incoming);
    let observation: Observation;
    try {
      observation = await sendToTarget(options, options.stateUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: new Uint8Array(body),
      });
    } catch (error) {
      if (error instanceof RunStopped) onStopped(error.message);
      observation = {
        failure:
          error instanceof RunStopped ? error.message : `cannot reach the state URL: ${(error as Error).message}`,
      };
    }
    try {
      const change = parseJson(body.toString('utf8')) as { action?: string; params?: { orders?: unknown[] } };
      if (change.action === 'teardown') {
        state = undefined;
        model = undefined;
      } else {
        const orders = change.params?.orders ?? [];
        state = stringifyJson(orders);
        model = await InterfaceModel.seeded(orders).catch(() => undefined);
        history = new ProviderHistory();
      }
    } catch {
      state = undefined;
      model = undefined;
    }
    answer(outgoing, observation);
  }

  async function forward(incoming: IncomingMessage, outgoing: ServerResponse): Promise<void> {
    const started = performance.now();
    const method = incoming.method ?? 'GET';
    const target = incoming.url ?? '/';
    const path = target.startsWith(base.pathname) ? target.slice(base.pathname.length) || '/' : target;
    const authorization = incoming.headers.authorization;
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(incoming.headers)) {
      if (!notForwarded.has(name) && value !== undefined)
        headers[name] = Array.isArray(value) ? value.join(', ') : value;
    }
    if (authorization === `Bearer ${developmentApiKey}`) headers.authorization = `Bearer ${options.apiKey}`;
    const body = await readBody(incoming);
    const findings: Finding[] = [];
    let observation: Observation;
    try {
      observation = await sendToTarget(options, `${base.origin}${target}`, {
        method,
        headers,
        ...(body.length > 0 && { body: new Uint8Array(body) }),
      });
    } catch (error) {
      if (error instanceof RunStopped) onStopped(error.message);
      observation = {
        failure:
          error instanceof RunStopped
            ? `expected the run to finish, got: ${error.message}`
            : `cannot reach the provider: ${(error as Error).message}`,
      };
    }
    if (isFailure(observation)) findings.push({ path: '', message: observation.failure });
    else {
      findings.push(...checkAgainstSpec(method, path, observation));
      if (method === 'DELETE' && model !== undefined)
        findings.push(...(await storeAfter(method, path, keyChoiceOf(authorization))));
    }
    records.push({
      method,
      path,
      authorization,
      state,
      exchange: judged(`${method} ${path}`, { method, path }, observation, findings, [], true, started),
    });
    answer(outgoing, observation);
  }

  // The provider's orders after a call that may change them, compared with the model's after the same call.
  async function storeAfter(method: string, path: string, key: KeyChoice): Promise<Finding[]> {
    await model!.call(method, path, key);
    const after = await model!.orders();
    const listAnswer = await model!.call('GET', '/store/orders', 'valid');
    let observed: Observation;
    try {
      observed = await sendCall(options, 'GET', '/store/orders', 'valid');
    } catch (error) {
      observed = { failure: (error as Error).message };
    }
    const prefix = `after this call, GET /store/orders`;
    if (isFailure(observed)) return [{ path: '', message: `${prefix} failed: ${observed.failure}` }];
    return compareWithModel(
      { path: '/store/orders', answer: listAnswer!, before: after, after, observed },
      history,
    ).map((finding) => ({ ...finding, message: `${prefix}: ${finding.message}` }));
  }

  const server = createHttpServer((incoming, outgoing) => {
    const handle = incoming.method === 'POST' && incoming.url === guardStatePath ? changeState : forward;
    handle(incoming, outgoing).catch((error: unknown) => {
      if (!outgoing.headersSent)
        answer(outgoing, { failure: `petstore-verify's guard failed: ${(error as Error).message}` });
      else outgoing.destroy();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    records,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
