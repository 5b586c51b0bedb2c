import { describe, expect, it } from 'vitest';
import { nearestFlag } from '../../cli/shared.js';

const flags = ['port', 'host', 'api-key', 'deadline', 'write-baseline', 'baseline', 'from-scenario'];

describe('nearestFlag', () => {
  it.each([
    ['prot', 'port'],
    ['hots', 'host'],
    ['apikey', 'api-key'],
    ['HOST', 'host'],
    ['basline', 'baseline'],
    ['write-baselin', 'write-baseline'],
    ['from-scenarios', 'from-scenario'],
  ])('takes --%s for --%s', (typed, meant) => {
    expect(nearestFlag(typed, flags)).toBe(meant);
  });

  it.each(['banana', 'x', 'timeout', 'seed'])('suggests nothing for --%s, which is near no flag', (typed) => {
    expect(nearestFlag(typed, flags)).toBeUndefined();
  });

  it('suggests nothing when the command has no flags', () => {
    expect(nearestFlag('port', [])).toBeUndefined();
  });
});
