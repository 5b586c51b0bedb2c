/**
 * Where a major of the interface is served, given v1's base (a base URL or its path): v1's base with its
 * last segment `/v1` made the major's (`https://host/api/v1` → `https://host/api/v2`), trailing slashes
 * taken off. The specification puts every deployment's base at a path ending with `/v1` (§1) and the
 * version in that segment (§9), so another major sits beside it; a base that does not end with `/v1`
 * has no major beside it that can be found, and gives undefined (never a guess such as the origin's
 * `/v2`). The one place the kit works this out: the mock, the typed client, the consumer pact, and the
 * harness's walks, guard and proxy all ask it (docs/spec-gaps.md, gap 57).
 * @example
 * majorBase('http://127.0.0.1:4010/api/v1/', '/v2') // 'http://127.0.0.1:4010/api/v2'
 * majorBase('/v1', '/v2') // '/v2'
 * majorBase('/petstore/v1', '') // '/petstore': the prefix below which the majors sit
 * majorBase('http://127.0.0.1:4010/api', '/v2') // undefined
 */
export function majorBase(v1Base: string, major: string): string | undefined {
  const base = v1Base.replace(/\/+$/, '');
  if (major === '/v1') return base;
  return base.endsWith('/v1') ? `${base.slice(0, -'/v1'.length)}${major}` : undefined;
}
