/**
 * The header fields that describe one connection, not the message (RFC 9110 §7.6.1), that the
 * validating proxy and the Pact guard both drop before they forward a message: each adds what it
 * rewrites itself (`host`, and for the guard the framing of the decoded body it answers with).
 * Names are lowercase.
 */
export const hopByHopFields: ReadonlySet<string> = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'te',
  'trailer',
  'upgrade',
]);
