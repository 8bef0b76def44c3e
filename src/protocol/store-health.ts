import type { Checker, Fields } from './check';

/**
 * The host store's write health, carried by `hello`, `measured` and `stats` replies so the popup
 * and the options page can say when measurements are not being saved. A full disk is `full`:
 * records wait in the host's memory (at most a bounded number) and are written once space
 * returns; records beyond that bound are `dropped`.
 */
export interface StoreHealth {
  state: 'ok' | 'full' | 'failing';
  /** Records accepted and waiting in memory to be written. */
  pending: number;
  /** Records refused because too many were waiting: these are lost. */
  dropped: number;
  /** The last write failure, while state is not `ok`: its store error code and message. */
  error?: { code: string; message: string };
}

export const STORE_HEALTH_STATES: readonly StoreHealth['state'][] = ['ok', 'full', 'failing'];

/**
 * One line for the UI, or undefined when all is well: `store full: 1,234 records not saved`
 * (pending and dropped together: neither is on disk).
 */
export function storeHealthText(h: StoreHealth | undefined): string | undefined {
  if (!h || (h.state === 'ok' && h.dropped === 0)) return undefined;
  const n = h.pending + h.dropped;
  const what = `${n.toLocaleString('en-US')} record${n === 1 ? '' : 's'} not saved`;
  if (h.state === 'full') return `store full: ${what}`;
  if (h.state === 'failing') return `store failing: ${what}${h.error ? ` (${h.error.code})` : ''}`;
  return `store: ${h.dropped.toLocaleString('en-US')} record${h.dropped === 1 ? '' : 's'} lost while the disk was full`;
}

/** Checks an optional `storeHealth` field of a host message. */
export function checkStoreHealth(c: Checker, obj: Fields, key: string, path: string): void {
  if (obj[key] === undefined) return;
  const p = path ? `${path}.${key}` : key;
  const h = c.object(obj[key], p);
  c.oneOf(h, 'state', p, STORE_HEALTH_STATES);
  c.count(h, 'pending', p);
  c.count(h, 'dropped', p);
  if (h.error !== undefined) {
    const e = c.object(h.error, `${p}.error`);
    c.string(e, 'code', `${p}.error`, 64);
    c.string(e, 'message', `${p}.error`, 4096);
  }
}
