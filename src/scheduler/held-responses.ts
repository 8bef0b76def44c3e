import type { ConnState, DispatchState, HeldResponse } from './connection-state';

/**
 * Responses that ended but are not trusted yet (`ResponseEndInfo.confirmed` false): on HTTP/1.1 a
 * response is only known to be its request's once the connection was in step after it. Each is
 * kept twice, by dispatch id (the transport confirms by id, O(1)) and in its connection's ordered
 * `held` set (a connection that closes or desynchronises releases all of its own at once).
 *
 * Invariant: a response is in both or in neither; every one leaves exactly once, through
 * `confirm`, `takeAll` or `takeEverything`, and its owner then settles it (as received) or loses it
 * (desync: it may be another request's).
 */
export class HeldResponses {
  private readonly byDispatch = new Map<number, HeldResponse>();

  hold(d: DispatchState, bytes: number, doneAt: number): void {
    const h: HeldResponse = { dispatch: d, bytes, doneAt };
    d.conn.held.add(h);
    this.byDispatch.set(d.id, h);
  }

  /** The held response of `dispatchId`, out of both tables; undefined when it is not held. */
  confirm(dispatchId: number): HeldResponse | undefined {
    const h = this.byDispatch.get(dispatchId);
    if (!h) return undefined;
    this.byDispatch.delete(dispatchId);
    h.dispatch.conn.held.delete(h);
    return h;
  }

  /** Every response `c` still holds, oldest first, out of both tables. */
  takeAll(c: ConnState): HeldResponse[] {
    const all = [...c.held];
    c.held.clear();
    for (const h of all) this.byDispatch.delete(h.dispatch.id);
    return all;
  }

  /** Every held response of every connection (the scheduler is closing). */
  takeEverything(): HeldResponse[] {
    const all = [...this.byDispatch.values()];
    this.byDispatch.clear();
    for (const h of all) h.dispatch.conn.held.delete(h);
    return all;
  }
}
