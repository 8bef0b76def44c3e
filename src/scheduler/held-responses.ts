import type { ConnState, DispatchState, HeldResponse } from './connection-state';

/**
 * Responses that ended but are not trusted yet (`ResponseEndInfo.confirmed` false): on HTTP/1.1 a
 * response is only known to be its request's once the connection was in step after it. They are
 * kept by dispatch id, in the order they ended (the transport confirms by id, O(1)); each
 * connection counts its own (`ConnState.held`). A connection that closes or desynchronises
 * releases all of its own at once — a walk over every held response, but that is rare, and
 * holding is not: on a busy pipeline every response is held (guarded-socket.ts), and a second
 * table per connection cost more than the rest of the response's bookkeeping.
 *
 * Invariant: a response is in the table exactly while its connection counts it; every one leaves
 * exactly once, through `confirm`, `takeAll` or `takeEverything`, and its owner then settles it
 * (as received) or loses it (desync: it may be another request's).
 */
export class HeldResponses {
  private readonly byDispatch = new Map<number, HeldResponse>();

  hold(d: DispatchState, bytes: number, doneAt: number): void {
    d.conn.held += 1;
    this.byDispatch.set(d.id, { dispatch: d, bytes, doneAt });
  }

  /** The held response of `dispatchId`, out of the table; undefined when it is not held. */
  confirm(dispatchId: number): HeldResponse | undefined {
    const h = this.byDispatch.get(dispatchId);
    if (!h) return undefined;
    this.byDispatch.delete(dispatchId);
    h.dispatch.conn.held -= 1;
    return h;
  }

  /** Every response `c` still holds, oldest first, out of the table. */
  takeAll(c: ConnState): HeldResponse[] {
    if (c.held === 0) return [];
    const all: HeldResponse[] = [];
    for (const h of this.byDispatch.values()) if (h.dispatch.conn === c) all.push(h);
    for (const h of all) this.byDispatch.delete(h.dispatch.id);
    c.held = 0;
    return all;
  }

  /** Every held response of every connection (the scheduler is closing). */
  takeEverything(): HeldResponse[] {
    const all = [...this.byDispatch.values()];
    this.byDispatch.clear();
    for (const h of all) h.dispatch.conn.held = 0;
    return all;
  }
}
