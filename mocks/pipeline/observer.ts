// What MSW reports of the responses it gave: the kit's own answers, and those of a handler in front
// of the kit's, which `mock.observe()` journals. No MSW is imported: only its events are listened to.
import { keptBodyLimit, type KeptAnswer } from '../journal/journal.js';
import type { Pipeline } from './pipeline.js';

/** What MSW reports of a mocked response. */
export interface MockedResponseEvent {
  readonly request: Request;
  readonly requestId: string;
  readonly response: Response;
}

/**
 * Anything with MSW's `events`: `setupServer()`, `setupWorker()`, or an msw 3 network (`defineNetwork()`,
 * `virtual:msw`'s `network`), whose listeners get a `ResponseEvent` with the same three fields.
 */
export interface MswEvents {
  readonly events: {
    on(event: 'response:mocked', listener: (event: MockedResponseEvent) => void): unknown;
    removeListener(event: 'response:mocked', listener: (event: MockedResponseEvent) => void): unknown;
  };
}

// The ids of the requests the kit's handlers answered, shared by all mocks (two may share a worker):
// any other answer MSW reports came from a handler in front of the kit's. Bounded, for aborted requests.

export const kitAnswers = {
  ids: new Set<string>(),
  observers: 0,
  note(requestId: string): void {
    if (this.observers === 0) return;
    this.ids.add(requestId);
    if (this.ids.size > 10_000) this.ids.delete(this.ids.values().next().value as string);
  },
  answered(requestId: string): boolean {
    if (!this.ids.has(requestId)) return false;
    queueMicrotask(() => this.ids.delete(requestId));
    return true;
  },
};

/** A handler's answer as the journal keeps it: journaled at once, its body read after (a pact waits for it). */
function answerOfHandler(response: Response): KeptAnswer {
  const answer: KeptAnswer = {
    by: 'handler',
    contentType: response.headers.get('content-type'),
    wwwAuthenticate: response.headers.get('www-authenticate'),
    body: null,
  };
  const deprecation = response.headers.get('deprecation');
  const sunset = response.headers.get('sunset');
  if (deprecation !== null) answer.deprecation = deprecation;
  if (sunset !== null) answer.sunset = sunset;
  answer.bodyRead = response
    .clone()
    .text()
    .then(
      (text) => {
        if (text.length <= keptBodyLimit) answer.body = text;
        else answer.bodyDropped = true;
      },
      () => {
        answer.bodyDropped = true;
      },
    )
    .finally(() => {
      delete answer.bodyRead;
    });
  return answer;
}

/**
 * `mock.observe(source)`: journals what a handler in front of the kit's answers, from MSW's `response:mocked`
 * events; returns the disconnect function.
 * @example
 * const stop = createObserver(pipeline)(server); // server: setupServer()
 */
export function createObserver(pipeline: Pipeline): (source: MswEvents) => () => void {
  const connected = new Map<MswEvents['events'], () => void>();
  return (source) => {
    const existing = connected.get(source.events);
    if (existing !== undefined) return existing;
    const listener = ({ request, requestId, response }: MockedResponseEvent) => {
      if (kitAnswers.answered(requestId)) return;
      if (response.type === 'error') pipeline.recordAnswered(request, 'network');
      else pipeline.recordAnswered(request, response.status, answerOfHandler(response));
    };
    source.events.on('response:mocked', listener);
    kitAnswers.observers++;
    const disconnect = () => {
      if (!connected.delete(source.events)) return;
      source.events.removeListener('response:mocked', listener);
      kitAnswers.observers--;
    };
    connected.set(source.events, disconnect);
    return disconnect;
  };
}
