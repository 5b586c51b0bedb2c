import { OrderApiError } from 'petstore-contract-kit/client';

/** How a message reads: a success, a refusal the person can understand, or an error. */
export type Tone = 'success' | 'refusal' | 'error';

/** A sentence for the person, and its tone. */
export interface Message {
  text: string;
  tone: Tone;
}

// What every failure means to the person, whatever the operation: the key, the service, the network.
function describeFailure(error: unknown, action: string): Message {
  if (error instanceof OrderApiError) {
    if (error.status === 401) {
      return error.code === 'missing_api_key'
        ? { text: `You are not signed in: enter an API key to ${action}.`, tone: 'error' }
        : {
            text: `The order service did not accept your API key, so it could not ${action}. Check the key and try again.`,
            tone: 'error',
          };
    }
    if (error.status >= 500) {
      return {
        text: `The order service is having trouble (${error.status}), so it could not ${action}. Please try again in a moment.`,
        tone: 'error',
      };
    }
    return {
      text: `The order service refused to ${action} (${error.status}${error.code ? `, ${error.code}` : ''}).`,
      tone: 'error',
    };
  }
  if (error instanceof TypeError)
    return {
      text: `Could not reach the order service to ${action}. Check your connection and try again.`,
      tone: 'error',
    };
  return { text: `Something went wrong while trying to ${action}: ${(error as Error).message}`, tone: 'error' };
}

/**
 * What a cancellation came to, in words.
 * @example
 * describeCancellation('3', new OrderApiError(409, undefined)).text // 'Order 3 has already shipped, so it can no longer be cancelled.'
 */
export function describeCancellation(orderId: string, error?: unknown): Message {
  if (error === undefined) return { text: `Order ${orderId} was cancelled.`, tone: 'success' };
  if (error instanceof OrderApiError && error.status === 409) {
    return { text: `Order ${orderId} has already shipped, so it can no longer be cancelled.`, tone: 'refusal' };
  }
  if (error instanceof OrderApiError && error.status === 404) {
    return {
      text: `Order ${orderId} was not found: there is no such order, or it was already cancelled.`,
      tone: 'refusal',
    };
  }
  return describeFailure(error, `cancel order ${orderId}`);
}

/** Why the orders could not be listed, in words. */
export function describeListFailure(error: unknown): Message {
  return describeFailure(error, 'list your orders');
}
