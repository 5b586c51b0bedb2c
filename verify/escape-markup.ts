/**
 * Text made safe for XML and HTML, in element content and in quoted attributes alike: `<`, `>`, `&`,
 * `"` and `'` become numeric character references.
 */
export function escapeMarkup(text: string): string {
  return text.replace(/[<>&"']/g, (character) => `&#${character.charCodeAt(0)};`);
}
