// The v2 list's cursor (docs/spec-gaps.md gap 51): opaque to a client, it names the last id a page gave
// and the status filter it was given for, so that the next page starts after that id whatever changed.
import { parseInt64 } from '../int64.js';
import type { OrderStatus } from '../provider-state.js';

const cursorText = /^o2:(pending|shipped|cancelled|\*):(-?[0-9]+)$/;

function base64url(text: string): string {
  return btoa(text).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '');
}

/**
 * The cursor of the page after the one that ended with `lastId`, for the same status filter.
 * @example
 * cursorAfter(9007199254740993n, 'pending') // 'bzI6cGVuZGluZzo5MDA3MTk5MjU0NzQwOTkz'
 */
export function cursorAfter(lastId: bigint, status: OrderStatus | undefined): string {
  return base64url(`o2:${status ?? '*'}:${lastId}`);
}

/**
 * The id a cursor starts after, when it is one the mock writes for this status filter: undefined for a
 * text it could not have written (not its form, not canonical, an id past int64) or one written for
 * another filter.
 * @example
 * readCursor(cursorAfter(3n, undefined), undefined) // 3n
 * readCursor(cursorAfter(3n, 'pending'), 'shipped') // undefined
 */
export function readCursor(cursor: string, status: OrderStatus | undefined): bigint | undefined {
  let text: string;
  try {
    text = atob(cursor.replaceAll('-', '+').replaceAll('_', '/'));
  } catch {
    return undefined;
  }
  const match = cursorText.exec(text);
  if (match === null || match[1] !== (status ?? '*')) return undefined;
  const id = parseInt64(match[2]!);
  // Only the text the mock itself writes: a cursor is never read two ways.
  return id !== undefined && cursorAfter(id, status) === cursor ? id : undefined;
}
