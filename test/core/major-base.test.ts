// Where v2 is served beside v1's base (core/major-base.ts): the one answer the mock, the client, the
// consumer pact, the harness's walks and its proxy share (spec gap 57).
import { describe, expect, it } from 'vitest';
import { majorBase } from '../../core/major-base.js';

describe('majorBase', () => {
  it('puts v2 beside a prefixed v1 base URL, trailing slashes taken off', () => {
    expect(majorBase('https://staging.example.com/api/v1/', '/v2')).toBe('https://staging.example.com/api/v2');
  });

  it('puts v2 beside a base path alone', () => {
    expect(majorBase('/v1', '/v2')).toBe('/v2');
  });

  it("gives v1's base itself for v1, and the prefix for no major", () => {
    expect([majorBase('/petstore/v1//', '/v1'), majorBase('/petstore/v1', '')]).toEqual(['/petstore/v1', '/petstore']);
  });

  it('has no major beside a base that does not end with the segment /v1', () => {
    expect([majorBase('https://host/api', '/v2'), majorBase('https://host/api/xv1', '/v2')]).toEqual([
      undefined,
      undefined,
    ]);
  });
});
