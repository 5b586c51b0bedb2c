/**
 * The docs' examples are written for msw 3. What differs on msw 2 is named where it differs (a comment
 * in the README's file, "msw 3 and msw 2" in docs/frontend.md): this is that list, as the suite applies
 * it to run the same blocks on msw 2.
 */
const msw2Names: readonly (readonly [msw3: string, msw2: string])[] = [['onUnhandledFrame', 'onUnhandledRequest']];

/**
 * A docs block's code as a project on the given msw major writes it.
 *
 * @example
 * forMsw(2, "server.listen({ onUnhandledFrame: 'error' })"); // "server.listen({ onUnhandledRequest: 'error' })"
 */
export function forMsw(major: 2 | 3, code: string): string {
  if (major === 3) return code;
  return msw2Names.reduce((text, [msw3, msw2]) => text.replaceAll(msw3, msw2), code);
}
