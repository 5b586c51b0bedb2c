// What the kit says in a pact's metadata (`petstore-contract-kit`): the calls it left out and what the
// mock could not see, in the words the console says them too.
import type { JsonValue } from '../../core/parse-json.js';

/**
 * A call of the journal left out of the pact, and why: it is not the provider's contract, or cannot be
 * stated; or a test whose first-made calls were left out (`call`: `test "NAME"`, `reason`: `did not pass`).
 */
export interface LeftOutCall {
  call: string;
  reason:
    | 'fault'
    | 'network'
    | 'body-too-large'
    | 'not-an-operation'
    | 'pact-limit'
    | 'did not pass'
    // A call that sent a cursor: the provider writes its own (spec gap 54).
    | 'cursor'
    // A page of v2's list with a next cursor: no provider state of the orders it shows gives it (spec gap 54).
    | 'next-cursor';
}

/**
 * The calls a pact leaves out, in the words its file's metadata says them (`leftOut`), and the console too.
 * @example
 * leftOutText([{ call: 'GET /v1/store/orders 200', reason: 'body-too-large' }]) // 'GET /v1/store/orders 200: body-too-large'
 */
export function leftOutText(leftOut: readonly LeftOutCall[]): string {
  return leftOut.length === 0 ? 'none' : leftOut.map((call) => `${call.call}: ${call.reason}`).join('; ');
}

/**
 * What a pact's metadata says of the calls left out and of what the mock could not see.
 * @example
 * kitMetadata([], 0, undefined) // { leftOut: 'none' }
 */
export function kitMetadata(leftOut: readonly LeftOutCall[], overflow: number, unseen: string | undefined): JsonValue {
  return {
    leftOut: leftOutText(leftOut),
    ...(overflow > 0 && { notKept: `${overflow} distinct calls past the pact's limit` }),
    ...(unseen !== undefined && { unseen }),
  };
}

/**
 * What a pact document's metadata says it left out (a file's, the server's, merged ones), or undefined
 * when it says nothing is.
 * @example
 * leftOutIn({ metadata: { 'petstore-contract-kit': { leftOut: 'GET /v1/store/orders 503: fault' } } }) // 'GET /v1/store/orders 503: fault'
 */
export function leftOutIn(pact: Record<string, JsonValue>): string | undefined {
  const metadata = pact.metadata;
  const kit =
    metadata !== null && typeof metadata === 'object' && !Array.isArray(metadata)
      ? metadata['petstore-contract-kit']
      : undefined;
  const leftOut = kit !== null && typeof kit === 'object' && !Array.isArray(kit) ? kit?.leftOut : undefined;
  return typeof leftOut === 'string' && leftOut !== 'none' ? leftOut : undefined;
}
