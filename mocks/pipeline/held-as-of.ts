import { parseInt64 } from '../../core/int64.js';
import type { RecordedCall } from '../journal/journal.js';
import type { MockSession } from '../session/mock-session.js';

/**
 * How the session's store holds the order a call names (an operation on one order: its path
 * parameter as written, wherever it stands in the path), for a call a handler of the user's answered;
 * undefined for a call that names no order.
 * @example
 * heldAsOf(session, '3') // 'shipped'
 */
export function heldAsOf(session: MockSession, parameter: string | undefined): RecordedCall['heldAs'] {
  if (parameter === undefined) return undefined;
  let id: bigint | undefined;
  try {
    id = parseInt64(decodeURIComponent(parameter));
  } catch {
    return undefined;
  }
  if (id === undefined) return undefined;
  return session.store.find(id)?.status ?? 'absent';
}
