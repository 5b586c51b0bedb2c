import { printable } from '../../core/printable.js';

/**
 * Text made safe for XML and HTML, in element content and in quoted attributes alike: `<`, `>`, `&`,
 * `"` and `'` become numeric character references, and every control character but LF is written
 * as `printable` writes it (XML 1.0 allows no ESC, even as a reference; a CI that prints a JUnit
 * failure would pass a terminal escape or a bidi override on).
 * @example
 * escapeMarkup('a < b\u001b') // 'a &#60; b\\u{1b}'
 */
export function escapeMarkup(text: string): string {
  return printable(text, { keepLineFeeds: true }).replace(/[<>&"']/g, (character) => `&#${character.charCodeAt(0)};`);
}
