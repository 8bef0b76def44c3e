import type { ConnState, OriginState } from './connection-state';
import { idleAge, roomForRetry } from './idle-race';

/** Just the fields idle-race.ts reads. */
const conn = (id: number, state: ConnState['state'], idleSince: number | undefined) => ({ id, state, idleSince }) as ConnState;
const origin = (conns: ConnState[]) => ({ conns }) as OriginState;

describe('room for a retry that needs a new connection', () => {
  const a = conn(1, 'ready', 10);
  const b = conn(2, 'ready', 40);
  const busy = conn(3, 'ready', undefined);

  test('the idle connection idle the longest is closed when the origin may open none and none is handshaking', () => {
    expect(idleAge(a, 100)).toBe(90);
    expect(roomForRetry(origin([a, b, busy]), [a, b], 100, false)).toBe(a);
  });

  test('nothing is closed when a connection may open, or one is already handshaking, or none is idle', () => {
    expect(roomForRetry(origin([a, b]), [a, b], 100, true)).toBeUndefined();
    expect(roomForRetry(origin([a, b, conn(4, 'connecting', undefined)]), [a, b], 100, false)).toBeUndefined();
    expect(roomForRetry(origin([busy]), [], 100, false)).toBeUndefined();
  });
});
