// How a page of v2's list is read back to the walk it belongs to (core/page-findings.ts `pageWalk`): a
// value the list refuses is read as absent, so no page is judged by a limit the mock would answer 400.
import { describe, expect, it } from 'vitest';
import { pageWalk } from '../../core/page-findings.js';

describe('pageWalk', () => {
  it('reads the status filter, the limit and whether a cursor was sent', () => {
    expect(pageWalk('status=pending&limit=3&cursor=abc')).toEqual({ status: 'pending', limit: 3, cursor: true });
  });

  it('reads a limit written with a leading zero as absent, as the list refuses it (spec gap 58)', () => {
    expect(pageWalk('limit=03')).toEqual({ cursor: false });
  });

  it('reads a status outside the enum as absent', () => {
    expect(pageWalk('status=lost')).toEqual({ cursor: false });
  });
});
