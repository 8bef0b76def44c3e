import { h2StreamRow, h2StreamTable } from '../../bench/faults/h2-stream-table';
import type { H2StreamCase, H2StreamOutcome } from '../../test/support/h2-stream-cases';

const CASE: H2StreamCase = { name: 'goes away after five streams per connection', fault: { kind: 'goaway-after', limit: 5 }, maxSessions: 8 };
const clean = (totalMs: number, resends = 0, sessions = 6): H2StreamOutcome => ({ wrongBodies: [], lost: [], resends, overSent: [], unanswered: [], sessions, totalMs });

describe('the HTTP/2 stream faults\' long run rows', () => {
  test('clean loads within the case\'s sessions pass, with resends summed and the most sessions any load opened', () => {
    const row = h2StreamRow(CASE, 'getlist', [clean(30, 25), clean(50, 20, 8), clean(40, 25)]);
    expect(row).toEqual({
      fault: CASE.name, strategy: 'getlist', runs: 3, resends: 70, wrongBodies: 0, lost: 0, lostCodes: {}, loadMedianMs: 40, loadMaxMs: 50,
      overSent: 0, unanswered: 0, sessionsMax: 8, verdict: 'PASS',
    });
    expect(h2StreamTable([row], 20)).toContain('| goes away after five streams per connection | getlist | 20 | 3 | 70 | 0 | 0 | 0 | 8 | 40 / 50 | PASS |');
  });

  test('a wrong body, a lost request, a request sent too often, a path never answered, or one session too many fails the row', () => {
    expect(h2StreamRow(CASE, 'h2', [{ ...clean(30), wrongBodies: ['/asset3.bin'] }]).verdict).toBe('FAIL');
    const lost = h2StreamRow(CASE, 'h2', [{ ...clean(30), lost: [['/asset3.bin', 'E_RESPONSE_FAILED']] }]);
    expect(lost).toMatchObject({ lost: 1, lostCodes: { E_RESPONSE_FAILED: 1 }, verdict: 'FAIL' });
    expect(h2StreamTable([lost], 1)).toContain('| 1 (E_RESPONSE_FAILED × 1) |');
    expect(h2StreamRow(CASE, 'h2', [{ ...clean(30), overSent: ['/asset3.bin'] }]).verdict).toBe('FAIL');
    expect(h2StreamRow(CASE, 'h2', [{ ...clean(30), unanswered: ['/asset3.bin'] }]).verdict).toBe('FAIL');
    expect(h2StreamRow(CASE, 'h2', [clean(30, 0, 9)]).verdict).toBe('FAIL');
  });
});
