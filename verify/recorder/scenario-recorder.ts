import { readdir, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { isAcceptedKey, type KeyChoice } from '../../mocks/authorization.js';
import type { ContractStep, RecordingNote } from '../../mocks/scenarios.js';
import type { OrderInput } from '../../spec/provider-state.js';
import type { JsonValue } from '../../spec/json.js';
import { matchRoute } from '../../spec/routes.js';
import { jsonBody, type Finding, type ObservedResponse } from '../checks.js';
import type { StoredOrder } from '../../mocks/order-store.js';
import { cancelledOrderId, ProviderHistory, settlesRace } from '../compare.js';
import { judgeCall } from '../judge.js';
import { toInt64 } from '../../spec/int64.js';
import { createDirectory } from '../create-directory.js';
import { withoutCredentials, withoutQueries } from '../redaction.js';
import { InterfaceModel } from '../model.js';
import { stepOf } from '../model-step.js';
import { keyChoiceOf } from '../key-choice-of.js';
import { RecordedState } from './recorded-state.js';
import { recordingText, stateText, stepText, type RecordingParts } from './recording-text.js';
import { freeName, RecordingError, timestampedName, writeRecording } from './recording-file.js';

export { RecordingError, timestampedName } from './recording-file.js';

/** One exchange the proxy forwarded, as the recorder takes it. */
export interface ExchangeToRecord {
  method: string;
  /** The path below the base URL, without its query: undefined for a request outside it. */
  operationPath: string | undefined;
  /** The request's `Authorization` header: read to tell the key choice, never written. */
  authorization: string | undefined;
  /** The upstream's status (0 when none came). */
  status: number;
  /** The response as the checks read it, when it could be read whole. */
  observed: ObservedResponse | undefined;
  /** What the proxy's checks found against the specification. */
  findings: readonly Finding[];
  /** When the request came and when its answer ended (`performance.now()`): calls at once are told apart by them. */
  startedAt: number;
  endedAt: number;
}

/** A step as it was recorded: its name, the file, and where the upstream's answer disagrees with the contract. */
export interface RecordedStep {
  file: string;
  step: ContractStep;
  /** The model's findings: where the upstream's answer is not what the contract requires in the recorded state. */
  disagreements: Finding[];
  /** Set for an earlier step judged again, because a later answer told more of the state (the first list). */
  again?: true;
}

/** How to record. */
export interface RecorderOptions {
  /** The folder the scenario files go to (made if missing). */
  directory: string;
  /** The first file's scenario name; else a timestamped one. */
  name?: string | undefined;
  /** The key the deployment accepts, to tell every key choice exactly; else they are inferred from the answers. */
  apiKey?: string | undefined;
  /** The upstream's base URL, written in the file without its credentials. */
  upstream: string;
  /** The clock that names files and dates recordings. Default: the system's. */
  now?: () => Date;
  /**
   * The state every file starts from, set on the upstream by the proxy (`--from-scenario`) before the
   * first step and again at each new file: each step is judged in it from the first, and nothing of it
   * is inferred. Without it, the state is inferred from the traffic.
   */
  knownState?: KnownState | undefined;
  /** Called once each step is on disk. */
  onStep?: (recorded: RecordedStep) => void;
  /** Called once when a file cannot be written: the recording stops there (the proxy goes on). */
  onError?: (error: Error) => void;
}

/** A state set on the upstream before a recording: the scenario it comes from, its state URL and its orders. */
export interface KnownState {
  scenario: string;
  /** Where the proxy sets it (Pact's state change), as given: written in the file without its credentials or query. */
  stateUrl: string;
  orders: readonly OrderInput[];
}

/** What the recordings written so far hold: each file, and each answer against the contract as last judged. */
export interface WrittenRecordings {
  files: { file: string; steps: number }[];
  /** How many findings the model holds against the upstream's answers, in every file. */
  disagreements: number;
  /** The steps with an answer against the contract, each with its findings. */
  against: { file: string; step: string; findings: Finding[] }[];
  /** The order statuses taken from answers rather than known (no state was set): a bug in them cannot be caught. */
  inferred: { file: string; id: bigint; status: 'pending' | 'shipped'; because: string }[];
  /** Why the recording stopped, when a file could not be written. */
  failed?: string;
}

/** One call kept for the recording, with what the upstream answered. */
interface KeptCall {
  title: string;
  method: 'GET' | 'DELETE';
  path: string;
  key: KeyChoice;
  exchange: ExchangeToRecord;
}

/** The file being written: its name, its calls, their steps, and the model that judges them. */
interface Recording {
  name: string;
  file: string;
  started: Date;
  calls: KeptCall[];
  steps: ContractStep[];
  /** Each step as the file writes it, kept: a step is written as YAML once. */
  stepTexts: string[];
  /** Each inference of the file as it writes it, by what it holds. */
  lines: Map<string, string>;
  /** Each order of the state as the file writes it. */
  orderLines: WeakMap<OrderInput, string>;
  state: RecordedState;
  /** The orders of the state the steps were judged in, and its YAML. */
  judgedIn: { orders: OrderInput[]; text: string } | undefined;
  model: InterfaceModel | undefined;
  history: ProviderHistory;
  repeatedReads: number;
  skipped: number;
  /** For each step, where its answer disagrees with the contract. */
  held: Finding[][];
  /** For each step, what the model found, before calls at the same time are allowed for. */
  found: Finding[][];
  /** For each step, the model's status, and for a list the orders it holds that the upstream's list leaves out. */
  judgedAs: { status: number; missing: bigint[] }[];
  /** The ids earlier cancels named: a status given later must not change what they were judged in. */
  touched: Set<bigint>;
  /** Steps judged and not yet on disk (written together when exchanges queue up). */
  unwritten: RecordedStep[];
  /** Whether the file is behind its steps, or only behind its counts (written when it closes). */
  dirty: boolean;
  countsChanged: boolean;
  /** Whether the file is on disk yet: its first write must not replace a file someone else made. */
  created: boolean;
}

// While exchanges queue up, steps are written together, at most this many at a time: each write is
// still the whole file, complete and valid.
const stepsWrittenTogether = 64;

/**
 * Records the exchanges a proxy forwards as scenario files of the kit's format, one step per call of an
 * operation: the request, the key choice (never the key: no header is written, no query either), and what
 * the contract requires in the state the traffic implies (the kit's mock as the model), with what the
 * upstream answered beside it. The whole file is written again after each step (steps that queue up
 * behind a busy proxy, together), to a temporary file renamed over it, so it is complete and valid
 * whenever the proxy stops.
 * @example
 * const recorder = await ScenarioRecorder.open({ directory: 'recordings', upstream: 'https://staging.example.com/v1' });
 * recorder.record(exchange); // after each forwarded exchange
 * await recorder.close(); // every step on disk
 */
export class ScenarioRecorder {
  readonly #options: RecorderOptions;
  readonly #now: () => Date;
  readonly #names = new Set<string>();
  #recording: Recording;
  /** The recordings cut before this one. */
  readonly #finished: Recording[] = [];
  #queue: Promise<void> = Promise.resolve();
  /** Exchanges recorded and not yet judged. */
  #waiting = 0;
  /** Why the recording stopped, once a file could not be written. */
  #failed: string | undefined;

  private constructor(options: RecorderOptions, name: string) {
    this.#options = options;
    this.#now = options.now ?? (() => new Date());
    this.#recording = this.#newRecording(name);
  }

  /**
   * A recorder writing to `directory`, checked writable now.
   * @throws RecordingError when the folder cannot be made or written, or the name is not a scenario name.
   */
  static async open(options: RecorderOptions): Promise<ScenarioRecorder> {
    const probe = join(options.directory, `.petstore-record-probe-${process.pid}`);
    try {
      await createDirectory(options.directory);
      await writeFile(probe, '');
      await unlink(probe);
    } catch (error) {
      throw new RecordingError(
        `cannot write recordings to ${options.directory}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
      );
    }
    const taken = new Set((await readdir(options.directory)).map((file) => file.replace(/\.ya?ml$/, '')));
    const now = options.now ?? (() => new Date());
    const recorder = new ScenarioRecorder(options, freeName(options.name ?? timestampedName(now()), taken));
    for (const name of taken) recorder.#names.add(name);
    return recorder;
  }

  /** The file being written, and how many steps it holds. */
  current(): { name: string; file: string; steps: number } {
    const { name, file, steps } = this.#recording;
    return { name, file, steps: steps.length };
  }

  /**
   * Every file written so far with its steps, and how many answers disagree with the contract in them
   * (as last judged).
   */
  written(): WrittenRecordings {
    const recordings = [...this.#finished, this.#recording].filter((recording) => recording.created);
    const against = recordings.flatMap(({ file, steps, held }) =>
      held.flatMap((findings, index) =>
        findings.length === 0 ? [] : [{ file, step: steps[index]!.name, findings: [...findings] }],
      ),
    );
    return {
      files: recordings.map(({ file, steps }) => ({ file, steps: steps.length })),
      disagreements: against.reduce((sum, { findings }) => sum + findings.length, 0),
      against,
      inferred: recordings.flatMap(({ file, state }) =>
        state.inferred().map(({ id, status, because }) => ({ file, id, status, because })),
      ),
      ...(this.#failed !== undefined && { failed: this.#failed }),
    };
  }

  /** The state each file starts from, when the proxy sets it: see `RecorderOptions.knownState`. */
  get knownState(): KnownState | undefined {
    return this.#options.knownState;
  }

  /** Records one exchange, after the ones recorded before it; a request for no operation is counted, not recorded. */
  record(exchange: ExchangeToRecord): void {
    this.#waiting++;
    this.#enqueue(() => this.#recordNow(exchange));
  }

  #enqueue(work: () => Promise<void> | void): void {
    this.#queue = this.#queue
      .then(() => (this.#failed === undefined ? work() : undefined))
      .catch((error: unknown) => {
        const { code, message } = error as NodeJS.ErrnoException;
        this.#failed = `the recording stopped at ${this.#recording.file}: ${code ?? message}`;
        this.#options.onError?.(new RecordingError(this.#failed));
      });
  }

  /**
   * Starts a new file for the steps from now on: named `name`, else with a timestamp.
   * @throws RecordingError when the name is not a scenario name.
   */
  cut(name?: string): { name: string; file: string } {
    const chosen = freeName(name ?? timestampedName(this.#now()), this.#names);
    const next = this.#newRecording(chosen);
    this.#enqueue(async () => {
      await this.#flush(this.#recording, { counts: true });
      this.#finished.push(this.#recording);
      this.#recording = next;
    });
    return { name: next.name, file: next.file };
  }

  /** @throws RecordingError when `name` is not a scenario name (as `cut` would). */
  checkName(name: string): void {
    freeName(name, new Set());
  }

  /** Resolves once every exchange recorded so far is on disk (and what was recorded while it waited). */
  async close(): Promise<void> {
    let queue: Promise<void>;
    do {
      queue = this.#queue;
      await queue;
    } while (queue !== this.#queue);
    this.#enqueue(() => this.#flush(this.#recording, { counts: true }));
    await this.#queue;
  }

  #newRecording(name: string): Recording {
    this.#names.add(name);
    return {
      name,
      file: join(this.#options.directory, `${name}.yaml`),
      started: this.#now(),
      calls: [],
      steps: [],
      stepTexts: [],
      lines: new Map(),
      orderLines: new WeakMap(),
      state: new RecordedState(this.#options.knownState?.orders),
      judgedIn: undefined,
      model: undefined,
      history: new ProviderHistory(),
      repeatedReads: 0,
      skipped: 0,
      held: [],
      found: [],
      judgedAs: [],
      touched: new Set(),
      unwritten: [],
      dirty: false,
      countsChanged: false,
      created: false,
    };
  }

  async #recordNow(exchange: ExchangeToRecord): Promise<void> {
    this.#waiting--;
    const recording = this.#recording;
    const call = this.#keptCall(exchange, recording.calls.length + 1);
    if (call === undefined) {
      recording.skipped++;
      recording.countsChanged = true;
    } else if (repeatsRead(recording.calls.at(-1), call)) {
      recording.repeatedReads++;
      recording.countsChanged = true;
    } else {
      recording.calls.push(call);
      recording.state.observe({
        ...call,
        status: exchange.status,
        body: jsonBodyOf(exchange),
        step: call.title,
        startedAt: exchange.startedAt,
        endedAt: exchange.endedAt,
      });
      recording.unwritten.push(...(await judgeSteps(recording)));
      recording.dirty = true;
    }
    if (this.#waiting === 0 || recording.unwritten.length >= stepsWrittenTogether) await this.#flush(recording);
  }

  /** Writes the file if it is behind its steps (or, with `counts`, its counts), then tells of each step it wrote. */
  async #flush(recording: Recording, { counts = false } = {}): Promise<void> {
    const behind = recording.dirty || (counts && recording.countsChanged);
    if (!behind || recording.steps.length === 0) return;
    await writeRecording(recording, recordingText(this.#parts(recording), recording.lines), this.#names);
    recording.dirty = false;
    recording.countsChanged = false;
    for (const recorded of recording.unwritten.splice(0)) this.#options.onStep?.({ ...recorded, file: recording.file });
  }

  #keptCall(exchange: ExchangeToRecord, number: number): KeptCall | undefined {
    const { method } = exchange;
    // Parameters after a `;` in a segment (`5;jsessionid=…`) can carry a session: never written.
    const path = exchange.operationPath?.replace(/;[^/]*/g, '');
    // No answer at all (the connection dropped before a status line): nothing the upstream said to record.
    if (path === undefined || exchange.status === 0 || (method !== 'GET' && method !== 'DELETE')) return undefined;
    if (matchRoute(method, path) === undefined) return undefined;
    const key = keyChoiceOf(exchange.authorization, { apiKey: this.#options.apiKey, status: exchange.status });
    return { title: `${number}. ${stepTitle(method, path, key)}`, method, path, key, exchange };
  }

  #parts(recording: Recording): RecordingParts {
    const inferred = recording.state.inferred();
    const dropped = recording.state.dropped();
    const known = this.#options.knownState;
    const note: RecordingNote = {
      upstream: withoutCredentials(this.#options.upstream),
      started: recording.started.toISOString(),
      keys: this.#options.apiKey === undefined ? 'inferred from the answers' : 'compared with --api-key',
      ...(known !== undefined && {
        from: { scenario: known.scenario, stateUrl: withoutCredentials(known.stateUrl) },
      }),
      ...(inferred.length > 0 && { inferred }),
      ...(dropped.length > 0 && {
        dropped: dropped.map(({ id, field, reason }) => ({ ...(id !== undefined && { id }), field, reason })),
      }),
      ...(recording.repeatedReads > 0 && { repeatedReads: recording.repeatedReads }),
      ...(recording.skipped > 0 && { skipped: recording.skipped }),
    };
    const count = recording.steps.length;
    return {
      description: `Recorded by petstore-verify proxy from ${note.upstream}: ${count} step${count === 1 ? '' : 's'}, each expecting what the contract requires in ${known === undefined ? 'the state the traffic implies' : `the state of scenario ${known.scenario}, set before the first step`}.`,
      recording: note,
      state: recording.judgedIn!.text,
      steps: recording.stepTexts,
    };
  }
}

/**
 * Judges the recording's new step with the model seeded with the state inferred so far. A state that
 * only gives an order no earlier step named its status (from this step's answer) is set in the model;
 * any other change (the first list, an order added) judges every step again, and an earlier step whose
 * disagreements change is told again. Returns the steps to tell of: the new one, and those.
 */
async function judgeSteps(recording: Recording): Promise<RecordedStep[]> {
  const orders = recording.state.orders();
  const given = recording.judgedIn === undefined ? undefined : statusesGiven(recording.judgedIn.orders, orders);
  const statuses = given?.some(([id]) => recording.touched.has(id)) ? undefined : given;
  const heldBefore = [...recording.held];
  if (statuses === undefined || recording.model === undefined) {
    recording.model = await InterfaceModel.seeded(orders);
    recording.history = new ProviderHistory();
    recording.steps = [];
    recording.stepTexts = [];
    recording.held = [];
    recording.found = [];
    recording.judgedAs = [];
    recording.touched = new Set();
  } else {
    // An order with no status is pending in the model already.
    for (const [id, status] of statuses) if (status !== 'pending') await recording.model.setStatus(id, status);
  }
  if (statuses === undefined || statuses.length > 0)
    recording.judgedIn = { orders, text: stateText(orders, recording.orderLines) };
  const settled = new Set<number>();
  for (const call of recording.calls.slice(recording.steps.length)) {
    const index = recording.steps.length;
    const judged = await judgedStep(recording.model, recording.history, call);
    recording.steps.push(judged.step);
    recording.stepTexts.push('');
    recording.found.push(judged.disagreements);
    recording.judgedAs.push(judged.judgedAs);
    recording.held.push([]);
    const cancelled = cancelledId(call);
    if (cancelled !== undefined) recording.touched.add(cancelled);
    for (const step of settledAtOnce(recording, index)) settled.add(step);
  }
  // Each step settled once told: the new one, and an earlier one whose disagreements changed.
  const last = recording.calls.length - 1;
  return [...settled]
    .sort((left, right) => left - right)
    .filter((step) => step === last || findingsText(heldBefore[step]) !== findingsText(recording.held[step]))
    .map((step) => ({
      file: recording.file,
      step: recording.steps[step]!,
      disagreements: recording.held[step]!,
      ...(step !== last && { again: true as const }),
    }));
}

/**
 * Settles what is held against the upstream for a step and the steps it ran at the same time as (its
 * request came before their answers ended, and theirs before its): such calls are judged in the order
 * their answers ended, which need not be the order the upstream took them in. Among cancels of one order
 * at once with an accepted key, a status is not held against the upstream when exactly one of them is a
 * 204 and the model, one call after another, has exactly one of them cancel it (an honest race; two 204s,
 * or a 204 for a shipped order, are bugs); a list at the same time as such cancels is not held to show
 * the orders they name. Returns the steps settled.
 */
function settledAtOnce(recording: Recording, index: number): number[] {
  const { calls } = recording;
  const settled = [index, ...judgedAtOnce(recording, index)];
  for (const step of settled) {
    const call = calls[step]!;
    // Only cancels with an accepted key change the store.
    const racing = judgedAtOnce(recording, step).filter((position) => acceptedCancel(calls[position]!) !== undefined);
    const id = acceptedCancel(call);
    const sameOrder = [step, ...racing.filter((position) => acceptedCancel(calls[position]!) === id)];
    // An honest race (tolerance race-losers): the model, one call after another, has exactly one of them
    // cancel the order, and so has the upstream, in whatever order their answers ended.
    const settled = (statuses: number[]) => settlesRace(statuses, [204], [404, 409]);
    const racedCancel =
      id !== undefined &&
      sameOrder.length > 1 &&
      settled(sameOrder.map((position) => calls[position]!.exchange.status)) &&
      settled(sameOrder.map((position) => recording.judgedAs[position]!.status));
    // A list at the same time as cancels may leave out the orders they name, and only those (tolerance
    // list-during-cancels).
    const racedIds = new Set(racing.map((position) => acceptedCancel(calls[position]!)!));
    const { missing } = recording.judgedAs[step]!;
    const racedList = call.method === 'GET' && missing.length > 0 && missing.every((order) => racedIds.has(order));
    const held = recording.found[step]!.filter(
      (finding) =>
        !(racedCancel && finding.code === 'status-unexpected') && !(racedList && finding.code === 'order-listed'),
    );
    recording.held[step] = held;
    recording.steps[step] = withRecorded(recording.steps[step]!, call.exchange, held);
    recording.stepTexts[step] = stepText(recording.steps[step]!);
  }
  return settled;
}

/**
 * The judged steps whose call ran at the same time as step `index`'s (each request came before the
 * other's answer ended). Calls are kept in the order their answers ended, so the scan back stops at
 * the first that ended before this one's request came.
 */
function judgedAtOnce(recording: Recording, index: number): number[] {
  const { calls } = recording;
  const { startedAt, endedAt } = calls[index]!.exchange;
  const found: number[] = [];
  for (let other = index - 1; other >= 0 && calls[other]!.exchange.endedAt > startedAt; other--) found.push(other);
  for (let other = index + 1; other < recording.found.length; other++)
    if (calls[other]!.exchange.startedAt < endedAt) found.push(other);
  return found;
}

function findingsText(findings: readonly Finding[] | undefined): string {
  return (findings ?? []).map(({ code, path, expected, actual }) => `${code} ${path} ${expected} ${actual}`).join('\n');
}

// The order a cancel with an accepted key names: one that can change the store.
function acceptedCancel(call: KeptCall): bigint | undefined {
  return isAcceptedKey(call.key) ? cancelledId(call) : undefined;
}

// The order a cancel names, as the mock reads its path.
function cancelledId(call: KeptCall): bigint | undefined {
  return cancelledOrderId(call.method, call.path);
}

/**
 * The statuses `after` gives orders that had none in `before` (the same orders, fields and all, in the
 * same order), or undefined when it changes anything else.
 */
function statusesGiven(
  before: readonly OrderInput[],
  after: readonly OrderInput[],
): [bigint, 'pending' | 'shipped'][] | undefined {
  if (before.length !== after.length) return undefined;
  const given: [bigint, 'pending' | 'shipped'][] = [];
  for (const [index, order] of after.entries()) {
    const earlier = before[index]!;
    if (order === earlier) continue;
    const { status, ...fields } = order;
    const { status: statusBefore, ...fieldsBefore } = earlier;
    if (!sameFields(fields, fieldsBefore)) return undefined;
    if (status === statusBefore) continue;
    if (statusBefore !== undefined || (status !== 'pending' && status !== 'shipped')) return undefined;
    given.push([BigInt(order.id), status]);
  }
  return given;
}

// Whether two orders have the same fields with the same values (each a number, bigint, string or boolean).
function sameFields(left: object, right: object): boolean {
  const entries = Object.entries(left);
  return (
    entries.length === Object.keys(right).length &&
    entries.every(([field, value]) => (right as Record<string, unknown>)[field] === value)
  );
}

async function judgedStep(
  model: InterfaceModel,
  history: ProviderHistory,
  call: KeptCall,
): Promise<{ step: ContractStep; disagreements: Finding[]; judgedAs: { status: number; missing: bigint[] } }> {
  // The store is read only where a step's judgement reads it (whether a 404 is a cancelled order's,
  // which the 404 did not change; a list's orders), not at every step: a copy of thousands of orders.
  const answer = (await model.call(call.method, call.path, call.key))!;
  const read =
    (answer.operation === 'cancelOrder' && answer.status === 404) ||
    (answer.operation === 'listOrders' && answer.status === 200);
  const after = read ? await model.orders() : [];
  const before = answer.operation === 'cancelOrder' ? after : [];
  const { observed } = call.exchange;
  // The specification's findings (and Prism's) are the proxy's, once; the model's change with the state.
  const disagreements =
    observed === undefined
      ? []
      : judgeCall({ call, observed, model: { answer, before, after, history } }).modelFindings;
  const judgedAs = { status: answer.status, missing: missingFromList(after, observed) };
  return { step: { ...stepOf(call, answer, before, after), name: call.title }, disagreements, judgedAs };
}

// The orders the model lists that a list the upstream answered leaves out.
function missingFromList(orders: readonly StoredOrder[], observed: ObservedResponse | undefined): bigint[] {
  if (orders.length === 0 || observed === undefined) return [];
  const body = jsonBody(observed);
  if (!Array.isArray(body)) return [];
  const listed = new Set(
    body.map((entry) =>
      entry !== null && typeof entry === 'object' && !Array.isArray(entry) ? toInt64(entry.id) : undefined,
    ),
  );
  return orders.filter((order) => order.status !== 'cancelled' && !listed.has(order.id)).map((order) => order.id);
}

/** A step with what the upstream answered beside it: its status, the proxy's findings and those held against it. */
function withRecorded(step: ContractStep, exchange: ExchangeToRecord, held: readonly Finding[]): ContractStep {
  const all = [...exchange.findings, ...held];
  return {
    ...step,
    recorded: {
      status: exchange.status,
      ...(all.length > 0 && {
        findings: all.map(({ code, path, expected, actual }) => ({
          code,
          path,
          expected: withoutQueries(expected),
          actual: withoutQueries(actual),
        })),
      }),
    },
  };
}

// The body read exactly, as the checks read it (once: the reading is kept with the response).
function jsonBodyOf(exchange: ExchangeToRecord): JsonValue | undefined {
  return exchange.observed === undefined ? undefined : jsonBody(exchange.observed);
}

// A read identical to the one just before it, answer and all: nothing changed between them.
function repeatsRead(previous: KeptCall | undefined, call: KeptCall): boolean {
  return (
    previous !== undefined &&
    call.method === 'GET' &&
    previous.method === 'GET' &&
    previous.path === call.path &&
    previous.key === call.key &&
    previous.exchange.status === call.exchange.status &&
    previous.exchange.observed !== undefined &&
    previous.exchange.observed.text === call.exchange.observed?.text
  );
}

const keyPhrases: Record<KeyChoice, string> = {
  valid: '',
  none: ' without a key',
  wrong: ' with a wrong key',
  basic: ' with another scheme',
  'lowercase-scheme': ' with the scheme in lower case',
  prefixed: ' with a near key (prefixed)',
  suffixed: ' with a near key (suffixed)',
  containing: ' with a near key (containing)',
  truncated: ' with a near key (truncated)',
};

/**
 * A step's name: what the call does, and with which key.
 * @example
 * stepTitle('DELETE', '/store/orders/3', 'none') // 'cancel order 3 without a key'
 */
export function stepTitle(method: string, path: string, key: KeyChoice): string {
  const match = matchRoute(method, path);
  const parameter = match?.parameter === undefined ? '' : ` ${match.parameter}`;
  const action =
    match?.route.operation === 'cancelOrder'
      ? `cancel order${parameter}`
      : match?.route.operation === 'readPet'
        ? `read pet${parameter}`
        : 'list the orders';
  return `${action}${keyPhrases[key]}`;
}
