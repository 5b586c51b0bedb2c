// What JSON.stringify leaves raw in a string that still acts in a terminal or a log viewer: DEL, the C1
// controls, the line and paragraph separators and the Unicode bidirectional controls (it escapes C0).
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this module finds, on purpose
const acting = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/**
 * A JSON text with every character that acts rather than shows (as `printable` names them) written as
 * a `\uXXXX` escape: the same JSON value, read back, and a file that is safe to `cat` into a terminal
 * or a CI log. Outside strings, JSON holds none of these characters, so every one replaced was inside
 * a string.
 * @example
 * printableJson('{"method":"GET\u202e"}') // '{"method":"GET\\u202e"}'
 */
export function printableJson(json: string): string {
  return json.replace(acting, (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
