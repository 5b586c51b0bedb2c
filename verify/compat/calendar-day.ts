import { dateTimeFormat } from '../../core/date-time-format.js';

const dayText = /^\d{4}-\d{2}-\d{2}$/;

/**
 * The instant (milliseconds since the epoch) a date written as an RFC 3339 day (`YYYY-MM-DD`, read as
 * its midnight UTC) or date-time names, or undefined for any other text. Never `Date.parse`'s guesses:
 * it takes `2026-02-30` as 2 March and `1` as 2001.
 * @example
 * calendarDay('2026-06-01') // 1780272000000
 * calendarDay('2026-02-30') // undefined
 */
export function calendarDay(text: string, options: { dayOnly?: boolean } = {}): number | undefined {
  if (dayText.test(text)) {
    // A day is valid when its midnight written back is the same day (no rollover to the next month).
    const time = Date.parse(`${text}T00:00:00Z`);
    return !Number.isNaN(time) && new Date(time).toISOString().slice(0, 10) === text ? time : undefined;
  }
  if (options.dayOnly === true || !dateTimeFormat.validate(text)) return undefined;
  const time = Date.parse(text);
  return Number.isNaN(time) ? undefined : time;
}
