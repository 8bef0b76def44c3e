import { idleRow, idleTable } from '../../bench/faults/idle-table';
import type { IdleOutcome } from '../../test/support/idle-cases';

const clean = (totalMs: number, resends = 0): IdleOutcome => ({ wrongBodies: [], lost: [], resends, totalMs });

describe('the idle-close long run\'s rows', () => {
  test('clean loads pass, with the resends summed and the load times\' median and max', () => {
    const row = idleRow(2, 'getlist', [clean(30, 1), clean(50, 4), clean(40)]);
    expect(row).toEqual({
      idleCloseMs: 2, strategy: 'getlist', runs: 3, resends: 5, wrongBodies: 0, lost: 0, lostCodes: {}, loadMedianMs: 40, loadMaxMs: 50, verdict: 'PASS',
    });
    expect(idleTable([row], 20)).toContain('| 2 ms | getlist | 20 | 3 | 5 | 0 | 0 | 40 / 50 | PASS |');
  });

  test('one wrong body or one lost request fails the row, and the lost codes are counted', () => {
    const lost = idleRow(0, 'browser', [clean(30), { ...clean(30), lost: [['/r/5.js', 'E_CONNECTION_LOST'], ['/r/7.gif', 'E_CONNECTION_LOST']] }]);
    expect(lost).toMatchObject({ lost: 2, lostCodes: { E_CONNECTION_LOST: 2 }, verdict: 'FAIL' });
    expect(idleTable([lost], 1)).toContain('| 2 (E_CONNECTION_LOST × 2) |');
    expect(idleRow(0, 'serial', [{ ...clean(30), wrongBodies: ['/r/1.js'] }]).verdict).toBe('FAIL');
  });
});
