// A consumer pact's JSON text as it is written, interaction by interaction: UTF-8 parts counted against
// the pact's size limit, with a turn of the event loop after every slice, so that a big pact neither
// holds the mock up nor grows past what it may hold.
import { nextTurn } from '../store/order-seed.js';

/**
 * The most bytes of JSON text a consumer pact may have (64 MiB): a pact past it is refused with
 * `pact_too_large` as soon as the interactions built so far pass it, never built further, so that the
 * mock never holds more than about this much of a pact's text (and what merging keeps of its interactions).
 * @example
 * createOrderMock({ maxPactBytes: pactSizeLimit / 4 }) // a pact of at most 16 MiB
 */
export const pactSizeLimit = 64 * 1024 * 1024;

// The text a slice of a pact's building writes before the event loop takes a turn: tens of
// milliseconds of work (a list of 1,000 orders is about 340 KiB of interaction, 2,000 about 640 KiB),
// so that other requests, of this session and of others, are answered while a big pact is built.
const sliceBytes = 256 * 1024;

const utf8 = new TextEncoder();

/** How far a pact's text got when it passed its limit. */
export interface PactTooLarge {
  maxBytes: number;
  bytes: number;
}

/**
 * The message of a refused pact: the limit, and how to get under it.
 * @example
 * pactTooLargeMessage('web-app', { maxBytes: 67108864, bytes: 67200000 }) // 'The pact of web-app was not made: its JSON text passed the 67108864 bytes ...'
 */
export function pactTooLargeMessage(consumer: string, { maxBytes }: PactTooLarge): string {
  return `The pact of ${consumer} was not made: its JSON text passed the ${maxBytes} bytes a pact may have (${(maxBytes / 1024 / 1024).toFixed(1)} MiB), and a pact without some of its calls would not be the app's whole contract. Write it in parts (a filter such as ?operation=cancelOrder, or clear it between parts with DELETE /__mock/pact), or list a smaller store.`;
}

/**
 * A pact's JSON text as it is written: each piece encoded as UTF-8 and counted, kept as a part when
 * `keep` (else only counted), refused past `maxBytes`; `pause()` takes a turn of the event loop once a
 * slice's worth has been written since the last.
 * @example
 * const text = new PactText({ maxBytes: 1024, keep: true });
 * text.write('{"consumer":') // true: 12 bytes of 1,024
 * await text.pause(); // a turn of the event loop only after 256 KiB
 */
export class PactText {
  readonly parts: Uint8Array[] = [];
  readonly #maxBytes: number;
  readonly #keep: boolean;
  #bytes = 0;
  #slice = 0;

  constructor({ maxBytes, keep }: { maxBytes: number; keep: boolean }) {
    this.#maxBytes = maxBytes;
    this.#keep = keep;
  }

  /** Writes a piece of the text: false once the text has passed the limit. */
  write(text: string): boolean {
    const part = utf8.encode(text);
    this.#bytes += part.byteLength;
    this.#slice += part.byteLength;
    if (this.#keep) this.parts.push(part);
    return this.#bytes <= this.#maxBytes;
  }

  /** A turn of the event loop, once a slice's worth of text has been written since the last. */
  async pause(): Promise<void> {
    if (this.#slice < sliceBytes) return;
    this.#slice = 0;
    await nextTurn();
  }

  /** How far the text got, for a refusal. */
  tooLarge(): PactTooLarge {
    return { maxBytes: this.#maxBytes, bytes: this.#bytes };
  }
}
