import { secretsOfFields, type Confidences } from '../redaction.js';
import type { HarEntry } from './har-file.js';

/**
 * What a HAR file holds in confidence, for the one redaction (`Redaction`): every credential of its
 * header fields and cookies (keys, tokens, sessions), and every URL it names (their user information,
 * passwords and query values), of every entry, the interface's or not.
 * @example
 * const redaction = new Redaction(harConfidences(entries));
 */
export function harConfidences(entries: readonly HarEntry[]): Required<Confidences> {
  const secrets: string[] = [];
  const urls: string[] = [];
  for (const { request, response } of entries) {
    secrets.push(...secretsOfFields(request.headers), ...secretsOfFields(response.headers));
    for (const cookie of [...(request.cookies ?? []), ...(response.cookies ?? [])])
      if (typeof cookie?.value === 'string') secrets.push(cookie.value);
    urls.push(request.url);
    if (typeof response.redirectURL === 'string' && response.redirectURL !== '') urls.push(response.redirectURL);
    for (const { name, value } of response.headers)
      if (name.toLowerCase() === 'location' && typeof value === 'string') urls.push(value);
  }
  return { secrets: [...new Set(secrets)], urls: [...new Set(urls)] };
}
