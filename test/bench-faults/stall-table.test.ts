import { stallRow, stallTable } from '../../bench/faults/stall-table';
import type { StallOutcome } from '../../test/support/stall-cases';

const CODES = ['E_RESPONSE_STALLED', 'E_REQUEST_TIMEOUT'];
const clean = (othersDoneMs: number, victim = 'E_RESPONSE_STALLED'): StallOutcome => ({ wrongBodies: [], lost: [], victim, othersDoneMs, totalMs: othersDoneMs + 500 });

describe('the stalled-response long run\'s rows', () => {
  test('clean loads within the bound pass, with the counts, the stalled one\'s codes and the others\' median and max', () => {
    const row = stallRow('slow-loris body', 'getlist', [clean(1200), clean(1300, 'E_REQUEST_TIMEOUT'), clean(1400)], CODES, 1800);
    expect(row).toEqual({
      stall: 'slow-loris body', strategy: 'getlist', runs: 3, wrongBodies: 0, lost: 0,
      victimCodes: { E_RESPONSE_STALLED: 2, E_REQUEST_TIMEOUT: 1 }, othersDoneMedianMs: 1300, othersDoneMaxMs: 1400, totalMaxMs: 1900, verdict: 'PASS',
    });
    expect(stallTable([row])).toContain('| slow-loris body | getlist | 3 | 0 | 0 | E_RESPONSE_STALLED × 2, E_REQUEST_TIMEOUT × 1 | 1300 / 1400 | PASS |');
  });

  test('one wrong body, one lost request, a stalled one that completed, or one load past the bound fails the row', () => {
    const fails = (o: StallOutcome) => stallRow('s', 'pipelined', [clean(1000), o], CODES, 1800).verdict;
    expect(fails({ ...clean(1000), wrongBodies: ['/r/5.gif'] })).toBe('FAIL');
    expect(fails({ ...clean(1000), lost: [['/r/5.gif', 'E_CONNECTION_LOST']] })).toBe('FAIL');
    expect(fails(clean(1000, 'ok'))).toBe('FAIL');
    expect(fails(clean(1900))).toBe('FAIL');
    expect(fails(clean(1700))).toBe('PASS');
  });
});
