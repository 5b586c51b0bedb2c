import { credentialValue, secretsOfFields, secretsOfTrafficUrl, type Confidences } from '../base/redaction.js';
import type { HarEntry } from './har-file.js';

/**
 * What a HAR file holds in confidence, for the one redaction (`Redaction`): every credential of its
 * header fields and cookies (keys, tokens, sessions; not a site's plain cookies such as `tab=orders`), and of every URL it names (user, password, and
 * query values named as credentials or long enough to be tokens), of every entry, the interface's or not;
 * no line shows a URL's user information or query anyway.
 * @example
 * const redaction = new Redaction(harConfidences(entries));
 */
export function harConfidences(entries: readonly HarEntry[]): Required<Confidences> {
  const secrets: string[] = [];
  for (const { request, response } of entries) {
    secrets.push(...secretsOfFields(request.headers), ...secretsOfFields(response.headers));
    for (const cookie of [...(request.cookies ?? []), ...(response.cookies ?? [])])
      if (typeof cookie?.value === 'string' && credentialValue(String(cookie.name ?? ''), cookie.value))
        secrets.push(cookie.value);
    secrets.push(...secretsOfTrafficUrl(request.url));
    if (typeof response.redirectURL === 'string') secrets.push(...secretsOfTrafficUrl(response.redirectURL));
    for (const { name, value } of response.headers)
      if (name.toLowerCase() === 'location' && typeof value === 'string') secrets.push(...secretsOfTrafficUrl(value));
  }
  return { secrets: [...new Set(secrets)], urls: [] };
}
