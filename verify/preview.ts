import { stringifyJson } from '../core/stringify-json.js';

/**
 * A value of a body as a message shows it: its JSON (ids exact), cut to 60 characters, or `nothing`
 * when there is no value.
 * @example
 * preview(9223372036854775807n) // '9223372036854775807'
 * preview(undefined) // 'nothing'
 * preview('x'.repeat(100)).length // 60: 57 characters, then '...'
 */
export function preview(value: unknown): string {
  if (value === undefined) return 'nothing';
  const text = stringifyJson(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}
