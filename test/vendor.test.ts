// The vendored @msw/data (vendor/msw-data) is exactly what scripts/vendor-msw-data.mjs builds from the
// pinned @msw/data and lazy-records.patch: no hand edit, no stale copy.
import { describe, expect, it } from 'vitest';
import { projectRoot, runToExit } from './cli-support.js';

describe('vendor/msw-data', () => {
  it('is what the script builds from @msw/data and the patch', async () => {
    const check = await runToExit(process.execPath, ['scripts/vendor-msw-data.mjs', '--check'], {
      cwd: projectRoot,
      timeout: 60_000,
    });
    expect(check.stderr).toBe('');
    expect(check.code).toBe(0);
  }, 60_000);
});
