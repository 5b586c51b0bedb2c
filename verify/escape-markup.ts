/**
 * Text made safe for XML and HTML, in element content and in quoted attributes alike: `<`, `>`, `&`,
 * `"` and `'` become numeric character references.
 * @example
 * escapeMarkup('expected <a & "b">') // 'expected &#60;a &#38; &#34;b&#34;&#62;'
 */
export function escapeMarkup(text: string): string {
  return text.replace(/[<>&"']/g, (character) => `&#${character.charCodeAt(0)};`);
}
