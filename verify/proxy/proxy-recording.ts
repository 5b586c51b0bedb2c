import type { Socket } from 'node:net';
import { stringifyJson } from '../../core/stringify-json.js';
import { RecordingError, type ScenarioRecorder } from '../recorder/scenario-recorder.js';
import { respondAndClose } from './relay-exchange.js';
import { changeProviderState } from '../provider/run.js';
import { proxyErrorRecord, VerifyError } from '../base/errors.js';

/**
 * Sets the recorder's known state on the upstream, when it has one.
 * @throws Error saying where and why it failed.
 */
export async function setKnownState(upstream: string, recorder: ScenarioRecorder | undefined): Promise<void> {
  const known = recorder?.knownState;
  if (known?.stateUrl === undefined) return;
  await changeProviderState({ baseUrl: upstream, apiKey: '', stateUrl: known.stateUrl }, known.orders, 'setup').catch(
    (error: Error) => {
      throw new VerifyError('state_not_set', `cannot set the state of scenario ${known.scenario}: ${error.message}`);
    },
  );
}

/**
 * Starts a new recording file: 201 with its name and file, 400 for a name that is none, 404 when not
 * recording; with a known state, 502 when it cannot be set again (the file goes on).
 */
export async function cutRecording(
  client: Socket,
  cut: { recorder: ScenarioRecorder | undefined; upstream: string; name: string | undefined },
): Promise<void> {
  const { recorder, name } = cut;
  if (recorder === undefined) {
    const record = proxyErrorRecord('not_recording', 'The proxy was started without --record.');
    respondAndClose(client, 404, stringifyJson(record), 'Not Found');
    return;
  }
  try {
    if (name !== undefined) recorder.checkName(name);
    await setKnownState(cut.upstream, recorder);
    respondAndClose(client, 201, stringifyJson(recorder.cut(name)), 'Created');
  } catch (error) {
    const record =
      error instanceof RecordingError
        ? proxyErrorRecord('invalid_recording_name', `${error.message}.`)
        : proxyErrorRecord(
            'state_not_set',
            `${(error as Error).message}; the recording goes on in ${recorder.current().file}.`,
          );
    respondAndClose(
      client,
      record.status,
      stringifyJson(record),
      record.status === 400 ? 'Bad Request' : 'Bad Gateway',
    );
  }
}
