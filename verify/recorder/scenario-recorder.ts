import { readdir, unlink } from 'node:fs/promises';
import * as fileSystem from 'node:fs/promises';
import { FileError } from '../../core/file-error.js';
import { writeRegularFile } from '../../core/regular-file.js';
import { join } from 'node:path';
import type { RecordingNote } from '../../core/scenario.js';
import type { OrderInput } from '../../core/provider-state.js';
import type { JsonValue } from '../../core/parse-json.js';
import { jsonBody, type Finding } from '../../core/checks.js';
import { ProviderHistory } from '../../core/compare.js';
import { createDirectory } from '../scenario/create-directory.js';
import { withoutCredentials } from '../base/redaction.js';
import { pageSeenOf, recordableCall, repeatsRead, type ExchangeToRecord, type RecordedStep } from './recorded-call.js';
import type { PageSeen } from '../scenario/page-against-model.js';
import { RecordedState } from './recorded-state.js';
import { unusedName, RecordingError, timestampedName, writeRecording, type RecordingFile } from './recording-file.js';
import { recordingText, stateText, type RecordingParts } from './recording-text.js';
import { judgements, judgeSteps, type JudgedCalls } from './step-judging.js';
import { savedSteps, unreplayableFindings } from './saved-steps.js';

export { stepTitle, type ExchangeToRecord, type RecordedStep } from './recorded-call.js';
export { RecordingError, timestampedName } from './recording-file.js';

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
  /** The command the files say recorded them. Default: `petstore-verify proxy`. */
  source?: string | undefined;
  /**
   * Write each file once, when it is cut or the recorder closes, rather than again after each step (or
   * batch of steps): for a caller that has every exchange at once (`petstore-verify har`), where writing
   * the whole file again every few steps costs the square of the steps in bytes. `onStep` is then called
   * for every step at that write. Default: false (each step on disk once recorded, as the proxy promises).
   */
  writeAtClose?: boolean | undefined;
  /** Called once each step is on disk. */
  onStep?: (recorded: RecordedStep) => void;
  /** Called once when a file cannot be written: the recording stops there (the proxy goes on). */
  onError?: (error: Error) => void;
}

/** A state set on the upstream before a recording: the scenario it comes from, its state URL and its orders. */
export interface KnownState {
  scenario: string;
  /**
   * Where the proxy sets it (Pact's state change), as given: written in the file without its credentials or
   * query. None when nothing is set: a HAR is past traffic, and the state is what the deployment held when it began.
   */
  stateUrl?: string | undefined;
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
  inferred: { file: string; id: bigint; status: 'pending' | 'shipped' | 'cancelled'; because: string }[];
  /**
   * The values of listed orders the saved state could not hold (a string quantity, a local shipDate, an
   * unknown field, an id that is no int64): the file cannot replay a finding on them. Absent when none.
   */
  dropped?: DroppedValue[];
  /** The findings against the contract or the specification a replay of the file cannot show again, and why. */
  unreplayable: { file: string; step: string; code: string; why: string }[];
  /** Why the recording stopped, when a file could not be written. */
  failed?: string;
}

/** A value of a listed order left out of a recording's state, and why (`id` absent: the entry had no int64 id). */
export interface DroppedValue {
  file: string;
  id?: bigint;
  field: string;
  reason: string;
}

/** The file being written: where it goes, its calls as judged, and what it tells besides. */
interface Recording extends RecordingFile, JudgedCalls {
  started: Date;
  /** Each inference of the file as it writes it, by what it holds. */
  lines: Map<string, string>;
  repeatedReads: number;
  skipped: number;
  /** Steps judged and not yet on disk (written together when exchanges queue up). */
  unwritten: RecordedStep[];
  /** What the v2 page recorded last showed: the cursor a call may follow, and where its page starts. */
  lastPage: PageSeen | undefined;
  /** Whether the file is behind its steps, or only behind its counts (written when it closes). */
  dirty: boolean;
  countsChanged: boolean;
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
      // Without waiting: a FIFO at the probe's name is refused, not written to for ever.
      await writeRegularFile(fileSystem, { path: probe, text: '', action: `write recordings to ${options.directory}` });
      await unlink(probe);
    } catch (error) {
      if (error instanceof FileError) throw new RecordingError(error.message);
      throw new RecordingError(
        `cannot write recordings to ${options.directory}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
      );
    }
    const taken = new Set((await readdir(options.directory)).map((file) => file.replace(/\.ya?ml$/, '')));
    const now = options.now ?? (() => new Date());
    const recorder = new ScenarioRecorder(options, unusedName(options.name ?? timestampedName(now()), taken));
    for (const name of taken) recorder.#names.add(name);
    return recorder;
  }

  /** The file being written, and how many steps it holds. */
  current(): { name: string; file: string; steps: number } {
    const { name, file, calls } = this.#recording;
    return { name, file, steps: savedSteps(calls).length };
  }

  /**
   * Every file written so far with its steps, and how many answers disagree with the contract in them
   * (as last judged).
   */
  written(): WrittenRecordings {
    const recordings = [...this.#finished, this.#recording].filter((recording) => recording.created);
    const against = recordings.flatMap(({ file, calls }) =>
      judgements(calls).flatMap(({ step, disagreements }) =>
        disagreements.length === 0 ? [] : [{ file, step: step.name, findings: [...disagreements] }],
      ),
    );
    const dropped = recordings.flatMap(({ file, state }) =>
      state.dropped().map(({ id, field, reason }) => ({ file, ...(id !== undefined && { id }), field, reason })),
    );
    return {
      // Cancels sent at once are one step of the file (`parallel`).
      files: recordings.map(({ file, calls }) => ({ file, steps: savedSteps(calls).length })),
      disagreements: against.reduce((sum, { findings }) => sum + findings.length, 0),
      against,
      inferred: recordings.flatMap(({ file, state }) =>
        state.inferred().map(({ id, status, because }) => ({ file, id, status, because })),
      ),
      ...(dropped.length > 0 && { dropped }),
      unreplayable: recordings.flatMap(({ file, calls, state }) =>
        unreplayableFindings(calls, state).map((finding) => ({ file, ...finding })),
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
        // A coded file error's message names the file, the cause and what to do; another, its errno.
        this.#failed =
          error instanceof FileError
            ? `the recording stopped: ${message}`
            : `the recording stopped at ${this.#recording.file}: ${code ?? message}`;
        this.#options.onError?.(new RecordingError(this.#failed));
      });
  }

  /**
   * Starts a new file for the steps from now on: named `name`, else with a timestamp.
   * @throws RecordingError when the name is not a scenario name.
   */
  cut(name?: string): { name: string; file: string } {
    const chosen = unusedName(name ?? timestampedName(this.#now()), this.#names);
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
    unusedName(name, new Set());
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
      lines: new Map(),
      orderLines: new WeakMap(),
      state: new RecordedState(this.#options.knownState?.orders),
      judgedIn: undefined,
      model: undefined,
      history: new ProviderHistory(),
      repeatedReads: 0,
      skipped: 0,
      touched: new Set(),
      unwritten: [],
      lastPage: undefined,
      dirty: false,
      countsChanged: false,
      created: false,
    };
  }

  async #recordNow(exchange: ExchangeToRecord): Promise<void> {
    this.#waiting--;
    const recording = this.#recording;
    const call = recordableCall(exchange, recording.calls.length + 1, this.#options.apiKey, recording.lastPage);
    if (call === undefined) {
      recording.skipped++;
      recording.countsChanged = true;
    } else if (repeatsRead(recording.calls.at(-1)?.call, call)) {
      recording.repeatedReads++;
      recording.countsChanged = true;
    } else {
      if (call.v2 !== undefined) call.v2.storeKnown = this.#options.knownState !== undefined;
      recording.calls.push({ call, judgement: undefined });
      // A replay's `cursor: follow` sends the cursor of the v2 page answered last: so does the recording.
      if (call.v2 !== undefined) recording.lastPage = pageSeenOf(call);
      recording.state.observe({
        ...call,
        base: call.v2?.base,
        status: exchange.status,
        body: jsonBodyOf(exchange),
        step: call.title,
        startedAt: exchange.startedAt,
        endedAt: exchange.endedAt,
      });
      recording.unwritten.push(...(await judgeSteps(recording)));
      recording.dirty = true;
    }
    if (this.#options.writeAtClose === true) return;
    if (this.#waiting === 0 || recording.unwritten.length >= stepsWrittenTogether) await this.#flush(recording);
  }

  /** Writes the file if it is behind its steps (or, with `counts`, its counts), then tells of each step it wrote. */
  async #flush(recording: Recording, { counts = false } = {}): Promise<void> {
    const behind = recording.dirty || (counts && recording.countsChanged);
    if (!behind || judgements(recording.calls).length === 0) return;
    await writeRecording(recording, recordingText(this.#parts(recording), recording.lines), this.#names);
    recording.dirty = false;
    recording.countsChanged = false;
    for (const recorded of recording.unwritten.splice(0)) this.#options.onStep?.({ ...recorded, file: recording.file });
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
        from: {
          scenario: known.scenario,
          ...(known.stateUrl !== undefined && { stateUrl: withoutCredentials(known.stateUrl) }),
        },
      }),
      ...(inferred.length > 0 && { inferred }),
      ...(dropped.length > 0 && {
        dropped: dropped.map(({ id, field, reason }) => ({ ...(id !== undefined && { id }), field, reason })),
      }),
      ...(recording.repeatedReads > 0 && { repeatedReads: recording.repeatedReads }),
      ...(recording.skipped > 0 && { skipped: recording.skipped }),
    };
    const steps = savedSteps(recording.calls).map(({ text }) => text);
    const count = steps.length;
    const source = this.#options.source ?? 'petstore-verify proxy';
    const knownWhen = known?.stateUrl === undefined ? 'held when the traffic began' : 'set before the first step';
    return {
      source,
      description: `Recorded by ${source} from ${note.upstream}: ${count} step${count === 1 ? '' : 's'}, each expecting what the contract requires in ${known === undefined ? 'the state the traffic implies' : `the state of scenario ${known.scenario}, ${knownWhen}`}.`,
      recording: note,
      // Made at each write, not at each step: a state of thousands of orders is joined once a write.
      state: stateText(recording.judgedIn!.orders, recording.orderLines),
      steps,
    };
  }
}

// The body read exactly, as the checks read it (once: the reading is kept with the response).
function jsonBodyOf(exchange: ExchangeToRecord): JsonValue | undefined {
  return exchange.observed === undefined ? undefined : jsonBody(exchange.observed);
}
